import { threadCalls } from '../../thread-calls.js';
import type { DocumentScope, StoredEntry } from '../search-query.js';
import { searchRows, type RowBatch } from './search.js';

/**
 * Makes search rows (their tsvector literals: most of what indexing costs this process, 120-250
 * ms of the event loop for NIST's 800-53 catalog) on a thread of their own, one a store: it keeps
 * up with writes many times over, and a write waits for its rows only while the server is busy
 * with the write's blobs.
 */
export interface SearchRowsThread {
  rows(entries: StoredEntry[], scope: DocumentScope): Promise<RowBatch[]>;
  /** Stops the thread; a write still waiting for it makes its rows on the event loop. */
  close(): Promise<void>;
}

export interface RowsInput {
  entries: StoredEntry[];
  scope: DocumentScope;
}

export const ROWS_SCRIPT = new URL('./search-rows-worker.js', import.meta.url);

export function searchRowsThread(): SearchRowsThread {
  const thread = threadCalls<RowsInput, RowBatch[]>(ROWS_SCRIPT);
  return {
    // A thread that fails costs the write only time: its rows are made here.
    rows: async (entries, scope) =>
      entries.length === 0 ? [] : thread.call({ entries, scope }).catch(() => searchRows(entries, scope)),
    close: () => thread.close(),
  };
}
