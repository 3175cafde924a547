/**
 * GET of a document is answered before fastify when it is a plain success (src/http/fast-read.ts);
 * a query string sends the same request through fastify's full path. Every answer must be the
 * same either way, byte for byte and header for header: successes, 304s, and every refusal the
 * front handler leaves to fastify.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { api, type ApiResponse } from './support/http.js';
import { createTokenFor, TestServer } from './support/server.js';
import { CONTENT } from './support/shared.js';

const SSP = readFileSync(join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json'), 'utf8');
const CATALOG = readFileSync(
  join(CONTENT, 'oscal-content@88bb8de', 'examples', 'catalog', 'json', 'basic-catalog.json'),
  'utf8',
);
/** Set by the server for each answer on its own. */
const PER_ANSWER = new Set(['date', 'x-request-id']);

let server: TestServer;
let admin: string;
let owner: string;
let granted: string;
let stranger: string;
let publicSsp: string;
let privateCatalog: string;

async function create(token: string, model: string, body: string): Promise<string> {
  const res = await api(`${server.url}/oscal/v1`, 'POST', `/${model}`, {
    token,
    body,
    contentType: 'application/json',
  });
  assert.equal(res.status, 201, res.text);
  return res.json()[`${model}-list`][0]['content-uuid'];
}

before(async () => {
  server = await TestServer.start();
  admin = server.adminToken();
  owner = createTokenFor(server.dataDir, 'olga', 'writer');
  granted = createTokenFor(server.dataDir, 'gus', 'reader');
  stranger = createTokenFor(server.dataDir, 'sam', 'reader');
  publicSsp = await create(owner, 'system-security-plan', SSP);
  privateCatalog = await create(owner, 'catalog', CATALOG);
  const base = `${server.url}/oscal/v1`;
  const access = (id: string, model: string, body: unknown) =>
    api(base, 'PUT', `/${model}/${id}/access`, {
      token: owner,
      body: JSON.stringify(body),
      contentType: 'application/json',
    });
  assert.equal((await access(publicSsp, 'system-security-plan', { visibility: 'public' })).status, 200);
  assert.equal(
    (await access(privateCatalog, 'catalog', { grants: [{ principal: 'user:gus', permission: 'read' }] })).status,
    200,
  );
});
after(async () => {
  await server.stop();
});

function comparable(res: ApiResponse): { status: number; headers: Record<string, unknown>; body: string } {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_ANSWER.has(name)));
  return { status: res.status, headers, body: res.body.toString('base64') };
}

/** The same request answered on the front path (no query) and on fastify's (an empty query). */
async function bothWays(
  path: string,
  token: string | undefined,
  headers: Record<string, string>,
): Promise<{ front: ApiResponse; full: ApiResponse }> {
  const base = `${server.url}/oscal/v1`;
  const front = await api(base, 'GET', path, { ...(token ? { token } : {}), headers });
  const full = await api(base, 'GET', `${path}?`, { ...(token ? { token } : {}), headers });
  assert.deepEqual(comparable(front), comparable(full), `GET ${path} with ${JSON.stringify(headers)}`);
  return { front, full };
}

describe('answers match the full path', () => {
  const encodings = [undefined, 'br, gzip', 'gzip', 'deflate', 'identity'];
  const accepts = [
    undefined,
    'application/json',
    'application/xml',
    'application/yaml',
    'text/yaml;q=0.5, application/xml',
    '*/*',
  ];
  test('every Accept and Accept-Encoding, as owner, admin, grantee and anonymous', async () => {
    const callers: [string, string | undefined, () => string, string][] = [
      ['owner', owner, () => publicSsp, 'system-security-plan'],
      ['admin', admin, () => privateCatalog, 'catalog'],
      ['grantee', granted, () => privateCatalog, 'catalog'],
      ['anonymous', undefined, () => publicSsp, 'system-security-plan'],
    ];
    for (const [who, token, id, model] of callers) {
      for (const encoding of encodings) {
        for (const accept of accepts) {
          const headers: Record<string, string> = {};
          if (encoding) headers['accept-encoding'] = encoding;
          if (accept) headers.accept = accept;
          const { front } = await bothWays(`/${model}/${id()}`, token, headers);
          assert.equal(front.status, 200, `${who}: ${front.text}`);
        }
      }
    }
  });

  test('If-None-Match gives 304 with the same headers; another ETag gives the document', async () => {
    const { front } = await bothWays(`/system-security-plan/${publicSsp}`, owner, { 'accept-encoding': 'br, gzip' });
    const etag = String(front.headers.etag);
    assert.equal(
      (await bothWays(`/system-security-plan/${publicSsp}`, owner, { 'if-none-match': etag })).front.status,
      304,
    );
    assert.equal(
      (await bothWays(`/system-security-plan/${publicSsp}`, owner, { 'if-none-match': `W/"0", ${etag}` })).front.status,
      304,
    );
    assert.equal(
      (await bothWays(`/system-security-plan/${publicSsp}`, owner, { 'if-none-match': 'W/"0"' })).front.status,
      200,
    );
  });

  test("a request id sent by the client is the answer's", async () => {
    const { front, full } = await bothWays(`/system-security-plan/${publicSsp}`, owner, { 'x-request-id': 'trace-42' });
    assert.equal(front.headers['x-request-id'], 'trace-42');
    assert.equal(full.headers['x-request-id'], 'trace-42');
  });

  test('an id in capitals names the same document', async () => {
    const { front } = await bothWays(`/system-security-plan/${publicSsp.toUpperCase()}`, owner, {});
    assert.equal(front.status, 200);
  });

  test("refusals are the full path's: 401, 404, 406", async () => {
    const cases: [string, string | undefined, Record<string, string>, number][] = [
      [`/catalog/${privateCatalog}`, stranger, {}, 404],
      [`/catalog/${privateCatalog}`, undefined, {}, 404],
      [`/system-security-plan/${privateCatalog}`, owner, {}, 404],
      [`/catalog/00000000-0000-4000-8000-000000000000`, admin, {}, 404],
      [`/catalog/${privateCatalog}`, 'odt_not-a-token', {}, 401],
      [`/catalog/${privateCatalog}`, admin, { accept: 'text/html' }, 406],
    ];
    for (const [path, token, headers, status] of cases) {
      const { front } = await bothWays(path, token, headers);
      assert.equal(front.status, status, `GET ${path}: ${front.text}`);
    }
  });
});

test('an access change acts on the next read', async () => {
  const base = `${server.url}/oscal/v1`;
  const path = `/catalog/${privateCatalog}`;
  assert.equal((await api(base, 'GET', path, { token: granted })).status, 200);
  const revoked = await api(base, 'PUT', `${path}/access`, {
    token: owner,
    body: JSON.stringify({ grants: [] }),
    contentType: 'application/json',
  });
  assert.equal(revoked.status, 200, revoked.text);
  assert.equal((await api(base, 'GET', path, { token: granted })).status, 404);
  const opened = await api(base, 'PUT', `${path}/access`, {
    token: owner,
    body: JSON.stringify({ visibility: 'public' }),
    contentType: 'application/json',
  });
  assert.equal(opened.status, 200, opened.text);
  assert.equal((await api(base, 'GET', path)).status, 200);
});

test('a replaced document is read at its new revision at once', async () => {
  const base = `${server.url}/oscal/v1`;
  const path = `/system-security-plan/${publicSsp}`;
  const before = await api(base, 'GET', path, { token: owner });
  const doc = JSON.parse(SSP);
  doc['system-security-plan'].metadata.title = 'Retitled while cached';
  doc['system-security-plan'].metadata['document-ids'] = [
    { scheme: 'http://oscal.io/oscal/identifier/contentuuid', identifier: publicSsp },
  ];
  const put = await api(base, 'PUT', path, {
    token: owner,
    body: JSON.stringify(doc),
    contentType: 'application/json',
  });
  assert.equal(put.status, 204, put.text);
  const after = await api(base, 'GET', path, { token: owner });
  assert.notEqual(after.headers.etag, before.headers.etag);
  assert.equal(after.json()['system-security-plan'].metadata.title, 'Retitled while cached');
});
