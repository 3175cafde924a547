/**
 * The server over HTTP on loopback: reads, writes and lists through `oscal-depot serve` on a fresh
 * SQLite data directory (group http) or a fresh PostgreSQL database (group http-postgres), each
 * figure beside a floor measured in the same run. The floor for the wire is a bare node:http
 * server in its own process replaying the depot's replies byte for byte, headers included
 * (bench/http-floor-server.ts), driven by the same client with the same requests. On PostgreSQL
 * the server's CPU counts the database backends serving its connections too.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { parseOscal } from '../src/oscal/formats/index.js';
import { Child, expectStatus, kb, line, runGroup, sleep, startDepot, type Group } from './http-harness.js';
import {
  Client,
  COMMON_SHARE,
  COMMON_TERM,
  cpuSeconds,
  decodedBody,
  floorKey,
  rareTerm,
  replayedHeaders,
  type FloorRoute,
  type Reply,
} from './http-support.js';
import { median, medians, REV5_CATALOG, SHARED } from './measure.js';

const FLOOR_SERVER = fileURLToPath(new URL('./http-floor-server.js', import.meta.url));
const SQLITE_SEEDER = fileURLToPath(new URL('./http-seed.js', import.meta.url));
const POSTGRES_SEEDER = fileURLToPath(new URL('./http-seed-postgres.js', import.meta.url));
const CATALOG_JSON = join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_catalog.json');
const CATALOG_XML = join(REV5_CATALOG, 'xml', 'NIST_SP-800-53_rev5_catalog.xml');
const SSP_JSON = join(SHARED, 'content', 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json');

const SEEDED = 100_000;
const CONNECTIONS = 10;
const SECONDS = 5;
const WARMUP_SECONDS = 1;
/** What browsers and most HTTP clients send; the depot answers with the stored br or gzip bytes. */
const COMPRESSED = 'br, gzip';
const PAGES = 50;
const WALKS = 3;
const SEARCHES = 20;
const POSTS = 15;
const POST_WARMUP = 1;

async function startFloor(group: Group, routesFile: string): Promise<{ child: Child; client: Client; origin: string }> {
  const child = group.adopt(
    new Child(
      'bare node:http',
      spawn(process.execPath, [FLOOR_SERVER, routesFile], { stdio: ['ignore', 'pipe', 'pipe'] }),
    ),
  );
  const deadline = Date.now() + 15_000;
  while (!child.output.includes('\n')) {
    if (!child.running) throw new Error(`the bare server exited: ${child.output}`);
    if (Date.now() > deadline) throw new Error(`the bare server did not start: ${child.output}`);
    await sleep(20);
  }
  const origin = `http://127.0.0.1:${(JSON.parse(child.output.split('\n')[0]!) as { port: number }).port}`;
  return { child, client: new Client(origin), origin };
}

// ---------------------------------------------------------------------------------------------
// The depot's background work: wait for the rendition workers to be idle.

async function renditionsDone(client: Client, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const metrics = expectStatus(await client.send('GET', '/metrics', {}), 200, 'GET /metrics').body.toString('utf8');
    let busy = 0;
    for (const m of metrics.matchAll(/^oscal_depot_rendition_jobs\{status="(?:queued|running)"\} (\d+)/gm))
      busy += Number(m[1]);
    if (busy === 0) return;
    if (Date.now() > deadline) throw new Error(`rendition jobs still busy after ${timeoutMs} ms`);
    await sleep(25);
  }
}

// ---------------------------------------------------------------------------------------------
// GET under load

interface LoadFigures {
  reqPerSec: number;
  /** Milliseconds, at autocannon's resolution of 1 ms. */
  p99: number;
  /** Server CPU time per request (with PostgreSQL: the node process and its database backends). */
  serverCpuMsPerReq: number | undefined;
  /** Share of one core over the run: the node process, and its PostgreSQL backends. */
  serverCpuShare: number | undefined;
  dbCpuShare: number | undefined;
  clientCpuShare: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  cpu: CpuProbe | undefined,
  seconds: number,
): Promise<LoadFigures> {
  const cpuBefore = await cpu?.();
  const clientBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds, timeout: 30 });
  const wall = (performance.now() - wallBefore) / 1000;
  const client = process.cpuUsage(clientBefore);
  const cpuAfter = await cpu?.();
  if (result.errors || result.non2xx || !result['2xx']) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  const ok = result['2xx'];
  const serverCpu =
    cpuBefore?.node === undefined || cpuAfter?.node === undefined ? undefined : cpuAfter.node - cpuBefore.node;
  const dbCpu = cpuBefore?.db === undefined || cpuAfter?.db === undefined ? undefined : cpuAfter.db - cpuBefore.db;
  return {
    reqPerSec: ok / result.duration,
    p99: result.latency.p99,
    serverCpuMsPerReq: serverCpu === undefined ? undefined : ((serverCpu + (dbCpu ?? 0)) * 1000) / ok,
    serverCpuShare: serverCpu === undefined ? undefined : serverCpu / wall,
    dbCpuShare: dbCpu === undefined ? undefined : dbCpu / wall,
    clientCpuShare: (client.user + client.system) / 1e6 / wall,
  };
}

/** Which side ran out of CPU: a ratio of req/s means little when the client did. */
function boundBy(f: LoadFigures): string {
  const pct = (share: number) => `${(100 * share).toFixed(0)}%`;
  const server = f.serverCpuShare === undefined ? 'n/a' : pct(f.serverCpuShare);
  const db = f.dbCpuShare === undefined ? '' : ` (+ PostgreSQL ${pct(f.dbCpuShare)})`;
  const verdict =
    f.serverCpuShare !== undefined && f.serverCpuShare >= 0.9
      ? 'server-bound'
      : f.clientCpuShare >= 0.9
        ? 'client-bound'
        : 'neither saturated';
  return `CPU: server ${server}${db}, client ${pct(f.clientCpuShare)} of a core: ${verdict}`;
}

interface GetCase {
  label: string;
  path: string;
  headers: Record<string, string>;
  captured: Reply;
}

async function getBench(
  cases: GetCase[],
  depot: { origin: string; cpu: CpuProbe },
  floor: { origin: string; cpu: CpuProbe },
  withDb: boolean,
): Promise<void> {
  console.log(
    `GET, autocannon ${CONNECTIONS} connections x ${SECONDS} s (after ${WARMUP_SECONDS} s warm-up), Accept: application/json, Authorization: Bearer <admin token>;`,
  );
  console.log(
    `each document both with Accept-Encoding: ${COMPRESSED} (the depot sends its stored compressed bytes) and without (its decoded-bytes cache)`,
  );
  for (const c of cases) {
    await load(depot.origin + c.path, c.headers, undefined, WARMUP_SECONDS);
    await load(floor.origin + c.path, c.headers, undefined, WARMUP_SECONDS);
    const d = await load(depot.origin + c.path, c.headers, depot.cpu, SECONDS);
    const f = await load(floor.origin + c.path, c.headers, floor.cpu, SECONDS);
    const coding = c.captured.headers['content-encoding'] ?? 'identity';
    console.log(
      `GET ${c.label}; Accept-Encoding: ${c.headers['accept-encoding'] ?? '(none)'} -> ${coding}, ${kb(c.captured.body.length)} a response`,
    );
    line(
      'requests per second',
      `${d.reqPerSec.toFixed(0)} /s`,
      d.reqPerSec / f.reqPerSec,
      `bare node:http (${f.reqPerSec.toFixed(0)} /s)`,
      'target >= 0.70',
    );
    // autocannon reports whole milliseconds: 0 means under 1 ms, taken as 1 ms for the ratio.
    const ms = (p99: number) => (p99 < 1 ? '<1' : p99.toFixed(0));
    line(
      'p99 latency (1 ms resolution)',
      `${ms(d.p99)} ms`,
      Math.max(d.p99, 1) / Math.max(f.p99, 1),
      `bare node:http (${ms(f.p99)} ms)`,
    );
    if (d.serverCpuMsPerReq !== undefined && f.serverCpuMsPerReq !== undefined) {
      line(
        withDb ? 'server + PostgreSQL CPU a request' : 'server CPU per request',
        `${d.serverCpuMsPerReq.toFixed(3)} ms`,
        d.serverCpuMsPerReq / f.serverCpuMsPerReq,
        `bare node:http (${f.serverCpuMsPerReq.toFixed(3)} ms)`,
      );
    }
    console.log(`  ${''.padEnd(36)} depot run ${boundBy(d)}; bare run ${boundBy(f)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The list

async function listBench(
  depot: Client,
  floor: Client,
  headers: Record<string, string>,
  searches: { label: string; path: string }[],
  seeded: Seeded,
): Promise<void> {
  console.log(
    `\nList: ${SEEDED.toLocaleString('en-US')} catalogs seeded ${seeded.how} in ${(seeded.ms / 1000).toFixed(1)} s, before the server started`,
  );
  console.log(
    `GET /oscal/v1/catalog?limit=100, one request at a time on a keep-alive connection, Accept-Encoding: ${headers['accept-encoding']}`,
  );
  const depotPages: number[] = [];
  const floorPages: number[] = [];
  let bytes = 0;
  for (let walk = 0; walk < WALKS; walk++) {
    let path: string | undefined = '/oscal/v1/catalog?limit=100';
    for (let page = 0; page < PAGES; page++) {
      if (!path) throw new Error(`the walk ended after ${page} pages`);
      const reply = expectStatus(await depot.send('GET', path, headers), 200, `GET ${path}`);
      depotPages.push(reply.ms);
      bytes += reply.body.length;
      floorPages.push(expectStatus(await floor.send('GET', path, headers), 200, `bare GET ${path}`).ms);
      const next = /<([^>]+)>;\s*rel="next"/.exec(String(reply.headers.link ?? ''));
      path = next ? new URL(next[1]!).pathname + new URL(next[1]!).search : undefined;
    }
  }
  const walkMs = median(depotPages);
  const floorWalk = median(floorPages);
  line(
    `walk by cursor, ${PAGES} pages x ${WALKS}`,
    `${walkMs.toFixed(1)} ms`,
    walkMs / floorWalk,
    `bare node:http (${floorWalk.toFixed(2)} ms; ~${kb(bytes / depotPages.length)} a page)`,
    'target < 20 ms a page',
  );
  for (const search of searches) {
    const d: number[] = [];
    const f: number[] = [];
    for (let round = 0; round < SEARCHES + 2; round++) {
      const dm = expectStatus(await depot.send('GET', search.path, headers), 200, `GET ${search.path}`).ms;
      const fm = expectStatus(await floor.send('GET', search.path, headers), 200, `bare GET ${search.path}`).ms;
      if (round >= 2) {
        d.push(dm);
        f.push(fm);
      }
    }
    line(
      search.label,
      `${median(d).toFixed(1)} ms`,
      median(d) / median(f),
      `bare node:http (${median(f).toFixed(2)} ms)`,
      'target < 20 ms',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// POST

async function postBench(depot: Client, floor: Client, headers: Record<string, string>, xml: Buffer): Promise<void> {
  console.log(
    `\nPOST the 800-53 catalog as XML (${kb(xml.length)}), ${POSTS} posts after ${POST_WARMUP} warm-up, each a new document (the XML has no document-ids: the server assigns one)`,
  );
  console.log("each post waits for the rendition worker to finish the previous one's XML and YAML renditions");
  const posts: number[] = [];
  const floorPosts: number[] = [];
  const renditions: number[] = [];
  for (let i = 0; i < POST_WARMUP + POSTS; i++) {
    const reply = expectStatus(await depot.send('POST', '/oscal/v1/catalog', headers, xml), 201, 'POST catalog XML');
    const accepted = performance.now();
    await renditionsDone(depot);
    const ready = performance.now() - accepted;
    const floorMs = expectStatus(await floor.send('POST', '/oscal/v1/catalog', headers, xml), 201, 'bare POST').ms;
    if (i >= POST_WARMUP) {
      posts.push(reply.ms);
      renditions.push(ready);
      floorPosts.push(floorMs);
    }
  }
  const text = xml.toString('utf8');
  const parse = medians([{ name: 'parse', run: () => parseOscal(text, 'xml') }], 7, 2).get('parse')!;
  const postMs = median(posts);
  line(
    'POST -> 201, median',
    `${postMs.toFixed(0)} ms`,
    postMs / median(floorPosts),
    `bare node:http taking the same upload (${median(floorPosts).toFixed(1)} ms)`,
    'target < 250 ms',
  );
  line('', '', postMs / parse, `parseOscal of the same XML in the bench process (${parse.toFixed(0)} ms)`);
  console.log(
    `  ${'XML + YAML renditions, after the 201'.padEnd(36)} ${`${median(renditions).toFixed(0)} ms`.padStart(11)}   (background worker thread; no target)`,
  );
}

// ---------------------------------------------------------------------------------------------

interface Seeded {
  ms: number;
  how: string;
}

/** CPU seconds so far of the server process and, with PostgreSQL, of its database backends. */
type CpuProbe = () => Promise<{ node?: number; db?: number }>;

interface Backend {
  /** For the heading. */
  describe: string;
  seeder: string[];
  serve: { databaseUrl?: string };
  dbCpu?: () => Promise<number | undefined>;
}

async function run(group: Group, backend: Backend): Promise<void> {
  const dataDir = join(group.dir, 'data');
  const floorDir = join(group.dir, 'floor');
  console.log(
    `\n== HTTP on loopback (${availableParallelism()} CPUs): oscal-depot serve on ${backend.describe}, 1 rendition worker; floor: a bare node:http server in its own process replaying the depot's replies (same bytes, same headers)`,
  );

  // 1. Seed, while no server holds the store.
  const seeder = group.adopt(
    new Child('seeding', spawn(process.execPath, backend.seeder, { stdio: ['ignore', 'pipe', 'pipe'] })),
  );
  if ((await seeder.exited) !== 0) throw new Error(`seeding failed: ${seeder.output}`);
  const seeded = JSON.parse(seeder.output.trim().split('\n').pop()!) as Seeded;

  // 2. The server, and the documents the reads go to.
  const depot = await startDepot(group, dataDir, backend.serve);
  const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  const auth = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const create = async (model: string, file: string, contentType: string) => {
    const reply = expectStatus(
      await depot.client.send(
        'POST',
        `/oscal/v1/${model}`,
        { ...auth, 'content-type': contentType },
        readFileSync(file),
      ),
      201,
      `POST ${file}`,
    );
    return String(reply.headers.location).split('/').pop()!;
  };
  const catalogId = await create('catalog', CATALOG_JSON, 'application/json');
  const sspId = await create('system-security-plan', SSP_JSON, 'application/json');
  const xml = readFileSync(CATALOG_XML);
  const postHeaders = { ...auth, 'content-type': 'application/xml' };
  const firstPost = expectStatus(
    await depot.client.send('POST', '/oscal/v1/catalog', postHeaders, xml),
    201,
    'POST catalog XML',
  );
  await renditionsDone(depot.client);

  // 3. Capture every reply the bare server is to replay.
  const compressed = { ...auth, 'accept-encoding': COMPRESSED };
  const routes: FloorRoute[] = [];
  const capture = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    reply?: Reply,
  ): Promise<Reply> => {
    if (!reply) {
      await depot.client.send(method, path, headers); // the first read of a rendition may fill a cache
      reply = expectStatus(await depot.client.send(method, path, headers), 200, `GET ${path}`);
    }
    const bodyFile = join(floorDir, `${routes.length}.body`);
    writeFileSync(bodyFile, reply.body);
    routes.push({
      key: floorKey(method, path, headers['accept-encoding']),
      status: reply.status,
      headers: replayedHeaders(reply),
      bodyFile,
    });
    return reply;
  };
  mkdirSync(floorDir);
  const getCases: GetCase[] = [];
  for (const [label, path] of [
    ['800-53 catalog JSON', `/oscal/v1/catalog/${catalogId}`],
    ['SSP example JSON', `/oscal/v1/system-security-plan/${sspId}`],
  ] as const) {
    for (const headers of [compressed, auth])
      getCases.push({ label, path, headers, captured: await capture('GET', path, headers) });
  }
  const rare = rareTerm(SEEDED);
  const searches = [
    {
      label: `first page, q=${COMMON_TERM} (${(100 * COMMON_SHARE).toFixed(1)}% match)`,
      path: `/oscal/v1/catalog?limit=100&q=${COMMON_TERM}`,
    },
    { label: `first page, q=${rare} (1 match)`, path: `/oscal/v1/catalog?limit=100&q=${encodeURIComponent(rare)}` },
  ];
  await capture('GET', '/oscal/v1/catalog?limit=100', compressed);
  for (const s of searches) {
    const items = (
      JSON.parse(decodedBody(await capture('GET', s.path, compressed)).toString('utf8')) as {
        'catalog-list': unknown[];
      }
    )['catalog-list'];
    if (items.length === 0) throw new Error(`${s.path} found nothing`);
  }
  await capture('POST', '/oscal/v1/catalog', postHeaders, firstPost);
  const routesFile = join(floorDir, 'routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));
  const floor = await startFloor(group, routesFile);

  // 4. Measure.
  const depotCpu: CpuProbe = async () => {
    const node = cpuSeconds(depot.child.pid);
    const db = await backend.dbCpu?.();
    return { ...(node === undefined ? {} : { node }), ...(db === undefined ? {} : { db }) };
  };
  const floorCpu: CpuProbe = async () => {
    const node = cpuSeconds(floor.child.pid);
    return node === undefined ? {} : { node };
  };
  await getBench(
    getCases,
    { origin: depot.origin, cpu: depotCpu },
    { origin: floor.origin, cpu: floorCpu },
    backend.dbCpu !== undefined,
  );
  await listBench(depot.client, floor.client, compressed, searches, seeded);
  await postBench(depot.client, floor.client, postHeaders, xml);
  depot.client.close();
  floor.client.close();
}

/** Group http: the store is a SQLite file in a fresh data directory. */
export async function httpBench(): Promise<void> {
  await runGroup('oscal-bench-http-', (group) =>
    run(group, {
      describe: 'a fresh data directory (SQLite)',
      seeder: [SQLITE_SEEDER, join(group.dir, 'data'), String(SEEDED)],
      serve: {},
    }),
  );
}

/** Group http-postgres: the same, with the store in a fresh PostgreSQL database. */
export async function httpPostgresBench(): Promise<void> {
  await runGroup('oscal-bench-http-postgres-', async (group) => {
    const db = await group.database();
    await run(group, {
      describe: `a fresh PostgreSQL database (${await db.describe()}; server CPU includes the database's backend processes)`,
      seeder: [POSTGRES_SEEDER, db.url, String(SEEDED)],
      serve: { databaseUrl: db.url },
      dbCpu: db.backendCpu,
    });
  });
}
