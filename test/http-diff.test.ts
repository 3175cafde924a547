/**
 * Semantic diffs over real HTTP (issue 21): of revisions and snapshots of a stored document on
 * the generic interface, of versions on the registry, and of two documents sent in one request;
 * what the report says of a known edit, and the access rules of a read of both sides (a document
 * the caller may not read is the same 404 as one that does not exist).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { assertConceals, assertErrorBody } from './support/error-body.js';
import { api, type ApiRequest, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { CONTENT_UUID_SCHEME, markedCatalog, retitled, type MarkedDoc } from './support/marked-docs.js';
import { multipartBody, sampleDoc } from './support/registry-docs.js';
import { TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';

interface Change {
  kind: string;
  path: string;
  object: string;
  fields?: { field: string; old?: unknown; new?: unknown }[];
}
interface Report {
  model: string;
  from: { version: string; revision?: number; snapshot?: string };
  to: { version: string; revision?: number; snapshot?: string };
  equal: boolean;
  summary: { counts: Record<string, number> };
  changes: Change[];
}

let server: TestServer;
let alice: string;
let bob: string;

const get = (path: string, token?: string): Promise<ApiResponse> =>
  api(server.url, 'GET', path, token === undefined ? {} : { token });
const jsonBody = (value: unknown, token?: string): ApiRequest => ({
  body: JSON.stringify(value),
  contentType: 'application/json',
  ...(token === undefined ? {} : { token }),
});

function report(res: ApiResponse): Report {
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json\b/);
  return res.json() as Report;
}

/** A catalog of alice's (private, as the generic interface makes them) with a second revision that changed only the title. */
async function retitledCatalog(label: string): Promise<{ doc: MarkedDoc; id: string; newTitle: string }> {
  const doc = markedCatalog(label);
  const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token: alice,
    body: doc.body,
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
  const id = created.json()['catalog-list'][0]['content-uuid'] as string;
  const newTitle = `${doc.title}, revised`;
  const replaced = await api(server.url, 'PUT', `/oscal/v1/catalog/${id}`, {
    token: alice,
    body: retitled(doc, newTitle),
    contentType: 'application/json',
  });
  assert.equal(replaced.status, 204, replaced.text);
  return { doc, id, newTitle };
}

/** The one change a retitling makes: metadata's title, old to new. */
function assertRetitled(r: Report, oldTitle: string, newTitle: string): void {
  assert.equal(r.model, 'catalog');
  assert.equal(r.equal, false);
  assert.equal(r.changes.length, 1, JSON.stringify(r.changes));
  const [change] = r.changes;
  assert.equal(change!.kind, 'changed');
  assert.equal(change!.path, '/catalog/metadata');
  assert.deepEqual(
    change!.fields!.map(({ field, old, new: now }) => ({ field, old, new: now })),
    [{ field: 'title', old: oldTitle, new: newTitle }],
  );
  assert.deepEqual(r.summary.counts, { added: 0, removed: 0, moved: 0, changed: 1 });
}

before(async () => {
  server = await TestServer.start();
  [alice, bob] = (
    await Promise.all([makeToken(server.dataDir, 'alice', 'writer'), makeToken(server.dataDir, 'bob', 'writer')])
  ).map((t) => t.secret);
});
after(async () => {
  await stopWithin(server);
});

describe('GET /oscal/v1/{model}/{id}/diff', () => {
  test('revision against revision: the changed title, old and new, and nothing else; swapped, swapped', async () => {
    const { doc, id, newTitle } = await retitledCatalog('revisions');
    const r = report(await get(`/oscal/v1/catalog/${id}/diff?from=1&to=2`, alice));
    assertRetitled(r, doc.title, newTitle);
    assert.equal(r.from.revision, 1);
    assert.equal(r.to.revision, 2);
    assert.equal(r.from.version, '1.1.2');
    assert.equal(r.from.snapshot, undefined);
    assertRetitled(report(await get(`/oscal/v1/catalog/${id}/diff?from=2&to=1`, alice)), newTitle, doc.title);
    const same = report(await get(`/oscal/v1/catalog/${id}/diff?from=2&to=2`, alice));
    assert.equal(same.equal, true);
    assert.deepEqual(same.changes, []);
  });

  test('without to: against the current revision', async () => {
    const { doc, id, newTitle } = await retitledCatalog('current');
    const r = report(await get(`/oscal/v1/catalog/${id}/diff?from=1`, alice));
    assertRetitled(r, doc.title, newTitle);
    assert.equal(r.to.revision, 2);
  });

  test('a snapshot against the current revision: the title, and the snapshot props the copy carries', async () => {
    const doc = markedCatalog('snapshot');
    const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
      token: alice,
      body: doc.body,
      contentType: 'application/json',
    });
    const id = created.json()['catalog-list'][0]['content-uuid'] as string;
    const snap = await api(server.url, 'POST', `/oscal/v1/catalog/${id}/snapshot`, { token: alice });
    assert.equal(snap.status, 201, snap.text);
    const snapshotId = snap.json()['snapshot-id'] as string;
    const newTitle = `${doc.title}, after the snapshot`;
    const put = await api(server.url, 'PUT', `/oscal/v1/catalog/${id}`, {
      token: alice,
      body: retitled(doc, newTitle),
      contentType: 'application/json',
    });
    assert.equal(put.status, 204, put.text);

    // The snapshot id is read in either case, as every identifier is.
    const r = report(await get(`/oscal/v1/catalog/${id}/diff?from=snapshot:${snapshotId.toUpperCase()}`, alice));
    assert.deepEqual(r.from, { version: '1.1.2', revision: 1, snapshot: snapshotId });
    assert.deepEqual(r.to, { version: '1.1.2', revision: 2 });
    const metadata = r.changes.find((c) => c.path === '/catalog/metadata' && c.kind === 'changed');
    const title = metadata?.fields?.find((f) => f.field === 'title');
    assert.deepEqual([title?.old, title?.new], [doc.title, newTitle], JSON.stringify(r.changes));
    assert.ok(
      r.changes.some((c) => c.kind === 'removed' && c.path.startsWith('/catalog/metadata/props')),
      `the snapshot's own props are not in the current revision: ${JSON.stringify(r.changes)}`,
    );

    // And the other way: the current revision against the snapshot.
    const back = report(await get(`/oscal/v1/catalog/${id}/diff?from=2&to=snapshot:${snapshotId}`, alice));
    assert.deepEqual(back.to, { version: '1.1.2', revision: 1, snapshot: snapshotId });
  });

  test('ignore-volatile=true leaves out last-modified; by default it counts', async () => {
    const doc = markedCatalog('volatile');
    const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
      token: alice,
      body: doc.body,
      contentType: 'application/json',
    });
    const id = created.json()['catalog-list'][0]['content-uuid'] as string;
    const touched = structuredClone(doc.content);
    touched.catalog.metadata['last-modified'] = '2031-02-03T04:05:06Z';
    const put = await api(server.url, 'PUT', `/oscal/v1/catalog/${id}`, {
      token: alice,
      body: JSON.stringify(touched),
      contentType: 'application/json',
    });
    assert.equal(put.status, 204, put.text);

    const counted = report(await get(`/oscal/v1/catalog/${id}/diff?from=1&to=2`, alice));
    assert.equal(counted.equal, false);
    assert.deepEqual(
      counted.changes.flatMap((c) => c.fields?.map((f) => f.field) ?? []),
      ['last-modified'],
      JSON.stringify(counted.changes),
    );
    const ignored = report(await get(`/oscal/v1/catalog/${id}/diff?from=1&to=2&ignore-volatile=true`, alice));
    assert.equal(ignored.equal, true, JSON.stringify(ignored.changes));
    assert.deepEqual(ignored.changes, []);
    assert.equal(report(await get(`/oscal/v1/catalog/${id}/diff?from=1&ignore-volatile=false`, alice)).equal, false);
    assertErrorBody(await get(`/oscal/v1/catalog/${id}/diff?from=1&ignore-volatile=maybe`, alice), 400);
  });

  test('from missing or naming neither a revision nor a snapshot: 400; a revision or snapshot that is not there: 404', async () => {
    const { id } = await retitledCatalog('refusals');
    for (const query of [
      '',
      '?to=1',
      '?from=0',
      '?from=abc',
      '?from=1.5',
      '?from=-1',
      '?from=1&to=snapshot:nope',
      '?from=snapshot:',
    ])
      assert.equal(
        assertErrorBody(await get(`/oscal/v1/catalog/${id}/diff${query}`, alice), 400, /from|to/).code,
        'bad-request',
        query,
      );
    assert.equal(assertErrorBody(await get(`/oscal/v1/catalog/${id}/diff?from=3`, alice), 404).code, 'not-found');
    assertErrorBody(await get(`/oscal/v1/catalog/${id}/diff?from=1&to=99`, alice), 404, /revision/);
    assertErrorBody(await get(`/oscal/v1/catalog/${id}/diff?from=snapshot:${randomUUID()}`, alice), 404, /snapshot/);
    assertErrorBody(await get(`/oscal/v1/catalog/${randomUUID()}/diff?from=1`, alice), 404, /document/);
    assert.equal(assertErrorBody(await get(`/oscal/v1/nonsense/${id}/diff?from=1`, alice), 422).code, 'unknown-model');
    // The path's model is the document's: a catalog is no profile.
    assertErrorBody(await get(`/oscal/v1/profile/${id}/diff?from=1`, alice), 404);
  });

  test("another user's private document: the 404 of a document that does not exist, whatever the sides name", async () => {
    const { doc, id } = await retitledCatalog('private');
    const fingerprints = [doc.title, doc.marker, doc.rootUuid];
    for (const query of ['?from=1&to=2', '?from=1', '?from=99', '?from=bogus', '']) {
      const absent = await get(`/oscal/v1/catalog/${randomUUID()}/diff${query}`, bob);
      assertErrorBody(absent, 404);
      assertConceals(await get(`/oscal/v1/catalog/${id}/diff${query}`, bob), fingerprints, absent);
      assertConceals(
        await get(`/oscal/v1/catalog/${id}/diff${query}`),
        fingerprints,
        await get(`/oscal/v1/catalog/${randomUUID()}/diff${query}`),
      );
    }
  });

  test('anonymous callers compare public documents, as they read them', async () => {
    const { doc, id, newTitle } = await retitledCatalog('public');
    const access = await api(
      server.url,
      'PUT',
      `/oscal/v1/catalog/${id}/access`,
      jsonBody({ visibility: 'public' }, alice),
    );
    assert.equal(access.status, 200, access.text);
    assertRetitled(report(await get(`/oscal/v1/catalog/${id}/diff?from=1&to=2`)), doc.title, newTitle);
    assertRetitled(report(await get(`/oscal/v1/catalog/${id}/diff?from=1&to=2`, bob)), doc.title, newTitle);
  });
});

describe('POST /oscal/v1/diff', () => {
  const form = (
    parts: { name: string; contentType?: string; content: string | Buffer }[],
    token = alice,
  ): ApiRequest => ({
    token,
    ...multipartBody(parts.map((p) => ({ filename: `${p.name}.oscal`, ...p }))),
  });

  test('one document in two formats: equal, whether the part says its format or the bytes tell it', async () => {
    const doc = markedCatalog('formats');
    const parsed = parseOscal(doc.body, 'json');
    const xml = serializeOscal(parsed, 'xml');
    const yaml = serializeOscal(parsed, 'yaml');
    const declared = report(
      await api(
        server.url,
        'POST',
        '/oscal/v1/diff',
        form([
          { name: 'from', contentType: 'application/xml', content: xml },
          { name: 'to', contentType: 'application/yaml', content: yaml },
        ]),
      ),
    );
    assert.equal(declared.equal, true, JSON.stringify(declared.changes));
    assert.deepEqual(declared.changes, []);
    const sniffed = report(
      await api(
        server.url,
        'POST',
        '/oscal/v1/diff',
        form([
          { name: 'from', contentType: 'application/octet-stream', content: yaml },
          { name: 'to', content: doc.body },
        ]),
      ),
    );
    assert.equal(sniffed.equal, true, JSON.stringify(sniffed.changes));
    assert.deepEqual(sniffed.from, { version: '1.1.2' });
  });

  test('a JSON pair: the changed title; ignore-volatile applies here too', async () => {
    const doc = markedCatalog('pair');
    const newer = structuredClone(doc.content);
    newer.catalog.metadata.title = `${doc.title}, revised`;
    assertRetitled(
      report(await api(server.url, 'POST', '/oscal/v1/diff', jsonBody({ from: doc.content, to: newer }, alice))),
      doc.title,
      `${doc.title}, revised`,
    );
    const touched = structuredClone(doc.content);
    touched.catalog.metadata['last-modified'] = '2031-02-03T04:05:06Z';
    touched.catalog.metadata['document-ids'] = [{ scheme: CONTENT_UUID_SCHEME, identifier: randomUUID() }];
    const pair = jsonBody({ from: doc.content, to: touched }, alice);
    assert.equal(report(await api(server.url, 'POST', '/oscal/v1/diff', pair)).equal, false);
    assert.equal(report(await api(server.url, 'POST', '/oscal/v1/diff?ignore-volatile=true', pair)).equal, true);
  });

  test('two models: 422 wrong-model', async () => {
    const res = await api(
      server.url,
      'POST',
      '/oscal/v1/diff',
      jsonBody({ from: markedCatalog('model').content, to: sampleDoc('profile') }, alice),
    );
    assert.equal(assertErrorBody(res, 422, /catalog.*profile/).code, 'wrong-model');
    const mixed = await api(
      server.url,
      'POST',
      '/oscal/v1/diff',
      form([
        { name: 'from', content: JSON.stringify(sampleDoc('profile')) },
        {
          name: 'to',
          contentType: 'application/xml',
          content: serializeOscal(parseOscal(markedCatalog('x').body, 'json'), 'xml'),
        },
      ]),
    );
    assert.equal(assertErrorBody(mixed, 422).code, 'wrong-model');
  });

  test('refusals: credentials, the body, each document', async () => {
    const doc = markedCatalog('refused');
    const diff = (options: ApiRequest) => api(server.url, 'POST', '/oscal/v1/diff', options);
    assert.equal(
      assertErrorBody(await diff(jsonBody({ from: doc.content, to: doc.content })), 401).code,
      'unauthenticated',
    );
    const code = async (options: ApiRequest, status: number) => assertErrorBody(await diff(options), status).code;
    assert.equal(await code(jsonBody({ from: doc.content }, alice), 400), 'missing-file');
    assert.equal(await code(jsonBody({ from: doc.content, to: doc.content, by: 'me' }, alice), 400), 'bad-request');
    assert.equal(await code(jsonBody([doc.content, doc.content], alice), 400), 'bad-request');
    assert.equal(await code({ token: alice, body: '{"from": ', contentType: 'application/json' }, 400), 'malformed');
    assert.equal(
      await code({ token: alice, body: doc.body, contentType: 'text/plain' }, 415),
      'unsupported-media-type',
    );
    assert.equal(await code(form([{ name: 'from', content: doc.body }]), 400), 'missing-file');
    assert.equal(
      await code(
        form([
          { name: 'from', content: doc.body },
          { name: 'to', content: '' },
        ]),
        400,
      ),
      'missing-file',
    );
    assert.equal(
      await code(
        form([
          { name: 'from', content: doc.body },
          { name: 'to', content: '{"catalog": ' },
        ]),
        400,
      ),
      'malformed',
    );
    const invalid = structuredClone(doc.content) as Record<string, any>;
    delete invalid.catalog.metadata.title;
    const refused = await diff(jsonBody({ from: doc.content, to: invalid }, alice));
    const body = assertErrorBody(refused, 422, /^"to": /);
    assert.equal(body.code, 'invalid-oscal');
    assert.ok(body.errors?.length);
    assert.equal(
      await code(
        form([
          { name: 'from', content: doc.body },
          { name: 'to', content: doc.body },
          { name: 'extra', content: doc.body },
        ]),
        413,
      ),
      'too-many-parts',
    );
  });
});

describe('GET /api/v1/{plural}/{id}/versions/{a}/diff/{b}', () => {
  async function registryCatalog(): Promise<{ id: string; title: string }> {
    const id = randomUUID();
    const doc = sampleDoc('catalog', { uuid: id, title: `Registry diff ${id}` });
    const put = (body: unknown) => api(server.url, 'PUT', `/api/v1/catalogs/${id}`, jsonBody(body, alice));
    assert.equal((await put(doc)).status, 201);
    doc.catalog.metadata.title = `Registry diff ${id}, v2`;
    assert.equal((await put(doc)).status, 204);
    return { id, title: `Registry diff ${id}` };
  }

  test('two versions, either way round, public to anyone; the statuses of a version read', async () => {
    const { id, title } = await registryCatalog();
    const r = report(await get(`/api/v1/catalogs/${id}/versions/1/diff/2`));
    assertRetitled(r, title, `${title}, v2`);
    assert.deepEqual([r.from.revision, r.to.revision], [1, 2]);
    assertRetitled(report(await get(`/api/v1/catalogs/${id}/versions/2/diff/1`, bob)), `${title}, v2`, title);
    assert.equal(report(await get(`/api/v1/catalogs/${id}/versions/1/diff/2?ignore-volatile=true`)).equal, false);
    assert.equal(
      assertErrorBody(await get(`/api/v1/catalogs/${id}/versions/first/diff/2`), 400).code,
      'invalid-version',
    );
    assert.equal(assertErrorBody(await get(`/api/v1/catalogs/${id}/versions/1/diff/0`), 400).code, 'invalid-version');
    assertErrorBody(await get(`/api/v1/catalogs/${id}/versions/1/diff/99`), 404, /version|revision/);
    assertErrorBody(await get(`/api/v1/catalogs/${randomUUID()}/versions/1/diff/2`), 404);
    assert.equal(assertErrorBody(await get(`/api/v1/nonsense/${id}/versions/1/diff/2`), 422).code, 'unknown-model');
    assertErrorBody(await get(`/api/v1/profiles/${id}/versions/1/diff/2`), 404);
  });

  test("another user's private document: the 404 of a document that does not exist", async () => {
    const { doc, id } = await retitledCatalog('registry private');
    const fingerprints = [doc.title, doc.marker, doc.rootUuid];
    for (const token of [bob, undefined]) {
      const absent = await get(`/api/v1/catalogs/${randomUUID()}/versions/1/diff/2`, token);
      assertErrorBody(absent, 404);
      assertConceals(await get(`/api/v1/catalogs/${id}/versions/1/diff/2`, token), fingerprints, absent);
      assertConceals(await get(`/api/v1/catalogs/${id}/versions/1/diff/99`, token), fingerprints, absent);
    }
    assertRetitled(
      report(await get(`/api/v1/catalogs/${id}/versions/1/diff/2`, alice)),
      doc.title,
      `${doc.title}, revised`,
    );
  });
});

describe('POST /oscal/v1/diff and the body limit', () => {
  let small: TestServer;
  let token: string;
  before(async () => {
    small = await TestServer.start({ args: ['--max-body', '24KB'] });
    token = small.adminToken();
  });
  after(async () => {
    await stopWithin(small);
  });

  test('each document may be as large as one document sent alone, so the two together may be larger', async () => {
    const doc = markedCatalog('limit');
    const diff = (options: ApiRequest) => api(small.url, 'POST', '/oscal/v1/diff', { token, ...options });
    const pair = JSON.stringify({ from: doc.content, to: doc.content }, null, 2);
    assert.ok(pair.length > 24 * 1024 && doc.body.length < 24 * 1024, `${pair.length} and ${doc.body.length}`);
    assert.equal(report(await diff({ body: pair, contentType: 'application/json' })).equal, true);
    const form = multipartBody([
      { name: 'from', filename: 'a.json', content: doc.body },
      { name: 'to', filename: 'b.json', content: doc.body },
    ]);
    assert.equal(report(await diff(form)).equal, true);

    const large = structuredClone(doc.content);
    large.catalog.metadata.remarks = 'large '.repeat(3000);
    const largePair = JSON.stringify({ from: doc.content, to: large });
    // Within the limit of the pair, over that of one document.
    assert.ok(largePair.length < 2 * 24 * 1024 && JSON.stringify(large).length > 24 * 1024);
    const tooLarge = await diff({ body: largePair, contentType: 'application/json' });
    assert.equal(assertErrorBody(tooLarge, 413, /"to"/).code, 'too-large');
    const largeFile = multipartBody([
      { name: 'from', filename: 'a.json', content: JSON.stringify(large) },
      { name: 'to', filename: 'b.json', content: doc.body },
    ]);
    assert.equal(assertErrorBody(await diff(largeFile), 413).code, 'too-large');
  });
});
