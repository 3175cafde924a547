import { Worker } from 'node:worker_threads';
import type { ResultLimits, ResultSequence } from './metapath-items.js';

/** One expression over one stored document: its JSON form as stored (gzipped) and that form's hash. */
export interface EvaluationJob {
  expression: string;
  hash: string;
  canonical: Uint8Array;
  limits: ResultLimits;
}

export type EvaluationAnswer =
  | { result: ResultSequence }
  | { error: { code: string; message: string; position: number | undefined } }
  | { tooCostly: Cost }
  /** Not the expression's fault: a bug, whose stack the server logs. */
  | { failure: string };

export type Cost = 'time' | 'memory' | 'recursion';

export interface ThreadLimits {
  /** Threads evaluating at once; further expressions wait for one. */
  threads: number;
  /** An evaluation still running after this long is stopped (its thread with it). */
  timeLimitMs: number;
  /** The heap of each thread: an evaluation that needs more stops its thread. */
  memoryMb: number;
  /** A thread idle this long ends, and the document it holds is let go. */
  idleMs: number;
}

interface Call {
  job: EvaluationJob;
  resolve(answer: EvaluationAnswer): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  /** The hash of the document the thread holds, so that the next expression over it goes there. */
  hash?: string;
  call?: Call;
  timer?: NodeJS.Timeout;
}

const SCRIPT = new URL('./metapath-worker.js', import.meta.url);

/**
 * Metapath evaluations of the server, each on a worker thread, off the event loop, with a bound on
 * its time and memory: an expression can ask for work without end (`(1 to 9999999) ! (1 to 9999999)`),
 * and only stopping the thread that runs it stops that, whatever the expression is. Threads start
 * when needed, stay while busy, and end after a while idle.
 */
export class MetapathThreads {
  private readonly slots: Slot[] = [];
  private readonly waiting: Call[] = [];

  constructor(private readonly limits: ThreadLimits) {}

  evaluate(job: EvaluationJob): Promise<EvaluationAnswer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot = this.freeSlot(this.waiting[0]!.job.hash);
      if (!slot) return;
      this.run(slot, this.waiting.shift()!);
    }
  }

  /** An idle thread, the one holding the document if any; a new one while there are fewer than allowed. */
  private freeSlot(hash: string): Slot | undefined {
    const idle = this.slots.filter((s) => s.call === undefined);
    const found = idle.find((s) => s.hash === hash) ?? idle[0];
    if (found || this.slots.length >= this.limits.threads) return found;
    return this.start();
  }

  private start(): Slot {
    const worker = new Worker(SCRIPT, { resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb } });
    const slot: Slot = { worker };
    worker.on('message', (answer: EvaluationAnswer) => this.answered(slot, answer));
    worker.on('error', (e: Error & { code?: string }) =>
      this.lose(slot, e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { tooCostly: 'memory' } : e),
    );
    worker.on('exit', (code) => this.lose(slot, new Error(`the Metapath thread exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, call: Call): void {
    clearTimeout(slot.timer);
    slot.call = call;
    slot.timer = setTimeout(() => this.lose(slot, { tooCostly: 'time' }), this.limits.timeLimitMs);
    // Held while it works, so that the process waits for its answer; idle, not.
    slot.worker.ref();
    slot.worker.postMessage(call.job);
  }

  private answered(slot: Slot, answer: EvaluationAnswer): void {
    const call = slot.call;
    clearTimeout(slot.timer);
    slot.call = undefined;
    slot.hash = call?.job.hash;
    slot.worker.unref();
    slot.timer = setTimeout(() => this.lose(slot), this.limits.idleMs).unref();
    call?.resolve(answer);
    this.dispatch();
  }

  /** Ends the thread; the call it had in hand gets `outcome`, an answer that says why or an error. */
  private lose(slot: Slot, outcome?: EvaluationAnswer | Error): void {
    const at = this.slots.indexOf(slot);
    if (at === -1) return;
    this.slots.splice(at, 1);
    clearTimeout(slot.timer);
    void slot.worker.terminate();
    if (slot.call && outcome) {
      if (outcome instanceof Error) slot.call.reject(outcome);
      else slot.call.resolve(outcome);
    }
    this.dispatch();
  }
}
