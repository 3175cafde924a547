import { Worker } from 'node:worker_threads';
import type { StoreConfig } from '../store/index.js';

/** The pool of rendition worker threads of one server process. */
export class RenditionWorkers {
  private readonly workers: Worker[] = [];

  constructor(count: number, store: StoreConfig, onError: (e: Error) => void) {
    for (let i = 0; i < count; i++) {
      const worker = new Worker(new URL('./rendition-worker.js', import.meta.url), { workerData: store });
      worker.on('error', onError);
      this.workers.push(worker);
    }
  }

  /** Tells idle workers that jobs were queued. */
  wake(): void {
    for (const w of this.workers) w.postMessage('wake');
  }

  /** Lets each worker finish the job in hand, then waits for it to exit. */
  async stop(): Promise<void> {
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.postMessage('stop');
          }),
      ),
    );
  }
}
