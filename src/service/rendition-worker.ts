import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { openStore, type StoreConfig } from '../store/index.js';
import { renderRevision } from './content.js';

/**
 * A worker thread that makes renditions of large documents off the event loop: it claims queued
 * jobs from the store until none are left, then sleeps until woken or the poll interval passes
 * (jobs queued by another process are found that way).
 */
const POLL_MS = 2000;
const store = await openStore(workerData as StoreConfig, { connections: 2 });
const name = `worker-${randomUUID()}`;
let stopping = false;
let wake: (() => void) | undefined;

parentPort!.on('message', (message: string) => {
  if (message === 'stop') stopping = true;
  wake?.();
});

while (!stopping) {
  const job = await store.claimJob(name);
  if (!job) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, POLL_MS).unref();
    });
    continue;
  }
  try {
    await store.finishJob(job.id, { rendition: await renderRevision(store, job.documentId, job.revision, job.format) });
  } catch (e) {
    await store.finishJob(job.id, { error: e instanceof Error ? e.message : String(e) });
  }
  parentPort!.postMessage({ done: job.id });
}
await store.close();
// The message listener would keep this thread alive.
parentPort!.close();
