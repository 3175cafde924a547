import { parentPort, Worker } from 'node:worker_threads';

/**
 * Calls of one function that runs on a worker thread of its own, off the event loop that takes
 * requests: the thread starts at the first call, and again at the next call after it was lost.
 */
export interface ThreadCalls<In, Out> {
  /** Rejects when the function threw, or the thread was lost (it could not start, ran out of memory, was stopped). */
  call(input: In): Promise<Out>;
  /** Stops the thread; calls under way reject. */
  close(): Promise<void>;
}

interface Answer<Out> {
  id: number;
  output?: Out;
  error?: string;
}

interface Waiting<Out> {
  resolve(output: Out): void;
  reject(e: Error): void;
}

/** Calls answered by `script`, a module that hands its function to answerCalls. */
export function threadCalls<In, Out>(script: URL): ThreadCalls<In, Out> {
  let worker: Worker | undefined;
  let next = 0;
  const waiting = new Map<number, Waiting<Out>>();
  const start = () => {
    const w = new Worker(script);
    w.on('message', ({ id, output, error }: Answer<Out>) => {
      const p = waiting.get(id);
      waiting.delete(id);
      // A thread being closed stays held until it has exited, so that close() is awaited to the end.
      if (waiting.size === 0 && worker === w) w.unref();
      if (error === undefined) p?.resolve(output as Out);
      else p?.reject(new Error(error));
    });
    const lost = (e: Error) => {
      if (worker === w) worker = undefined;
      for (const p of waiting.values()) p.reject(e);
      waiting.clear();
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`the thread of ${script.pathname} exited with code ${code}`)));
    return w;
  };
  return {
    call: (input) =>
      new Promise<Out>((resolve, reject) => {
        worker ??= start();
        const id = next++;
        worker.postMessage({ id, input });
        waiting.set(id, { resolve, reject });
        // Held while it has calls to answer, so that the process waits for them; idle, not.
        worker.ref();
      }),
    async close() {
      const w = worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}

/** In a thread's script: answers each call with what `answer` makes of its input, or what it threw. */
export function answerCalls<In, Out>(answer: (input: In) => Out): void {
  parentPort!.on('message', ({ id, input }: { id: number; input: In }) => {
    let reply: Answer<Out>;
    try {
      reply = { id, output: answer(input) };
    } catch (e) {
      reply = { id, error: e instanceof Error ? e.message : String(e) };
    }
    parentPort!.postMessage(reply);
  });
}
