/**
 * What the HTTP benchmark groups (bench/http.ts, bench/http-writes.ts) share: their child
 * processes, the temporary folder and the PostgreSQL databases they make, all cleaned up however
 * a group ends (normally, by an error, or by SIGINT/SIGTERM); and the output helpers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase, dropBenchDatabaseSync, type BenchDatabase } from './http-database.js';
import { freePort, serveArgs } from '../test/support/serve-process.js';
import { Client, decodedBody, type Reply } from './http-support.js';

// ---------------------------------------------------------------------------------------------
// Child processes and other leftovers: every one is cleaned up however the benchmark ends.

const live = new Set<ChildProcess>();
/** Synchronous, so they can run from an exit or signal handler; each removes itself once done. */
const leftovers = new Set<() => void>();

function killAll(): void {
  for (const child of live) child.kill('SIGKILL');
}

function cleanUpNow(): void {
  killAll();
  for (const undo of [...leftovers].reverse()) {
    leftovers.delete(undo);
    try {
      undo();
    } catch (e) {
      console.error(`  cleanup failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** Interrupted: the children go first (they hold files and connections), then the rest. */
function onSignal(signal: NodeJS.Signals): void {
  cleanUpNow();
  process.kill(process.pid, signal);
}

export class Child {
  output = '';
  readonly exited: Promise<number | null>;

  constructor(
    readonly name: string,
    readonly process: ChildProcess,
  ) {
    live.add(process);
    this.exited = new Promise((resolve) =>
      process.once('exit', (code) => {
        live.delete(process);
        resolve(code);
      }),
    );
    process.stdout?.on('data', (d) => (this.output += d));
    process.stderr?.on('data', (d) => (this.output += d));
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** SIGTERM, then SIGKILL after a grace period; says whether it had to kill. */
  async stop(graceMs: number): Promise<boolean> {
    if (!this.running) return false;
    this.process.kill('SIGTERM');
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
    if ((await Promise.race([this.exited, timer])) !== 'late') return false;
    this.process.kill('SIGKILL');
    await this.exited;
    return true;
  }
}

export interface Group {
  /** A fresh temporary folder, removed at the end. */
  dir: string;
  /** A fresh PostgreSQL database, dropped at the end (WITH (FORCE)). */
  database(): Promise<BenchDatabase>;
  /** Started children are stopped (SIGTERM, then SIGKILL) in reverse order at the end. */
  adopt<T extends Child>(child: T): T;
}

/**
 * Runs one benchmark group: whatever it leaves (children, the temporary folder, databases) is
 * removed when it returns or throws, and also on SIGINT/SIGTERM or an early exit.
 */
export async function runGroup(prefix: string, body: (group: Group) => Promise<void>): Promise<void> {
  process.on('exit', cleanUpNow);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  leftovers.add(removeDir);
  const children: Child[] = [];
  const databases: BenchDatabase[] = [];
  try {
    await body({
      dir,
      adopt: (child) => {
        children.push(child);
        return child;
      },
      database: async () => {
        const db = await createBenchDatabase();
        databases.push(db);
        leftovers.add(db.dropSync);
        return db;
      },
    });
  } finally {
    for (const child of children.reverse()) {
      if (await child.stop(3000)) console.log(`  note: ${child.name} had not exited 3 s after SIGTERM; killed`);
    }
    killAll();
    for (const db of databases) {
      leftovers.delete(db.dropSync);
      try {
        await db.drop();
      } catch (e) {
        console.error(
          `  dropping ${db.name} failed (${e instanceof Error ? e.message : String(e)}); trying once more in a separate process`,
        );
        dropBenchDatabaseSync(db.name);
      }
    }
    leftovers.delete(removeDir);
    removeDir();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', cleanUpNow);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Depot {
  child: Child;
  client: Client;
  origin: string;
}

/**
 * `oscal-depot serve` on a free port, once /readyz answers 200. With a database URL the store is
 * PostgreSQL; the data directory then holds only the first admin token (written by whichever
 * server finds no token in the database).
 */
export async function startDepot(
  group: Group,
  dataDir: string,
  options: { databaseUrl?: string; name?: string; extraArgs?: string[] } = {},
): Promise<Depot> {
  const port = await freePort();
  const args = serveArgs(port, dataDir, options.extraArgs);
  if (options.databaseUrl) args.push('--database-url', options.databaseUrl);
  // DATABASE_URL in the bench's own environment must not turn a SQLite server into a PostgreSQL one.
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const child = group.adopt(
    new Child(
      options.name ?? 'oscal-depot serve',
      spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env }),
    ),
  );
  const origin = `http://127.0.0.1:${port}`;
  const client = new Client(origin);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!child.running) throw new Error(`${child.name} exited: ${child.output}`);
    try {
      if ((await client.send('GET', '/readyz', {})).status === 200) return { child, client, origin };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${child.name} did not become ready: ${child.output}`);
    await sleep(50);
  }
}

// ---------------------------------------------------------------------------------------------
// Output

export const kb = (bytes: number) =>
  bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} KB`;

export function line(label: string, value: string, ratio: number, floor: string, target?: string): void {
  console.log(
    `  ${label.padEnd(36)} ${value.padStart(11)}   ${ratio.toFixed(2).padStart(6)}x ${floor}${target ? `   (${target})` : ''}`,
  );
}

export function expectStatus(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status)
    throw new Error(
      `${what}: HTTP ${reply.status}, expected ${status}: ${decodedBody(reply).toString('utf8').slice(0, 500)}`,
    );
  return reply;
}
