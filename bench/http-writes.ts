/**
 * Write throughput over HTTP on loopback, with one server process and with two on the same
 * PostgreSQL database, beside one process on SQLite (which allows one writer at a time).
 *
 * The load is a bounded set of keep-alive connections, each sending one write at a time until the
 * run's time is up: a POST of a small SSP (a new document: the body has no document-ids, so the
 * server assigns one) and a PUT of it to one of a set of existing SSPs (a new revision), in turn.
 * Every body carries its own title, so no two writes store the same bytes. With two processes the
 * connections are split evenly between them. Runs alternate 1-2-2-1, so drift (the tables grow,
 * the machine's other load comes and goes) falls on both alike.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { type BenchDatabase } from './http-database.js';
import { expectStatus, kb, line, runGroup, startDepot, type Depot, type Group } from './http-harness.js';
import { Client, cpuSeconds, decodedBody } from './http-support.js';
import { SHARED } from './measure.js';

const SSP_JSON = join(SHARED, 'content', 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json');
const CONNECTIONS = 16;
const SECONDS = 10;
const WARMUP_SECONDS = 2;
const PUT_TARGETS = 32;

const TITLE_SLOT = 'OSCAL-DEPOT-BENCH-TITLE-SLOT';

/** The SSP example as JSON with a title of its own for each write. */
class Bodies {
  private readonly template: string;
  private next = 0;

  constructor() {
    const doc = JSON.parse(readFileSync(SSP_JSON, 'utf8')) as {
      'system-security-plan': { metadata: { title: string; 'document-ids'?: unknown } };
    };
    const metadata = doc['system-security-plan'].metadata;
    if (metadata['document-ids'])
      throw new Error(`${SSP_JSON} has document-ids: each POST would name the same document`);
    metadata.title = TITLE_SLOT;
    this.template = JSON.stringify(doc, null, 2) + '\n';
  }

  get size(): number {
    return Buffer.byteLength(this.template);
  }

  body(): Buffer {
    return Buffer.from(this.template.replace(TITLE_SLOT, `Bench write ${String(this.next++).padStart(9, '0')}`));
  }
}

// ---------------------------------------------------------------------------------------------
// CPU over a run

/**
 * Busy CPU seconds of the whole machine (all cores) from /proc/stat, and the part spent in
 * interrupts (loopback networking runs there, charged to no process); undefined where missing.
 */
function machineSeconds(): { busy: number; irq: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields as number[];
    return { busy: (user! + nice! + system! + irq! + softirq! + steal!) / 100, irq: (irq! + softirq!) / 100 };
  } catch {
    return undefined;
  }
}

interface CpuSample {
  servers: number | undefined;
  db: number | undefined;
  client: number;
  machine: number | undefined;
  irq: number | undefined;
}

async function sampleCpu(servers: Depot[], db: BenchDatabase | undefined): Promise<CpuSample> {
  let total: number | undefined = 0;
  for (const s of servers) {
    const cpu = cpuSeconds(s.child.pid);
    total = cpu === undefined || total === undefined ? undefined : total + cpu;
  }
  const usage = process.cpuUsage();
  const machine = machineSeconds();
  return {
    servers: total,
    db: await db?.backendCpu(),
    client: (usage.user + usage.system) / 1e6,
    machine: machine?.busy,
    irq: machine?.irq,
  };
}

const delta = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? undefined : b - a;

// ---------------------------------------------------------------------------------------------
// The load

interface Run {
  posts: number;
  puts: number;
  seconds: number;
  latencies: number[];
  /** Cores busy over the run (CPU seconds / wall seconds). */
  cpu: {
    servers: number | undefined;
    db: number | undefined;
    client: number;
    machine: number | undefined;
    irq: number | undefined;
  };
}

/** CONNECTIONS writers over these servers for a while; throws on any reply but 201/204. */
async function drive(
  servers: Depot[],
  token: string,
  targets: string[],
  bodies: Bodies,
  seconds: number,
  db: BenchDatabase | undefined,
): Promise<Run> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' };
  const clients = Array.from({ length: CONNECTIONS }, (_, k) => new Client(servers[k % servers.length]!.origin));
  const latencies: number[] = [];
  const errors: string[] = [];
  let posts = 0;
  let puts = 0;
  let turn = 0;
  const before = await sampleCpu(servers, db);
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    clients.map(async (client, k) => {
      for (let i = k; performance.now() < deadline && errors.length === 0; i++) {
        const post = i % 2 === 0;
        const path = post
          ? '/oscal/v1/system-security-plan'
          : `/oscal/v1/system-security-plan/${targets[turn++ % targets.length]}`;
        try {
          const reply = await client.send(post ? 'POST' : 'PUT', path, headers, bodies.body());
          if (reply.status !== (post ? 201 : 204)) {
            errors.push(
              `${post ? 'POST' : 'PUT'} ${path} -> ${reply.status}: ${decodedBody(reply).toString('utf8').slice(0, 300)}`,
            );
            continue;
          }
          latencies.push(reply.ms);
          if (post) posts++;
          else puts++;
        } catch (e) {
          errors.push(`${post ? 'POST' : 'PUT'} ${path}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }),
  );
  const wall = (performance.now() - start) / 1000;
  const after = await sampleCpu(servers, db);
  for (const c of clients) c.close();
  if (errors.length) throw new Error(`${errors.length} failed writes, the first: ${errors[0]}`);
  const share = (x: number | undefined) => (x === undefined ? undefined : x / wall);
  return {
    posts,
    puts,
    seconds: wall,
    latencies,
    cpu: {
      servers: share(delta(before.servers, after.servers)),
      db: share(delta(before.db, after.db)),
      client: (after.client - before.client) / wall,
      machine: share(delta(before.machine, after.machine)),
      irq: share(delta(before.irq, after.irq)),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Figures

interface Figures {
  runs: Run[];
  perSecond: number;
  posts: number;
  puts: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** The runs of one setting pooled: writes over the time of all its runs, latencies together. */
function figures(runs: Run[]): Figures {
  const seconds = runs.reduce((t, r) => t + r.seconds, 0);
  const posts = runs.reduce((t, r) => t + r.posts, 0);
  const puts = runs.reduce((t, r) => t + r.puts, 0);
  const sorted = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return {
    runs,
    perSecond: (posts + puts) / seconds,
    posts: posts / seconds,
    puts: puts / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}

function mean(values: (number | undefined)[]): number | undefined {
  return values.some((v) => v === undefined) ? undefined : values.reduce<number>((t, v) => t + v!, 0) / values.length;
}

/** Cores busy over a run that were neither the servers, their PostgreSQL backends, the load client nor interrupts. */
function otherLoad(r: Run): number | undefined {
  if (r.cpu.machine === undefined || r.cpu.servers === undefined) return undefined;
  return Math.max(0, r.cpu.machine - r.cpu.servers - (r.cpu.db ?? 0) - r.cpu.client - (r.cpu.irq ?? 0));
}

/** What ran out: a server's one thread, the machine's cores, or neither (then: waits, such as locks or fsync). */
function bound(f: Figures, processes: number, cores: number): string {
  const servers = mean(f.runs.map((r) => r.cpu.servers));
  const machine = mean(f.runs.map((r) => r.cpu.machine));
  if (machine !== undefined && machine >= 0.85 * cores) return `the ${cores} cores (${machine.toFixed(2)} busy)`;
  if (servers !== undefined && servers / processes >= 0.85)
    return `the server process${processes > 1 ? "es'" : "'s"} one thread (${(servers / processes).toFixed(2)} of a core${processes > 1 ? ' each' : ''})`;
  return `neither CPU (cores ${machine?.toFixed(2) ?? 'n/a'} busy, server ${servers === undefined ? 'n/a' : (servers / processes).toFixed(2)} of a core${processes > 1 ? ' each' : ''}): waits`;
}

function report(
  label: string,
  processes: number,
  f: Figures,
  floor?: { name: string; f: Figures },
  target?: string,
): void {
  const detail = `(POST ${f.posts.toFixed(0)} /s + PUT ${f.puts.toFixed(0)} /s; runs ${f.runs.map((r) => ((r.posts + r.puts) / r.seconds).toFixed(0)).join(', ')} /s)`;
  if (floor) {
    line(
      `writes per second, ${label}`,
      `${f.perSecond.toFixed(0)} /s`,
      f.perSecond / floor.f.perSecond,
      `${floor.name} (${floor.f.perSecond.toFixed(0)} /s)`,
      target,
    );
    console.log(`  ${''.padEnd(36)} ${''.padStart(11)}   ${detail}`);
    line(
      `p99 latency, ${label}`,
      `${f.p99.toFixed(1)} ms`,
      f.p99 / floor.f.p99,
      `${floor.name} (${floor.f.p99.toFixed(1)} ms); p50 ${f.p50.toFixed(1)} ms`,
    );
  } else {
    console.log(
      `  ${`writes per second, ${label}`.padEnd(36)} ${`${f.perSecond.toFixed(0)} /s`.padStart(11)}   ${detail}`,
    );
    console.log(
      `  ${`p99 latency, ${label}`.padEnd(36)} ${`${f.p99.toFixed(1)} ms`.padStart(11)}   p50 ${f.p50.toFixed(1)} ms`,
    );
  }
  const cores = (x: number | undefined) => (x === undefined ? 'n/a' : x.toFixed(2));
  const c = {
    servers: mean(f.runs.map((r) => r.cpu.servers)),
    db: mean(f.runs.map((r) => r.cpu.db)),
    client: mean(f.runs.map((r) => r.cpu.client)) ?? 0,
    machine: mean(f.runs.map((r) => r.cpu.machine)),
  };
  const other = mean(f.runs.map(otherLoad));
  const serverSeconds = f.runs.reduce<number | undefined>(
    (t, r) =>
      t === undefined || r.cpu.servers === undefined ? undefined : t + (r.cpu.servers + (r.cpu.db ?? 0)) * r.seconds,
    0,
  );
  const writes = f.runs.reduce((t, r) => t + r.posts + r.puts, 0);
  const perWrite = serverSeconds === undefined ? undefined : (serverSeconds * 1000) / writes;
  console.log(
    `  ${`cores busy, of ${availableParallelism()}`.padEnd(36)} ${cores(c.machine).padStart(11)}   server process${processes > 1 ? 'es' : ''} ${cores(c.servers)}` +
      `${c.db === undefined ? '' : `, PostgreSQL backends ${cores(c.db)}`}, load client ${cores(c.client)}, interrupts ${cores(mean(f.runs.map((r) => r.cpu.irq)))}, anything else ${cores(other)}` +
      `${perWrite === undefined ? '' : `; ${perWrite.toFixed(1)} ms of server${c.db === undefined ? '' : ' + database'} CPU a write`}`,
  );
}

// ---------------------------------------------------------------------------------------------

async function seedTargets(depot: Depot, token: string, bodies: Bodies): Promise<string[]> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' };
  const ids: string[] = [];
  for (let i = 0; i < PUT_TARGETS; i++) {
    const reply = expectStatus(
      await depot.client.send('POST', '/oscal/v1/system-security-plan', headers, bodies.body()),
      201,
      'POST SSP',
    );
    ids.push(String(reply.headers.location).split('/').pop()!);
  }
  return ids;
}

async function measured(
  servers: Depot[],
  token: string,
  targets: string[],
  bodies: Bodies,
  db?: BenchDatabase,
): Promise<Run> {
  await drive(servers, token, targets, bodies, WARMUP_SECONDS, db);
  return drive(servers, token, targets, bodies, SECONDS, db);
}

interface Setting {
  servers: Depot[];
  token: string;
  targets: string[];
  db?: BenchDatabase;
  runs: Run[];
}

/** A server (and its PUT targets) on a fresh SQLite data directory or on the PostgreSQL database. */
async function setting(group: Group, bodies: Bodies, name: string, db?: BenchDatabase): Promise<Setting> {
  const dataDir = join(group.dir, name);
  const depot = await startDepot(group, dataDir, {
    name: `oscal-depot serve ${name}`,
    ...(db ? { databaseUrl: db.url } : {}),
  });
  const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  return { servers: [depot], token, targets: await seedTargets(depot, token, bodies), ...(db ? { db } : {}), runs: [] };
}

async function run(s: Setting, bodies: Bodies): Promise<void> {
  s.runs.push(await measured(s.servers, s.token, s.targets, bodies, s.db));
}

/** What the writes left in PostgreSQL: a document for every POST, revisions numbered 1..n with no gap. */
async function checkPostgres(db: BenchDatabase, acknowledged: number): Promise<string> {
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const [docs] = await sql`SELECT COUNT(*)::int AS n FROM documents`;
    const [revisions] = await sql`SELECT COUNT(*)::int AS n FROM revisions`;
    const [gaps] =
      await sql`SELECT COUNT(*)::int AS n FROM (SELECT document_id FROM revisions GROUP BY document_id HAVING COUNT(*) <> MAX(number) OR MIN(number) <> 1) g`;
    const [duplicates] =
      await sql`SELECT COUNT(*)::int AS n FROM (SELECT document_id, number FROM revisions GROUP BY 1, 2 HAVING COUNT(*) > 1) d`;
    const verdict =
      gaps!.n === 0 && duplicates!.n === 0
        ? "every document's numbered 1..n, no gap, no duplicate"
        : `PROBLEM: ${gaps!.n} documents with gaps, ${duplicates!.n} duplicate numbers`;
    return `${docs!.n} documents, ${revisions!.n} revisions (${verdict}); the measured runs acknowledged ${acknowledged} of the writes, the warm-ups and the ${PUT_TARGETS} PUT targets the rest`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function httpWritesBench(): Promise<void> {
  await runGroup('oscal-bench-http-writes-', async (group) => {
    const bodies = new Bodies();
    const cores = availableParallelism();
    const db = await group.database();
    console.log(
      `\n== HTTP writes on loopback: oscal-depot serve processes, each with 1 rendition worker; ${cores} CPU cores in all, shared by the server processes, PostgreSQL and the load client (this process)`,
    );
    console.log(
      `${CONNECTIONS} keep-alive connections (split evenly over the server processes), one write at a time each, ${SECONDS} s a run after ${WARMUP_SECONDS} s warm-up;`,
    );
    console.log(
      `each connection alternates POST of the SSP example as JSON (${kb(bodies.size)}; no document-ids, so the server assigns one: a new document) and PUT of it to one of ${PUT_TARGETS} existing SSPs (a new revision);`,
    );
    console.log(
      'every body has its own title, so no two writes store the same bytes; XML and YAML renditions are made within each write (below the inline limit)',
    );
    console.log(
      `PostgreSQL: a fresh database (${await db.describe()}); SQLite: a fresh data directory (WAL, synchronous=FULL)`,
    );
    console.log(
      'runs in the order SQLite, PostgreSQL 1 process, 2, 2, 1, SQLite; with 1 process the second PostgreSQL server is not running; idle servers stay up',
    );

    // The SQLite server and the first PostgreSQL server stay up throughout; the second comes and goes.
    const sqlite = await setting(group, bodies, 'SQLite', undefined);
    const one = await setting(group, bodies, 'PostgreSQL A', db);
    const two: Setting = { ...one, runs: [] };
    await run(sqlite, bodies);
    await run(one, bodies);
    const b = await startDepot(group, join(group.dir, 'PostgreSQL B'), {
      databaseUrl: db.url,
      name: 'oscal-depot serve PostgreSQL B',
    });
    two.servers = [one.servers[0]!, b];
    await run(two, bodies);
    await run(two, bodies);
    b.client.close();
    await b.child.stop(5000);
    await run(one, bodies);
    await run(sqlite, bodies);
    const check = await checkPostgres(
      db,
      [...one.runs, ...two.runs].reduce((t, r) => t + r.posts + r.puts, 0),
    );

    const s = figures(sqlite.runs);
    const p1 = figures(one.runs);
    const p2 = figures(two.runs);
    console.log(
      "\nSQLite, 1 process (the floor). SQLite allows one writer at a time: each write holds the file's write lock until its commit,",
    );
    console.log('so a second process on the same file could only queue behind the first; scaling out takes PostgreSQL');
    report('1 process', 1, s);
    console.log('PostgreSQL');
    const floor = { name: 'SQLite, 1 process', f: s };
    report('1 process', 1, p1, floor);
    report('2 processes', 2, p2, floor);
    line(
      '2 processes / 1 process, writes/s',
      `${p2.perSecond.toFixed(0)} /s`,
      p2.perSecond / p1.perSecond,
      `PostgreSQL, 1 process (${p1.perSecond.toFixed(0)} /s)`,
      'no target',
    );
    line(
      '2 processes / 1 process, p99',
      `${p2.p99.toFixed(1)} ms`,
      p2.p99 / p1.p99,
      `PostgreSQL, 1 process (${p1.p99.toFixed(1)} ms)`,
    );
    console.log(
      `  what bounds them: ${[
        ['SQLite, 1 process', s, 1],
        ['PostgreSQL, 1 process', p1, 1],
        ['PostgreSQL, 2 processes', p2, 2],
      ]
        .map(([name, f, n]) => `${name as string}: ${bound(f as Figures, n as number, cores)}`)
        .join('; ')}`,
    );
    console.log(`  checked after the runs: ${check}`);
    const others = mean([...sqlite.runs, ...one.runs, ...two.runs].map(otherLoad));
    if (others !== undefined && others > 0.2) {
      console.log(
        `  note: work outside this benchmark took ${others.toFixed(2)} of the ${cores} cores during the runs, on average: the rates above are below what an idle machine gives`,
      );
    }
  });
}
