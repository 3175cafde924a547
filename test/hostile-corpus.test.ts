/**
 * The hostile-input corpus (test/hostile/) against one real server process on SQLite: every case
 * is answered with a 4xx and the error object (or, for abuse of HTTP itself, a closed
 * connection); never a 5xx, never a hang. After each category the process is still alive and the
 * store is exactly as it was: same documents, versions, access settings, and no new audit entry.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MODELS, PLURALS } from '../src/oscal/model/models.js';
import {
  catalogJson,
  JSON_TYPE,
  UUID,
  type Category,
  type HttpCase,
  type RawCase,
  type Seeds,
} from './hostile/case.js';
import { encoding } from './hostile/encoding.js';
import { headers } from './hostile/headers.js';
import { ids } from './hostile/ids.js';
import { json } from './hostile/json.js';
import { multipartAbuse } from './hostile/multipart.js';
import { nestingAndSize } from './hostile/nesting-and-size.js';
import { protocol } from './hostile/protocol.js';
import { xml } from './hostile/xml.js';
import { yaml } from './hostile/yaml.js';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { createTokenFor, TestServer } from './support/server.js';

const CATEGORIES: Category[] = [json, xml, yaml, nestingAndSize, encoding, ids, multipartAbuse, headers, protocol];
const SEEDS: Seeds = { catalog: 'c0ffee00-0000-4000-8000-00000000000a', registryCatalog: UUID };
/** Short timeouts, so that stalled requests end within the run; bodies up to 128 MB, so that 100 MB strings reach the parsers. */
const SERVER_ARGS = [
  '--max-body',
  '128MB',
  '--headers-timeout',
  '2s',
  '--request-timeout',
  '6s',
  '--auth-failure-limit',
  '0',
  '--workers',
  '0',
];
/** An error body quotes at most a little of the input, whatever its size. */
const MAX_ERROR_BODY = 256 * 1024;
/** Longer than any server timeout above: a connection still open and silent by then is a hang. */
const RAW_DEADLINE_MS = 30_000;
/** An answer followed by this much silence is the whole answer. */
const QUIET_MS = 300;

let server: TestServer;
let tokens: Record<'admin' | 'reader', string>;
let baseline: string;
const tally = { cases: 0, answered: 0, closed: 0, serverErrors: 0, unchanged: 0 };

before(async () => {
  server = await TestServer.start({ args: SERVER_ARGS });
  tokens = { admin: server.adminToken(), reader: createTokenFor(server.dataDir, 'rita', 'reader') };
  await seed();
  baseline = await fingerprint();
});

after(async () => {
  const categories = CATEGORIES.map((c) => `${c.name} ${c.cases(SEEDS).length}`).join(', ');
  console.log(
    `hostile corpus: ${tally.cases} cases (${categories}); ${tally.answered} answered 4xx with the error object, ${tally.closed} connections closed unanswered, ${tally.serverErrors} answered 5xx; store unchanged after ${tally.unchanged} of ${CATEGORIES.length} categories`,
  );
  assert.equal(await server.stop(), 0, `the server stopped cleanly: ${server.output.slice(-2000)}`);
});

async function seed(): Promise<void> {
  const contentUuid = (id: string) =>
    `,"document-ids":[{"scheme":"http://oscal.io/oscal/identifier/contentuuid","identifier":"${id}"}]`;
  const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token: tokens.admin,
    ...asType(JSON_TYPE),
    body: catalogJson({ title: 'Seed', extraMetadata: contentUuid(SEEDS.catalog) }),
  });
  assert.equal(created.status, 201, created.text);
  const registered = await api(server.url, 'PUT', `/api/v1/catalogs/${SEEDS.registryCatalog}`, {
    token: tokens.admin,
    ...asType(JSON_TYPE),
    body: catalogJson({ title: 'Registry seed' }),
  });
  assert.equal(registered.status, 201, registered.text);
}

const asType = (type: Record<string, string>) => ({ contentType: type['content-type']! });

/** Everything a refused request could have changed, read through the API as admin. */
async function fingerprint(): Promise<string> {
  const get = async (path: string) => {
    const res = await api(server.url, 'GET', path, { token: tokens.admin });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.json();
  };
  const plural = Object.fromEntries(Object.entries(PLURALS).map(([p, model]) => [model, p]));
  const documents = [];
  for (const model of MODELS) {
    for (const item of (await get(`/oscal/v1/${model}?limit=1000`))[`${model}-list`]) {
      const id = item['content-uuid'];
      const versions = (await get(`/api/v1/${plural[model]}/${id}/versions`)).map(
        (v: { version: number; fileSize: number }) => [v.version, v.fileSize],
      );
      documents.push({ model, item, versions, access: await get(`/oscal/v1/${model}/${id}/access`) });
    }
  }
  const [newest] = (await get('/oscal/v1/audit?limit=1'))['audit-list'];
  return JSON.stringify({ documents, newestAuditEntry: newest });
}

async function assertAliveAndUnchanged(): Promise<void> {
  assert.equal(server.process.exitCode, null, `the server process exited: ${server.output.slice(-2000)}`);
  const health = await api(server.url, 'GET', '/healthz', { timeoutMs: 5000 });
  assert.equal(health.status, 200);
  assert.equal(await fingerprint(), baseline, 'the store is as it was before the category');
  tally.unchanged++;
}

/** Bodies go out in pieces, so that writing stops once the server has answered. */
const PIECE = 1024 * 1024;
const EARLY_ANSWER_MS = 300;

/**
 * One request with the path sent exactly as written (no URL normalisation of dot segments or
 * escapes). The server may answer a large body early (413, 401) and close the connection: the
 * rest of the body is then not sent.
 */
async function send(c: HttpCase): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...c.headers };
  const as = c.as ?? 'admin';
  if (as !== 'anonymous' && headers.authorization === undefined) headers.authorization = `Bearer ${tokens[as]}`;
  const body = c.body?.();
  const bytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
  if (bytes) headers['content-length'] = String(bytes.length);
  let answered = false;
  const req = httpRequest({
    host: '127.0.0.1',
    port: server.port,
    method: c.method,
    path: c.path,
    headers,
    agent: false,
  });
  const response = new Promise<ApiResponse>((resolve, reject) => {
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        req.destroy();
        const all = Buffer.concat(chunks);
        const text = all.toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: all, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', (e) => {
      if (!answered) reject(new Error(`${c.method} ${c.path.slice(0, 80)}: no answer (${e.message})`));
    });
  });
  if (bytes && bytes.length > PIECE) {
    // As curl does for large bodies: the headers first, and a moment for an early refusal. A
    // server that refuses and closes while a body is still arriving resets the connection, and
    // the refusal can be lost on the way.
    req.flushHeaders();
    await Promise.race([sleep(EARLY_ANSWER_MS), response.catch(() => undefined)]);
  }
  for (let at = 0; bytes && at < bytes.length && !answered && !req.destroyed; at += PIECE) {
    if (!req.write(bytes.subarray(at, at + PIECE)))
      await Promise.race([once(req, 'drain'), response.catch(() => undefined)]);
  }
  if (!answered && !req.destroyed) req.end();
  return response;
}

async function runHttp(c: HttpCase): Promise<void> {
  const res = await send(c);
  if (res.status >= 500) tally.serverErrors++;
  const allowed = typeof c.expect === 'number' ? [c.expect] : c.expect;
  assert.ok(
    allowed.includes(res.status),
    `expected ${allowed.join(' or ')}, got ${res.status}: ${res.text.slice(0, 300)}`,
  );
  assertErrorBody(res, res.status);
  assert.ok(res.body.length < MAX_ERROR_BODY, `the error body is ${res.body.length} bytes`);
  assert.equal(res.headers['x-injected'], undefined, 'no header was injected');
  tally.answered++;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The complete responses in what the server wrote (interim 1xx ones skipped), and how many bytes
 * after them do not (yet) make one.
 */
function parseResponses(data: Buffer): { responses: RawResponse[]; rest: number } {
  const responses: RawResponse[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const [statusLine, ...lines] = data.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(statusLine!)?.[1]);
    if (!(status >= 100)) break;
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const next = end + 4 + Number(headers['content-length'] ?? 0);
    if (next > data.length) break;
    if (status >= 200) responses.push({ status, headers, body: data.subarray(end + 4, next).toString('utf8') });
    at = next;
  }
  return { responses, rest: data.length - at };
}

async function runRaw(c: RawCase): Promise<void> {
  const socket = connect(server.port, '127.0.0.1');
  const received: Buffer[] = [];
  let lastData = 0;
  let isClosed = false;
  socket.on('data', (d: Buffer) => {
    received.push(d);
    lastData = Date.now();
  });
  // A reset after the server has answered and closed is part of the expected outcome.
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  for (const chunk of c.chunks) {
    if (socket.destroyed) break;
    socket.write(typeof chunk === 'string' ? chunk.replaceAll('{{token}}', tokens.admin) : chunk);
    if (c.gapMs) await Promise.race([sleep(c.gapMs), closed]);
  }
  if (c.halfClose && !socket.destroyed) socket.end();
  const deadline = Date.now() + RAW_DEADLINE_MS;
  const answered = () =>
    Date.now() - lastData >= QUIET_MS && parseResponses(Buffer.concat(received)).responses.length > 0;
  while (!isClosed && !answered() && Date.now() < deadline) await Promise.race([sleep(50), closed]);
  socket.destroy();
  assert.ok(
    isClosed || received.length > 0,
    `the server neither answered nor closed the connection within ${RAW_DEADLINE_MS} ms`,
  );
  const data = Buffer.concat(received);
  const { responses, rest } = parseResponses(data);
  assert.equal(
    rest,
    0,
    `the server wrote something that is no complete HTTP response: ${JSON.stringify(
      data
        .subarray(data.length - rest)
        .toString('latin1')
        .slice(0, 300),
    )}`,
  );
  tally.serverErrors += responses.filter((r) => r.status >= 500).length;
  if (responses.length === 0) {
    assert.ok(c.orClosed, 'the connection was closed without any answer');
    tally.closed++;
    return;
  }
  assert.ok(
    c.expect.includes(responses[0]!.status),
    `expected ${c.expect.join(' or ')} first, got ${responses.map((r) => r.status).join(', ')}: ${responses[0]!.body.slice(0, 300)}`,
  );
  for (const r of responses) {
    assert.ok(r.status >= 400 && r.status < 500, `every answer is a 4xx, got ${r.status}`);
    assert.match(r.headers['content-type'] ?? '', /^application\/json\b/);
    const body = JSON.parse(r.body);
    assert.equal(body['status-code'], r.status);
    assert.equal(typeof body.code, 'string');
    assert.equal(typeof body.message, 'string');
    assert.equal(r.headers['x-injected'], undefined, 'no header was injected');
  }
  tally.answered++;
}

for (const category of CATEGORIES) {
  describe(category.name, () => {
    const cases = category.cases(SEEDS);
    // Raw cases mostly wait for the server's timeouts: they wait together.
    describe(`${cases.length} cases`, { concurrency: cases.every((c) => 'raw' in c) }, () => {
      for (const c of cases) {
        test(c.name, async () => {
          tally.cases++;
          await ('raw' in c ? runRaw(c) : runHttp(c));
        });
      }
    });
    test('the server is alive and the store unchanged', assertAliveAndUnchanged);
  });
}
