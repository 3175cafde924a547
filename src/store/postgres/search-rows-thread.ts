import { Worker } from 'node:worker_threads';
import type { DocumentScope, StoredEntry } from '../search-query.js';
import { searchRows, type RowBatch } from './search.js';

/**
 * Makes search rows (their tsvector literals: most of what indexing costs this process, 60 ms
 * and more for a large catalog) on a thread of its own, off the event loop that takes requests and
 * hands every write's statements to the server. One thread: it keeps up with writes many times
 * over, and a write waits for its rows only while the server is busy with the write's blobs.
 */
export interface SearchRowsThread {
  rows(entries: StoredEntry[], scope: DocumentScope): Promise<RowBatch[]>;
  /** Stops the thread, once no write waits for it. */
  close(): Promise<void>;
}

interface Waiting {
  resolve(batches: RowBatch[]): void;
  reject(e: Error): void;
}

export function searchRowsThread(): SearchRowsThread {
  let worker: Worker | undefined;
  let next = 0;
  const waiting = new Map<number, Waiting>();
  const start = () => {
    const w = new Worker(new URL('./search-rows-worker.js', import.meta.url));
    // Idle, it must not keep a process alive; a write waiting for it holds a connection that does.
    w.unref();
    w.on('message', ({ id, batches }: { id: number; batches: RowBatch[] }) => {
      waiting.get(id)?.resolve(batches);
      waiting.delete(id);
    });
    const lost = (e: Error) => {
      if (worker === w) worker = undefined;
      for (const p of waiting.values()) p.reject(e);
      waiting.clear();
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`the search rows thread exited with code ${code}`)));
    return w;
  };
  const inThread = (entries: StoredEntry[], scope: DocumentScope) =>
    new Promise<RowBatch[]>((resolve, reject) => {
      worker ??= start();
      const id = next++;
      worker.postMessage({ id, entries, scope });
      waiting.set(id, { resolve, reject });
    });
  return {
    // A thread that fails (it could not start, or ran out of memory) costs the write only time:
    // its rows are made here, and the next write starts a thread again.
    rows: async (entries, scope) =>
      entries.length === 0 ? [] : inThread(entries, scope).catch(() => searchRows(entries, scope)),
    async close() {
      const w = worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}
