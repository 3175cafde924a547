import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

export interface ProcessLimits {
  /** Processes evaluating at once; further expressions wait for one. */
  processes: number;
  /** An evaluation still running after this long is stopped (its process with it). */
  timeLimitMs: number;
  /** The heap of each process: an evaluation that needs more ends its process. */
  memoryMb: number;
  /** A process idle this long ends, and the document it holds is let go. */
  idleMs: number;
}

interface Call {
  job: EvaluationJob;
  resolve(answer: EvaluationAnswer): void;
  reject(e: Error): void;
}

interface Slot {
  child: ChildProcess;
  /** The hash of the document the process holds, so that the next expression over it goes there. */
  hash?: string;
  call?: Call;
  timer?: NodeJS.Timeout;
}

const SCRIPT = fileURLToPath(new URL('./metapath-child.js', import.meta.url));

/**
 * Metapath evaluations of the server, each in a child process, with a bound on its time and
 * memory: an expression can ask for work without end (`(1 to 9999999) ! (1 to 9999999)`), and only
 * stopping what runs it stops that, whatever the expression is. Not worker threads: a thread over
 * its heap limit while one array grows aborts the whole process (nodejs/node#47224), where a child
 * process over its own just ends. Processes start when needed, stay while busy, and end after a
 * while idle.
 */
export class MetapathProcesses {
  private readonly slots: Slot[] = [];
  private readonly waiting: Call[] = [];

  constructor(private readonly limits: ProcessLimits) {}

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

  /** An idle process, the one holding the document if any; a new one while there are fewer than allowed. */
  private freeSlot(hash: string): Slot | undefined {
    const idle = this.slots.filter((s) => s.call === undefined);
    const found = idle.find((s) => s.hash === hash) ?? idle[0];
    if (found || this.slots.length >= this.limits.processes) return found;
    return this.start();
  }

  private start(): Slot {
    const child = fork(SCRIPT, [], {
      // Its own flags, not the server's (nor a test runner's).
      execArgv: [`--max-old-space-size=${this.limits.memoryMb}`],
      serialization: 'advanced',
      // V8's report of a heap run out is no news to the server's log: the answer says it.
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const slot: Slot = { child };
    child.on('message', (answer: EvaluationAnswer) => this.answered(slot, answer));
    child.on('error', (e) => this.lose(slot, e));
    child.on('exit', (code, signal) =>
      // A heap run out aborts the process (SIGABRT, or exit status 134 through a shell).
      this.lose(
        slot,
        signal === 'SIGABRT' || code === 134
          ? { tooCostly: 'memory' }
          : new Error(`the Metapath process exited (${signal ?? code})`),
      ),
    );
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, call: Call): void {
    clearTimeout(slot.timer);
    slot.call = call;
    slot.timer = setTimeout(() => this.lose(slot, { tooCostly: 'time' }), this.limits.timeLimitMs);
    // Held while it works, so that the server waits for its answer; idle, not.
    hold(slot.child, true);
    slot.child.send(call.job);
  }

  private answered(slot: Slot, answer: EvaluationAnswer): void {
    const call = slot.call;
    clearTimeout(slot.timer);
    slot.call = undefined;
    slot.hash = call?.job.hash;
    hold(slot.child, false);
    slot.timer = setTimeout(() => this.lose(slot), this.limits.idleMs).unref();
    call?.resolve(answer);
    this.dispatch();
  }

  /** Ends the process; the call it had in hand gets `outcome`, an answer that says why or an error. */
  private lose(slot: Slot, outcome?: EvaluationAnswer | Error): void {
    const at = this.slots.indexOf(slot);
    if (at === -1) return;
    this.slots.splice(at, 1);
    clearTimeout(slot.timer);
    slot.child.kill('SIGKILL');
    if (slot.call && outcome) {
      if (outcome instanceof Error) slot.call.reject(outcome);
      else slot.call.resolve(outcome);
    }
    this.dispatch();
  }
}

function hold(child: ChildProcess, held: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | undefined;
  if (held) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}
