/**
 * A crash campaign: a real server under concurrent client loops, killed with SIGKILL at a random
 * moment, restarted on the same data, and checked against the ledger of everything the clients
 * were told; then again, `kills` times.
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore, type StoreConfig } from '../../../src/store/index.js';
import { api } from '../http.js';
import { stopWithin } from '../lifecycle.js';
import { newDataDir, TestServer } from '../server.js';
import { Ledger, type Outcome } from './ledger.js';
import { OPERATIONS, planNext } from './operations.js';
import { verify } from './verify.js';

export interface CampaignOptions {
  /** A PostgreSQL database to keep everything in; without it, SQLite in the data directory. */
  databaseUrl?: string;
  kills: number;
  /** Client loops sending requests back to back. */
  clients: number;
  /** The kill comes this long after the load starts: a uniform pick between the two, in ms. */
  loadMs: [number, number];
  /**
   * Nor before this many requests of the round were acknowledged and every kind was at least once
   * in the campaign, so that a slow machine still puts each operation through its paces.
   */
  minAcks: number;
}

type Tally = Record<string, number>;

export interface Figures {
  kills: number;
  restarts: number;
  /** Requests per kind and outcome; `unknown` are those in flight at a kill. */
  requests: Record<Outcome, Tally>;
  /** What the restarts showed of the unknown: took effect, did not, or cannot tell (the document was deleted since). */
  unknownSettled: { applied: number; notApplied: number; undetermined: number };
  verifications: number;
  checked: { documents: number; revisions: number; blobs: number; files: number; plainFiles: number };
  /** Uploads whose file a check after a restart read back whole (the others' resources were gone by then). */
  uploadsVerified: number;
  /** The store as the last check found it. */
  final: { documents: number; gone: number; revisions: number };
  losses: string[];
  problems: string[];
}

const REQUEST_TIMEOUT_MS = 30_000;
/** Longest wait for `minAcks`: a server that acknowledges nothing is killed anyway, and the test says so. */
const WORK_DEADLINE_MS = 60_000;

export async function runCampaign(options: CampaignOptions): Promise<Figures> {
  const dataDir = newDataDir();
  const storeConfig: StoreConfig = { dataDir, ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}) };
  const args = options.databaseUrl ? ['--database-url', options.databaseUrl] : [];
  const ledger = new Ledger();
  const figures: Figures = {
    kills: 0,
    restarts: 0,
    requests: { acked: {}, refused: {}, unknown: {} },
    unknownSettled: { applied: 0, notApplied: 0, undetermined: 0 },
    verifications: 0,
    checked: { documents: 0, revisions: 0, blobs: 0, files: 0, plainFiles: 0 },
    uploadsVerified: 0,
    final: { documents: 0, gone: 0, revisions: 0 },
    losses: [],
    problems: [],
  };
  let server = await TestServer.start({ dataDir, args });
  const token = server.adminToken();
  try {
    while (figures.kills < options.kills) {
      await loadThenKill(server, token, ledger, options, figures.problems);
      figures.kills++;
      server = await TestServer.start({ dataDir, args });
      figures.restarts++;
      const store = await openStore(storeConfig, { connections: 4 });
      try {
        const found = await verify(ledger, { url: server.url, token, store });
        figures.verifications++;
        figures.checked.documents += found.documents;
        figures.checked.revisions += found.revisions;
        figures.checked.blobs += found.blobs;
        figures.checked.files += found.files;
        figures.checked.plainFiles += found.plainFiles;
        figures.final = { documents: found.documents - found.gone, gone: found.gone, revisions: found.revisions };
        // A finding stands until the end, so later checks find it again: each is counted once.
        for (const loss of found.losses) if (!figures.losses.includes(loss)) figures.losses.push(loss);
        for (const problem of found.problems) if (!figures.problems.includes(problem)) figures.problems.push(problem);
      } finally {
        await store.close();
      }
    }
  } finally {
    await stopWithin(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const a of ledger.attempts) {
    if (a.fileVerified) figures.uploadsVerified++;
    const tally = figures.requests[a.outcome];
    tally[a.kind] = (tally[a.kind] ?? 0) + 1;
    if (a.outcome !== 'unknown') continue;
    if (a.settled === 'applied') figures.unknownSettled.applied++;
    else if (a.settled === 'not-applied') figures.unknownSettled.notApplied++;
    else figures.unknownSettled.undetermined++;
  }
  return figures;
}

/** Client loops until a random moment, then SIGKILL; what was in flight stays unknown. */
async function loadThenKill(
  server: TestServer,
  token: string,
  ledger: Ledger,
  options: CampaignOptions,
  problems: string[],
): Promise<void> {
  let killed = false;
  let acked = 0;
  const refusals: { request: string; status: number; body: string }[] = [];
  const loop = async () => {
    while (!killed) {
      const { kind, request } = planNext(ledger);
      const attempt = ledger.begin(kind, request.documentId, {
        ...(request.revision ? { revision: request.revision } : {}),
        deletes: request.deletes ?? false,
      });
      try {
        const response = await api(server.url, request.method, request.path, {
          token,
          timeoutMs: REQUEST_TIMEOUT_MS,
          ...(request.body ? { body: request.body, contentType: request.contentType! } : {}),
          ...(request.headers ? { headers: request.headers } : {}),
        });
        ledger.answer(attempt, response.status);
        if (attempt.outcome === 'acked') {
          acked++;
          request.onAck?.(response, attempt);
        } else if (response.status !== 404) {
          // 404 is the one refusal a client can meet: a write racing the delete of its document.
          refusals.push({ request: `${kind} ${request.path}`, status: response.status, body: response.text });
        }
      } catch (e) {
        if (!killed)
          problems.push(`${kind} ${request.path} got no answer while the server was up: ${(e as Error).message}`);
      }
    }
  };
  const loops = Array.from({ length: options.clients }, loop);
  const [min, max] = options.loadMs;
  await sleep(min + Math.random() * (max - min));
  const deadline = Date.now() + WORK_DEADLINE_MS;
  while ((acked < options.minAcks || OPERATIONS.some((op) => !ledger.ackedKinds.has(op.kind))) && Date.now() < deadline)
    await sleep(10);
  killed = true;
  await server.kill();
  await Promise.all(loops);
  // The server's log comes on another pipe than its answers: complete only once it has exited.
  for (const r of refusals)
    problems.push(`${r.request} answered ${r.status}: ${r.body.slice(0, 300)}${serverLogOf(server, r.body)}`);
}

/** The server's log lines naming the request id of an error body, so that a 500 comes with its cause. */
function serverLogOf(server: TestServer, body: string): string {
  const id = /request id is ([0-9a-f-]+)/.exec(body)?.[1];
  if (id === undefined) return '';
  const lines = server.output.split('\n').filter((line) => line.includes(id));
  return lines.length ? `\n  server log:\n  ${lines.join('\n  ').slice(0, 4000)}` : '';
}

/** The figures as lines for a test's diagnostics and for docs/reliability.md. */
export function describeFigures(backend: string, f: Figures): string[] {
  const kinds = OPERATIONS.map((op) => op.kind);
  const per = (tally: Tally) => kinds.map((k) => `${k} ${tally[k] ?? 0}`).join(', ');
  const total = (tally: Tally) => Object.values(tally).reduce((a, b) => a + b, 0);
  const sent = total(f.requests.acked) + total(f.requests.refused) + total(f.requests.unknown);
  return [
    `${backend}: ${f.kills} kills (SIGKILL), ${f.restarts} restarts, ${sent} requests`,
    `  acknowledged ${total(f.requests.acked)} (${per(f.requests.acked)})`,
    `  refused ${total(f.requests.refused)} (${per(f.requests.refused)})`,
    `  in flight at a kill ${total(f.requests.unknown)} (${per(f.requests.unknown)}): took effect ${f.unknownSettled.applied}, did not ${f.unknownSettled.notApplied}, document deleted since ${f.unknownSettled.undetermined}`,
    `  ${f.verifications} checks after restarts: ${f.checked.documents} documents, ${f.checked.revisions} revisions, ${f.checked.files} files read back (${f.checked.plainFiles} of them kept plain, the others gzip), ${f.checked.blobs} stored blob encodings hashed`,
    `  uploads acknowledged ${f.requests.acked.attach ?? 0}; uploads whose file a restart read back whole ${f.uploadsVerified}`,
    `  at the end: ${f.final.documents} documents with ${f.final.revisions} revisions, ${f.final.gone} gone`,
    `  losses: ${f.losses.length}; other problems: ${f.problems.length}`,
  ];
}
