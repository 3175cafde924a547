/**
 * A fresh PostgreSQL database for one benchmark run, on the server named by BENCH_POSTGRES_URL
 * (default: the local one, postgres://postgres@127.0.0.1:5432/postgres). Dropped WITH (FORCE) at
 * the end, which also ends the connections of servers that were killed rather than stopped.
 *
 * Also a command, for dropping from an exit or signal handler, where nothing asynchronous runs:
 *   node dist/bench/http-database.js drop <name>
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { cpuSeconds } from './http-support.js';

export const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = /^oscal_depot_bench_[0-9a-f]+$/;
const SELF = fileURLToPath(import.meta.url);

export interface BenchDatabase {
  name: string;
  url: string;
  /** "PostgreSQL 15.20, synchronous_commit=on, fsync=on" */
  describe(): Promise<string>;
  /**
   * CPU seconds used so far by the server processes serving connections to this database (read
   * from /proc: undefined when the server is on another machine).
   */
  backendCpu(): Promise<number | undefined>;
  drop(): Promise<void>;
  dropSync(): void;
}

const admin = () => postgres(ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 10 });

export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `oscal_depot_bench_${randomBytes(6).toString('hex')}`;
  const sql = admin();
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } catch (e) {
    throw new Error(
      `cannot create a database on ${ADMIN_URL} (set BENCH_POSTGRES_URL to a server where the user may): ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  // One connection to the admin database watches this one's backends (and is not among them).
  let monitor: postgres.Sql | undefined;
  const backends = async () => {
    monitor ??= admin();
    const rows =
      await monitor`SELECT pid FROM pg_stat_activity WHERE datname = ${name} AND backend_type = 'client backend'`;
    return rows.map((r) => r.pid as number);
  };
  const closeMonitor = async () => {
    const m = monitor;
    monitor = undefined;
    await m?.end({ timeout: 5 });
  };
  return {
    name,
    url: url.toString(),
    describe: async () => {
      const sql = admin();
      try {
        const [row] =
          await sql`SELECT current_setting('server_version') AS v, current_setting('synchronous_commit') AS sc, current_setting('fsync') AS fsync, current_setting('shared_buffers') AS sb`;
        return `PostgreSQL ${String(row!.v).split(' ')[0]} at ${url.host}, synchronous_commit=${row!.sc}, fsync=${row!.fsync}, shared_buffers=${row!.sb}`;
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
    backendCpu: async () => {
      let total: number | undefined;
      for (const pid of await backends()) {
        const cpu = cpuSeconds(pid);
        if (cpu !== undefined) total = (total ?? 0) + cpu;
      }
      return total;
    },
    drop: async () => {
      await closeMonitor();
      await dropBenchDatabase(name);
    },
    dropSync: () => dropBenchDatabaseSync(name),
  };
}

export async function dropBenchDatabase(name: string): Promise<void> {
  if (!NAME.test(name)) throw new Error(`not a bench database: ${name}`);
  const sql = admin();
  try {
    await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Blocks until the database is dropped (in a child process); reports, never throws. */
export function dropBenchDatabaseSync(name: string): void {
  const r = spawnSync(process.execPath, [SELF, 'drop', name], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 30_000,
  });
  if (r.status !== 0)
    console.error(
      `  could not drop database ${name} (exit ${r.status ?? r.signal}); drop it by hand: DROP DATABASE ${name} WITH (FORCE)`,
    );
}

if (process.argv[1] === SELF) {
  const [command, name] = process.argv.slice(2);
  if (command !== 'drop' || !name) throw new Error('usage: http-database.js drop <name>');
  await dropBenchDatabase(name);
}
