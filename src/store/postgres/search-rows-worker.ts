import { parentPort } from 'node:worker_threads';
import type { DocumentScope, StoredEntry } from '../search-query.js';
import { searchRows } from './search.js';

/** The thread of search-rows-thread.ts: each message a document's new entries, answered with their rows. */
parentPort!.on('message', ({ id, entries, scope }: { id: number; entries: StoredEntry[]; scope: DocumentScope }) => {
  parentPort!.postMessage({ id, batches: searchRows(entries, scope) });
});
