/**
 * The registry variant (/api/v1/{plural}, /api/upload) over real HTTP: registry-api.md sections
 * 2-4 and 7 with decisions D1-D3 and D6-D8. Expected values are written from the spec, never read
 * back from the server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { assertErrorBody } from './support/error-body.js';
import type { ApiRequest, ApiResponse } from './support/http.js';
import { metadataOf, multipartBody, PLURAL, sampleDoc, type DocOptions } from './support/registry-docs.js';
import { timedApi } from './support/registry-http.js';
import { TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';

const CONTENT_UUID = 'http://oscal.io/oscal/identifier/contentuuid';
const CONTENT_UUID_HYPHENATED = 'http://oscal.io/oscal/identifier/content-uuid';
const LIST_ITEM_KEYS = ['content-uuid', 'document-version', 'last-modified', 'oscal-version', 'self', 'title'];
/**
 * The registry's fields, the constraint findings kept with the version and whether it was stored
 * valid (docs/decisions/0019-registry-one-store.md, 0050-constraint-evaluation-levels-indexes.md,
 * 0104-keep-findings-option-and-mark.md).
 */
const VERSION_ITEM_KEYS = [
  'createdAt',
  'documentVersion',
  'fileSize',
  'findings',
  'id',
  'lastModified',
  'oscalVersion',
  'title',
  'valid',
  'version',
];
const UPLOAD_RESULT_KEYS = ['action', 'content-uuid', 'model-type', 'title'];
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let server: TestServer;
let admin: string;
/** Writers (may create, D7). */
let alice: string;
let bob: string;
/** A reader: may read public documents, may not create. */
let rita: string;

before(async () => {
  server = await TestServer.start();
  admin = server.adminToken();
  [alice, bob, rita] = (
    await Promise.all([
      makeToken(server.dataDir, 'alice', 'writer'),
      makeToken(server.dataDir, 'bob', 'writer'),
      makeToken(server.dataDir, 'rita', 'reader'),
    ])
  ).map((t) => t.secret) as [string, string, string];
});
after(async () => {
  await server.stop();
});

// ---------------------------------------------------------------------------------------------
// Helpers

/** Every request gives up after 5 s instead of hanging the suite (and closes its connection). */
const call = (method: string, path: string, options: ApiRequest = {}) => timedApi(server.url, method, path, options);

const reg = (method: string, path: string, options: ApiRequest = {}) => call(method, `/api/v1${path}`, options);
const gen = (method: string, path: string, options: ApiRequest = {}) => call(method, `/oscal/v1${path}`, options);

function putJson(
  plural: string,
  id: string,
  doc: unknown,
  token: string | undefined,
  contentType = 'application/json',
): Promise<ApiResponse> {
  return reg('PUT', `/${plural}/${id}`, { ...(token ? { token } : {}), body: JSON.stringify(doc), contentType });
}

function upload(doc: unknown, token: string | undefined): Promise<ApiResponse> {
  return call('POST', '/api/upload', {
    ...(token ? { token } : {}),
    body: JSON.stringify(doc),
    contentType: 'application/json',
  });
}

function uploadMultipart(doc: unknown, token: string | undefined): Promise<ApiResponse> {
  const form = multipartBody([
    { name: 'note', content: 'uploaded by the registry tests' },
    { name: 'file', filename: 'document.json', contentType: 'application/json', content: JSON.stringify(doc) },
  ]);
  return call('POST', '/api/upload', { ...(token ? { token } : {}), body: form.body, contentType: form.contentType });
}

/** Creates a document through registry PUT (201) and returns it with its content-uuid (the root uuid). */
async function created(
  model: string,
  token: string,
  options: DocOptions = {},
): Promise<{ id: string; doc: Record<string, any> }> {
  const doc = sampleDoc(model, options);
  const id = doc[model].uuid as string;
  const r = await putJson(PLURAL[model]!, id, doc, token);
  assert.equal(r.status, 201, `PUT of a new ${model}: ${r.text}`);
  return { id, doc };
}

/** Adds a version through registry PUT (204). */
async function updated(model: string, id: string, token: string, options: DocOptions): Promise<Record<string, any>> {
  const doc = sampleDoc(model, { uuid: id, ...options });
  const r = await putJson(PLURAL[model]!, id, doc, token);
  assert.equal(r.status, 204, `PUT of a new version: ${r.text}`);
  assert.equal(r.body.length, 0, '204 has no body');
  return doc;
}

async function versionList(plural: string, id: string, token: string): Promise<Record<string, any>[]> {
  const r = await reg('GET', `/${plural}/${id}/versions`, { token });
  assert.equal(r.status, 200, `versions of ${id}: ${r.text}`);
  assert.match(String(r.headers['content-type']), /^application\/json\b/);
  const body = r.json();
  assert.ok(Array.isArray(body), 'the version list is a JSON array');
  return body;
}

/** [version, title] of each version, as listed (newest first). */
async function versionTitles(plural: string, id: string, token: string): Promise<[number, string][]> {
  return (await versionList(plural, id, token)).map((v) => [v.version, v.title]);
}

async function getJson(path: string, token?: string): Promise<Record<string, any>> {
  const r = await reg('GET', path, token ? { token } : {});
  assert.equal(r.status, 200, `GET ${path}: ${r.text}`);
  assert.equal(r.headers['content-type'], 'application/json', 'registry documents are application/json');
  return r.json();
}

async function anonymousList(plural: string): Promise<Record<string, any>[]> {
  const r = await reg('GET', `/${plural}?limit=1000`);
  assert.equal(r.status, 200, r.text);
  const body = r.json();
  assert.ok(Array.isArray(body), `the list is a bare JSON array (D4), got ${r.text.slice(0, 200)}`);
  return body;
}

function idsOf(doc: Record<string, any>): { scheme: string; identifier: string }[] {
  return (metadataOf(doc)['document-ids'] ?? []) as { scheme: string; identifier: string }[];
}

/**
 * The stored document is what was sent with the content identifier entry of D2 in document-ids
 * (written when missing); everything else as sent.
 */
function assertStored(got: Record<string, any>, sent: Record<string, any>, id: string): void {
  const ours = idsOf(got).filter((d) => d.scheme === CONTENT_UUID || d.scheme === CONTENT_UUID_HYPHENATED);
  assert.deepEqual(
    ours,
    [{ scheme: CONTENT_UUID, identifier: id }],
    'one content identifier entry, in the contentuuid form, with the content-uuid',
  );
  const others = (d: Record<string, any>) =>
    idsOf(d).filter((e) => e.scheme !== CONTENT_UUID && e.scheme !== CONTENT_UUID_HYPHENATED);
  assert.deepEqual(others(got), others(sent), 'other document-ids entries kept');
  const strip = (d: Record<string, any>) => {
    const copy = structuredClone(d);
    delete metadataOf(copy)['document-ids'];
    return copy;
  };
  assert.deepEqual(strip(got), strip(sent));
}

/** A catalog whose body names the given content identifier in document-ids. */
function catalogWithIds(ids: { scheme: string; identifier: string }[], options: DocOptions = {}): Record<string, any> {
  return sampleDoc('catalog', { ...options, documentIds: ids });
}

// ---------------------------------------------------------------------------------------------

describe('state table (registry-api 3)', () => {
  test('PUT to a content-uuid with no document creates version 1: 201', async () => {
    const doc = sampleDoc('catalog', { title: 'State created', version: '1.0', lastModified: '2024-02-01T10:00:00Z' });
    const id = doc.catalog.uuid as string;
    const r = await putJson('catalogs', id, doc, alice);
    assert.equal(r.status, 201, r.text);

    assertStored(await getJson(`/catalogs/${id}`), doc, id);
    const versions = await versionList('catalogs', id, alice);
    assert.equal(versions.length, 1);
    const [v] = versions;
    assert.deepEqual(Object.keys(v!).sort(), VERSION_ITEM_KEYS);
    assert.equal(v!.version, 1);
    assert.equal(v!.title, 'State created');
    assert.equal(v!.documentVersion, '1.0');
    assert.equal(v!.oscalVersion, metadataOf(doc)['oscal-version']);
    assert.equal(Date.parse(v!.lastModified), Date.parse('2024-02-01T10:00:00Z'));
    assert.ok(Number.isInteger(v!.id), 'id is an integer');
    assert.deepEqual(v!.findings, [], 'the sample catalog breaks no constraint');
    assert.equal(v!.valid, true);
    assert.match(v!.createdAt, ISO_DATE_TIME);
    assert.ok(Math.abs(Date.parse(v!.createdAt) - Date.now()) < 5 * 60_000, `createdAt ${v!.createdAt} is about now`);
    const one = await reg('GET', `/catalogs/${id}/versions/1`);
    assert.equal(one.status, 200, one.text);
    assert.equal(v!.fileSize, one.body.length, "fileSize is the byte length of that version's JSON");
    assertStored(one.json(), doc, id);
  });

  test('PUT to an existing content-uuid by the owner: 204, the version number increases by 1, earlier versions kept; GET returns the latest', async () => {
    const { id, doc: first } = await created('catalog', alice, { title: 'Owner v1', version: '1.0' });
    const second = await updated('catalog', id, alice, { title: 'Owner v2', version: '2.0' });
    const third = await updated('catalog', id, alice, {
      title: 'Owner v3',
      version: '3.0',
      lastModified: '2024-05-05T05:05:05Z',
    });

    const versions = await versionList('catalogs', id, alice);
    assert.deepEqual(
      versions.map((v) => [v.version, v.title, v.documentVersion]),
      [
        [3, 'Owner v3', '3.0'],
        [2, 'Owner v2', '2.0'],
        [1, 'Owner v1', '1.0'],
      ],
    );
    assert.equal(new Set(versions.map((v) => v.id)).size, 3, 'each version is its own record');
    assertStored(await getJson(`/catalogs/${id}`), third, id);
    assertStored(await getJson(`/catalogs/${id}/versions/1`), first, id);
    assertStored(await getJson(`/catalogs/${id}/versions/2`), second, id);
    assertStored(await getJson(`/catalogs/${id}/versions/3`), third, id);
    for (const v of versions) {
      const got = await reg('GET', `/catalogs/${id}/versions/${v.version}`);
      assert.equal(v.fileSize, got.body.length, `fileSize of version ${v.version}`);
    }

    const item = (await anonymousList('catalogs')).find((i) => i['content-uuid'] === id);
    assert.ok(item, 'listed');
    assert.equal(item.title, 'Owner v3');
    assert.equal(item['document-version'], '3.0');
    assert.equal(Date.parse(item['last-modified']), Date.parse('2024-05-05T05:05:05Z'));
  });

  test('an admin holds every right (D7): an admin PUT adds a version too', async () => {
    const { id } = await created('profile', alice, { title: 'Admin edits v1' });
    await updated('profile', id, admin, { title: 'Admin edits v2' });
    assert.deepEqual(await versionTitles('profiles', id, alice), [
      [2, 'Admin edits v2'],
      [1, 'Admin edits v1'],
    ]);
  });

  test('DELETE of a version while more than one remains (owner, admin): 204; of the only version: 409 and unchanged', async () => {
    const { id, doc: first } = await created('component-definition', alice, { title: 'Del v1' });
    await updated('component-definition', id, alice, { title: 'Del v2' });
    const third = await updated('component-definition', id, alice, { title: 'Del v3' });
    const path = `/component-definitions/${id}`;

    const byOwner = await reg('DELETE', `${path}/versions/2`, { token: alice });
    assert.equal(byOwner.status, 204, byOwner.text);
    assert.equal(byOwner.body.length, 0);
    assert.deepEqual(await versionTitles('component-definitions', id, alice), [
      [3, 'Del v3'],
      [1, 'Del v1'],
    ]);
    assertErrorBody(await reg('GET', `${path}/versions/2`), 404);
    assertStored(await getJson(`${path}/versions/1`), first, id);

    const byAdmin = await reg('DELETE', `${path}/versions/1`, { token: admin });
    assert.equal(byAdmin.status, 204, byAdmin.text);
    assert.deepEqual(await versionTitles('component-definitions', id, alice), [[3, 'Del v3']]);

    for (const token of [alice, admin]) {
      assertErrorBody(await reg('DELETE', `${path}/versions/3`, { token }), 409);
      assert.deepEqual(await versionTitles('component-definitions', id, alice), [[3, 'Del v3']], 'unchanged');
      assertStored(await getJson(path), third, id);
      assertStored(await getJson(`${path}/versions/3`), third, id);
    }
  });

  test('deleting the newest version makes the one before it current; a deleted number is never given again', async () => {
    const { id, doc: first } = await created('catalog', alice, { title: 'Renumber v1' });
    await updated('catalog', id, alice, { title: 'Renumber v2' });
    const gone = await reg('DELETE', `/catalogs/${id}/versions/2`, { token: alice });
    assert.equal(gone.status, 204, gone.text);
    assertStored(await getJson(`/catalogs/${id}`), first, id);
    assert.equal((await anonymousList('catalogs')).find((i) => i['content-uuid'] === id)?.title, 'Renumber v1');

    await updated('catalog', id, alice, { title: 'Renumber v3' });
    assert.deepEqual(await versionTitles('catalogs', id, alice), [
      [3, 'Renumber v3'],
      [1, 'Renumber v1'],
    ]);
    assertErrorBody(await reg('GET', `/catalogs/${id}/versions/2`), 404);
    assert.equal((await getJson(`/catalogs/${id}/versions/3`)).catalog.metadata.title, 'Renumber v3');
  });

  test('DELETE of the document by the owner and by an admin: 204, with every version gone', async () => {
    const mine = await created('catalog', alice, { title: 'Doc delete owner v1' });
    await updated('catalog', mine.id, alice, { title: 'Doc delete owner v2' });
    const theirs = await created('catalog', bob, { title: 'Doc delete admin' });

    for (const [id, token] of [
      [mine.id, alice],
      [theirs.id, admin],
    ] as const) {
      const r = await reg('DELETE', `/catalogs/${id}`, { token });
      assert.equal(r.status, 204, r.text);
      assert.equal(r.body.length, 0);
      assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);
      assertErrorBody(await reg('GET', `/catalogs/${id}/versions/1`), 404);
      assertErrorBody(await reg('GET', `/catalogs/${id}/versions`, { token }), 404);
      assertErrorBody(await gen('GET', `/catalog/${id}`, { token }), 404);
      assert.equal(
        (await anonymousList('catalogs')).some((i) => i['content-uuid'] === id),
        false,
        'no longer listed',
      );
    }
    // With no document at the content-uuid any more, a PUT creates version 1 again.
    const again = sampleDoc('catalog', { uuid: mine.id, title: 'Doc delete owner again' });
    const r = await putJson('catalogs', mine.id, again, alice);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(await versionTitles('catalogs', mine.id, alice), [[1, 'Doc delete owner again']]);
  });

  test('a PUT to an upper-case content-uuid URL is read back at that same URL (D2 lower-cases; UUIDs are case-insensitive)', async () => {
    const id = randomUUID();
    const upper = id.toUpperCase();
    const doc = sampleDoc('catalog', { uuid: upper, title: 'Upper case v1' });
    const r = await putJson('catalogs', upper, doc, alice);
    assert.equal(r.status, 201, r.text);
    await updated('catalog', upper, alice, { title: 'Upper case v2' });
    // Stored under the lower-cased id (D2).
    assert.deepEqual(await versionTitles('catalogs', id, alice), [
      [2, 'Upper case v2'],
      [1, 'Upper case v1'],
    ]);
    // The URL that was written to reads the document too.
    const statuses = {
      doc: (await reg('GET', `/catalogs/${upper}`)).status,
      versions: (await reg('GET', `/catalogs/${upper}/versions`, { token: alice })).status,
      version: (await reg('GET', `/catalogs/${upper}/versions/1`)).status,
    };
    assert.deepEqual(statuses, { doc: 200, versions: 200, version: 200 });
  });

  test('every plural segment of 2.1 (and mapping-collections, D1): PUT creates, GET and list read', async () => {
    for (const [model, plural] of Object.entries(PLURAL)) {
      const { id, doc } = await created(model, alice, { title: `Plural ${model}` });
      assertStored(await getJson(`/${plural}/${id}`), doc, id);
      const item = (await anonymousList(plural)).find((i) => i['content-uuid'] === id);
      assert.ok(item, `${model} listed under /${plural}`);
      assert.equal(item.self, `/api/v1/${plural}/${id}`);
      // Listed under its own plural only.
      const other = plural === 'catalogs' ? 'profiles' : 'catalogs';
      assert.equal(
        (await anonymousList(other)).some((i) => i['content-uuid'] === id),
        false,
        `${model} not listed under /${other}`,
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('error codes per endpoint (registry-api 7, D3)', () => {
  let shared: { id: string; doc: Record<string, any> };
  /** A public document of alice's with two versions (so version deletes are not refused for being the last). */
  let twoVersions: { id: string };
  before(async () => {
    shared = await created('catalog', alice, { title: 'Errors shared' });
    twoVersions = await created('catalog', alice, { title: 'Errors two v1' });
    await updated('catalog', twoVersions.id, alice, { title: 'Errors two v2' });
  });

  test('GET document: 404 for an absent content-uuid and for a document of another model', async () => {
    for (const token of [undefined, admin]) {
      assertErrorBody(await reg('GET', `/catalogs/${randomUUID()}`, token ? { token } : {}), 404);
      assertErrorBody(await reg('GET', `/profiles/${shared.id}`, token ? { token } : {}), 404);
    }
  });

  test('an unknown model segment is 422 "unknown model type" on every endpoint whose table lists 422', async () => {
    const id = shared.id;
    const doc = JSON.stringify(shared.doc);
    const answers: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const segment of ['widgets', 'catalog']) {
      const cases: [string, string, ApiRequest][] = [
        ['GET', `/${segment}/${id}`, {}],
        ['PUT', `/${segment}/${id}`, { token: admin, body: doc, contentType: 'application/json' }],
        ['DELETE', `/${segment}/${id}`, { token: admin }],
        ['GET', `/${segment}/${id}/versions`, { token: admin }],
        ['GET', `/${segment}/${id}/versions/1`, {}],
        ['DELETE', `/${segment}/${id}/versions/1`, { token: admin }],
      ];
      for (const [method, path, options] of cases) {
        const r = await reg(method, path, options);
        assertErrorBody(r, r.status);
        answers[`${method} /api/v1${path}`] = r.status;
        expected[`${method} /api/v1${path}`] = 422;
      }
      const list = await reg('GET', `/${segment}`);
      assert.notEqual(list.status, 200, `GET /api/v1/${segment} must not succeed`);
      assertErrorBody(list, list.status);
    }
    // The document still exists: nothing above touched it.
    assert.equal((await getJson(`/catalogs/${id}`)).catalog.metadata.title, 'Errors shared');
    assert.deepEqual(answers, expected);
  });

  test('PUT: 400 for a body that is not JSON', async () => {
    const id = randomUUID();
    for (const body of ['{"catalog": {"uuid": ', 'not json at all', '']) {
      assertErrorBody(
        await reg('PUT', `/catalogs/${id}`, { token: alice, body, contentType: 'application/json' }),
        400,
      );
    }
    assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);
  });

  test('PUT: 400 "invalid metadata" for a content-uuid that is not a v4/v5 UUID', async () => {
    const cases = [
      catalogWithIds([{ scheme: CONTENT_UUID, identifier: 'not-a-uuid' }]),
      // A version 1 UUID, under the hyphenated spelling of the scheme.
      catalogWithIds([{ scheme: CONTENT_UUID_HYPHENATED, identifier: 'c232ab00-9414-11ec-b3c8-9f6bdeced846' }]),
    ];
    for (const doc of cases) {
      const id = doc.catalog.uuid as string;
      const r = await putJson('catalogs', id, doc, alice);
      assertErrorBody(r, 400, /uuid/i);
      assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);
    }
  });

  test('PUT: 401 without credentials or with a bad token; nothing created', async () => {
    const doc = sampleDoc('catalog');
    const id = doc.catalog.uuid as string;
    assertErrorBody(await putJson('catalogs', id, doc, undefined), 401);
    assertErrorBody(await putJson('catalogs', id, doc, 'odt_not-a-real-token'), 401);
    assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);
  });

  test("PUT: 403 for another user's public document, and for a reader creating one", async () => {
    for (const token of [bob, rita]) {
      const doc = sampleDoc('catalog', { uuid: shared.id, title: 'Not yours' });
      assertErrorBody(await putJson('catalogs', shared.id, doc, token), 403);
    }
    assert.deepEqual(await versionTitles('catalogs', shared.id, alice), [[1, 'Errors shared']], 'unchanged');
    assertStored(await getJson(`/catalogs/${shared.id}`), shared.doc, shared.id);

    const doc = sampleDoc('catalog');
    const id = doc.catalog.uuid as string;
    assertErrorBody(await putJson('catalogs', id, doc, rita), 403);
    assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);
  });

  test("PUT: 409 when the body's content-uuid differs from the URL", async () => {
    // Root uuid (no document-ids entry) differs from the path.
    const rooted = sampleDoc('catalog');
    const pathId = randomUUID();
    assertErrorBody(await putJson('catalogs', pathId, rooted, alice), 409);
    // A document-ids content identifier differs from the path (the root uuid equals the path).
    const entry = randomUUID();
    const withEntry = catalogWithIds([{ scheme: CONTENT_UUID, identifier: entry }], { uuid: pathId });
    assertErrorBody(await putJson('catalogs', pathId, withEntry, alice), 409);
    for (const id of [pathId, rooted.catalog.uuid, entry]) assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);
    // On an existing document: refused, unchanged.
    assertErrorBody(await putJson('catalogs', shared.id, sampleDoc('catalog', { title: 'Mismatch' }), alice), 409);
    assert.deepEqual(await versionTitles('catalogs', shared.id, alice), [[1, 'Errors shared']]);
  });

  test('PUT: 415 for any Content-Type but application/json (XML, YAML, text/plain, none)', async () => {
    const doc = sampleDoc('catalog', { title: 'Wrong type' });
    const id = doc.catalog.uuid as string;
    const parsed = parseOscal(JSON.stringify(doc), 'json');
    const bodies: [string | undefined, string][] = [
      ['application/xml', serializeOscal(parsed, 'xml')],
      ['application/yaml', serializeOscal(parsed, 'yaml')],
      ['text/plain', JSON.stringify(doc)],
      [undefined, JSON.stringify(doc)],
    ];
    for (const [contentType, body] of bodies) {
      const r = await reg('PUT', `/catalogs/${id}`, { token: alice, body, ...(contentType ? { contentType } : {}) });
      assertErrorBody(r, 415);
    }
    assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);
    // application/json with parameters is JSON.
    const ok = await putJson('catalogs', id, doc, alice, 'application/json; charset=utf-8');
    assert.equal(ok.status, 201, ok.text);
  });

  test('PUT: 422 for invalid OSCAL and for a document of another model than the URL', async () => {
    const invalid = sampleDoc('catalog');
    delete invalid.catalog.metadata.title;
    const invalidBody = assertErrorBody(await putJson('catalogs', invalid.catalog.uuid, invalid, alice), 422);
    assert.ok(
      invalidBody.errors?.some((e) => e.path.startsWith('/catalog/metadata')),
      `the errors name the metadata: ${JSON.stringify(invalidBody.errors)}`,
    );

    const unknownRoot = { widget: sampleDoc('catalog').catalog };
    assertErrorBody(await putJson('catalogs', unknownRoot.widget.uuid, unknownRoot, alice), 422);
    assertErrorBody(await putJson('catalogs', randomUUID(), [1, 2], alice), 422);

    const catalog = sampleDoc('catalog');
    const id = catalog.catalog.uuid as string;
    assertErrorBody(await putJson('profiles', id, catalog, alice), 422);
    for (const plural of ['catalogs', 'profiles']) assertErrorBody(await reg('GET', `/${plural}/${id}`), 404);

    // On an existing document: refused, unchanged.
    const broken = sampleDoc('catalog', { uuid: shared.id });
    delete broken.catalog.metadata['last-modified'];
    assertErrorBody(await putJson('catalogs', shared.id, broken, alice), 422);
    assert.deepEqual(await versionTitles('catalogs', shared.id, alice), [[1, 'Errors shared']]);
  });

  test('every 401 (no credentials on a protected endpoint) states that authentication is required (5.5)', async () => {
    const doc = sampleDoc('catalog');
    const form = multipartBody([
      { name: 'file', filename: 'c.json', contentType: 'application/json', content: JSON.stringify(doc) },
    ]);
    const cases: [string, string, ApiRequest][] = [
      ['PUT', `/api/v1/catalogs/${doc.catalog.uuid}`, { body: JSON.stringify(doc), contentType: 'application/json' }],
      ['DELETE', `/api/v1/catalogs/${shared.id}`, {}],
      ['GET', `/api/v1/catalogs/${shared.id}/versions`, {}],
      ['DELETE', `/api/v1/catalogs/${twoVersions.id}/versions/1`, {}],
      ['POST', '/api/upload', { body: JSON.stringify(doc), contentType: 'application/json' }],
      ['POST', '/api/upload', { body: form.body, contentType: form.contentType }],
    ];
    const unclear: string[] = [];
    for (const [method, path, options] of cases) {
      const body = assertErrorBody(await call(method, path, options), 401);
      if (!/authenticat/i.test(body.message))
        unclear.push(`${method} ${path} (${options.contentType ?? 'no body'}): ${JSON.stringify(body.message)}`);
    }
    assert.deepEqual(unclear, [], 'messages that do not state that authentication is required');
  });

  test('DELETE document: 401, 403 and 404', async () => {
    assertErrorBody(await reg('DELETE', `/catalogs/${shared.id}`), 401);
    for (const token of [bob, rita]) assertErrorBody(await reg('DELETE', `/catalogs/${shared.id}`, { token }), 403);
    assertStored(await getJson(`/catalogs/${shared.id}`), shared.doc, shared.id);
    assertErrorBody(await reg('DELETE', `/catalogs/${randomUUID()}`, { token: alice }), 404);
    assertErrorBody(await reg('DELETE', `/profiles/${shared.id}`, { token: alice }), 404);
    assertStored(await getJson(`/catalogs/${shared.id}`), shared.doc, shared.id);
  });

  test('GET versions: 401, 403 for a caller who may read but is not owner or admin, 404; 200 for owner and admin', async () => {
    assertErrorBody(await reg('GET', `/catalogs/${shared.id}/versions`), 401);
    for (const token of [rita, bob]) {
      assert.equal((await reg('GET', `/catalogs/${shared.id}`, { token })).status, 200, 'may read the public document');
      assertErrorBody(await reg('GET', `/catalogs/${shared.id}/versions`, { token }), 403);
    }
    assertErrorBody(await reg('GET', `/catalogs/${randomUUID()}/versions`, { token: alice }), 404);
    assertErrorBody(await reg('GET', `/catalogs/${randomUUID()}/versions`, { token: admin }), 404);
    assert.deepEqual(await versionTitles('catalogs', shared.id, admin), [[1, 'Errors shared']]);
  });

  test('GET version: 400 for a version that is not a 1-based integer, 404 for an absent version or document', async () => {
    for (const version of ['abc', '0', '-1', '1.5', '1e3']) {
      assertErrorBody(await reg('GET', `/catalogs/${shared.id}/versions/${version}`), 400);
    }
    assertErrorBody(await reg('GET', `/catalogs/${shared.id}/versions/99`), 404);
    assertErrorBody(await reg('GET', `/catalogs/${shared.id}/versions/2`), 404);
    assertErrorBody(await reg('GET', `/catalogs/${randomUUID()}/versions/1`), 404);
    assertErrorBody(await reg('GET', `/profiles/${shared.id}/versions/1`), 404);
  });

  test('DELETE version: 400, 401, 403, 404, 409', async () => {
    const path = `/catalogs/${twoVersions.id}/versions`;
    for (const version of ['abc', '0', '-1'])
      assertErrorBody(await reg('DELETE', `${path}/${version}`, { token: alice }), 400);
    assertErrorBody(await reg('DELETE', `${path}/1`), 401);
    for (const token of [bob, rita]) assertErrorBody(await reg('DELETE', `${path}/1`, { token }), 403);
    assertErrorBody(await reg('DELETE', `${path}/99`, { token: alice }), 404);
    assertErrorBody(await reg('DELETE', `/catalogs/${randomUUID()}/versions/1`, { token: alice }), 404);
    assert.deepEqual(
      await versionTitles('catalogs', twoVersions.id, alice),
      [
        [2, 'Errors two v2'],
        [1, 'Errors two v1'],
      ],
      'unchanged',
    );
    assertErrorBody(await reg('DELETE', `/catalogs/${shared.id}/versions/1`, { token: alice }), 409);
    assert.deepEqual(await versionTitles('catalogs', shared.id, alice), [[1, 'Errors shared']], 'unchanged');
  });

  test('upload: 400 for an empty body, a body that is not JSON, a form without the field "file"', async () => {
    assertErrorBody(
      await call('POST', '/api/upload', { token: alice, body: '', contentType: 'application/json' }),
      400,
    );
    assertErrorBody(
      await call('POST', '/api/upload', { token: alice, body: '{"catalog": ', contentType: 'application/json' }),
      400,
    );
    const noFile = multipartBody([{ name: 'note', content: 'no file here' }]);
    assertErrorBody(
      await call('POST', '/api/upload', { token: alice, body: noFile.body, contentType: noFile.contentType }),
      400,
    );
    const emptyForm = multipartBody([]);
    assertErrorBody(
      await call('POST', '/api/upload', { token: alice, body: emptyForm.body, contentType: emptyForm.contentType }),
      400,
    );
  });

  test('upload: 400 for a form whose file is in a field other than "file"', async () => {
    const doc = sampleDoc('catalog');
    const elsewhere = multipartBody([
      { name: 'document', filename: 'c.json', contentType: 'application/json', content: JSON.stringify(doc) },
    ]);
    assertErrorBody(
      await call('POST', '/api/upload', { token: alice, body: elsewhere.body, contentType: elsewhere.contentType }),
      400,
    );
    assertErrorBody(await reg('GET', `/catalogs/${doc.catalog.uuid}`), 404);
  });

  test('upload: 401 without credentials', async () => {
    const doc = sampleDoc('catalog');
    assertErrorBody(await upload(doc, undefined), 401);
    assertErrorBody(await uploadMultipart(doc, undefined), 401);
    assertErrorBody(await reg('GET', `/catalogs/${doc.catalog.uuid}`), 404);
  });

  test("upload: 403 for another user's public document, and for a reader creating one", async () => {
    const doc = sampleDoc('catalog', { uuid: shared.id, title: 'Uploaded over it' });
    assertErrorBody(await upload(doc, bob), 403);
    assertErrorBody(await uploadMultipart(doc, bob), 403);
    assert.deepEqual(await versionTitles('catalogs', shared.id, alice), [[1, 'Errors shared']], 'unchanged');

    const fresh = sampleDoc('catalog');
    assertErrorBody(await upload(fresh, rita), 403);
    assertErrorBody(await reg('GET', `/catalogs/${fresh.catalog.uuid}`), 404);
  });

  test('upload: 415 for a Content-Type that is neither application/json nor multipart/form-data', async () => {
    const doc = sampleDoc('catalog');
    const parsed = parseOscal(JSON.stringify(doc), 'json');
    for (const [contentType, body] of [
      ['text/plain', JSON.stringify(doc)],
      ['application/xml', serializeOscal(parsed, 'xml')],
      ['application/yaml', serializeOscal(parsed, 'yaml')],
    ] as const) {
      assertErrorBody(await call('POST', '/api/upload', { token: alice, body, contentType }), 415);
    }
    assertErrorBody(await reg('GET', `/catalogs/${doc.catalog.uuid}`), 404);
  });

  test('upload: 422 for invalid OSCAL (body and form)', async () => {
    const doc = sampleDoc('catalog');
    delete doc.catalog.metadata.title;
    assertErrorBody(await upload(doc, alice), 422);
    assertErrorBody(await uploadMultipart(doc, alice), 422);
    assertErrorBody(await upload({ widget: sampleDoc('catalog').catalog }, alice), 422);
    assertErrorBody(await reg('GET', `/catalogs/${doc.catalog.uuid}`), 404);
  });
});

// ---------------------------------------------------------------------------------------------

describe('reads are public for public documents (registry-api 5.1, D7)', () => {
  test('anonymous GET of list, document and version of a registry-created document', async () => {
    const { id, doc } = await created('system-security-plan', alice, {
      title: 'Public SSP',
      version: '7.1',
      lastModified: '2024-03-03T03:03:03Z',
    });
    const items = await anonymousList('system-security-plans');
    const item = items.find((i) => i['content-uuid'] === id);
    assert.ok(item, 'listed for anonymous callers');
    assert.deepEqual(Object.keys(item).sort(), LIST_ITEM_KEYS);
    assert.equal(item.title, 'Public SSP');
    assert.equal(item['oscal-version'], metadataOf(doc)['oscal-version']);
    assert.equal(item['document-version'], '7.1');
    assert.match(item['last-modified'], ISO_DATE_TIME);
    assert.equal(Date.parse(item['last-modified']), Date.parse('2024-03-03T03:03:03Z'));
    assert.equal(item.self, `/api/v1/system-security-plans/${id}`);
    for (const i of items) assert.deepEqual(Object.keys(i).sort(), LIST_ITEM_KEYS);

    assertStored(await getJson(item.self.replace('/api/v1', '')), doc, id);
    assertStored(await getJson(`/system-security-plans/${id}/versions/1`), doc, id);
    // The generic interface reads the same public document (D1: one store).
    const generic = await gen('GET', `/system-security-plan/${id}`);
    assert.equal(generic.status, 200, generic.text);
  });

  test('the list pages with limit and a Link header (D4), keeping the bare array', async () => {
    for (let i = 0; i < 3; i++) await created('assessment-plan', alice, { title: `Paged AP ${i}` });
    const first = await reg('GET', '/assessment-plans?limit=2');
    assert.equal(first.status, 200, first.text);
    assert.ok(Array.isArray(first.json()));
    assert.equal(first.json().length, 2);
    const link = String(first.headers.link ?? '');
    const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
    assert.ok(next, `a next link: ${link}`);
    const second = await call('GET', new URL(next, server.url).pathname + new URL(next, server.url).search);
    assert.equal(second.status, 200, second.text);
    const seen = [...first.json(), ...second.json()].map((i: Record<string, any>) => i['content-uuid']);
    assert.equal(new Set(seen).size, seen.length, 'pages do not overlap');
    assert.ok(seen.length >= 3);
  });

  test('a document created privately through /oscal/v1 is 404 and unlisted on /api/v1 for anyone but its owner and admins', async () => {
    const doc = sampleDoc('catalog', { title: 'Private generic' });
    const posted = await gen('POST', '/catalog', {
      token: alice,
      body: JSON.stringify(doc),
      contentType: 'application/json',
    });
    assert.equal(posted.status, 201, posted.text);
    const id = posted.json()['catalog-list'][0]['content-uuid'] as string;

    for (const token of [undefined, bob, rita]) {
      const who = token ? { token } : {};
      assertErrorBody(await reg('GET', `/catalogs/${id}`, who), 404);
      assertErrorBody(await reg('GET', `/catalogs/${id}/versions/1`, who), 404);
      const list = await reg('GET', '/catalogs?limit=1000', who);
      assert.equal(list.status, 200);
      assert.equal(
        list.json().some((i: Record<string, any>) => i['content-uuid'] === id),
        false,
        'not listed',
      );
    }
    // Writes from other users reveal nothing either (D3: 404, never 403).
    assertErrorBody(await reg('GET', `/catalogs/${id}/versions`, { token: bob }), 404);
    assertErrorBody(await reg('DELETE', `/catalogs/${id}`, { token: bob }), 404);
    assertErrorBody(
      await putJson(
        'catalogs',
        id,
        sampleDoc('catalog', { documentIds: [{ scheme: CONTENT_UUID, identifier: id }] }),
        bob,
      ),
      404,
    );
    assertErrorBody(
      await upload(sampleDoc('catalog', { documentIds: [{ scheme: CONTENT_UUID, identifier: id }] }), bob),
      404,
    );

    // Its owner and admins read it through /api/v1 (one store, D1).
    for (const token of [alice, admin]) {
      assertStored(await getJson(`/catalogs/${id}`, token), doc, id);
      const list = await reg('GET', '/catalogs?limit=1000', { token });
      assert.ok(
        list.json().some((i: Record<string, any>) => i['content-uuid'] === id),
        'listed for its owner and admins',
      );
    }
    assert.deepEqual(await versionTitles('catalogs', id, alice), [[1, 'Private generic']]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('one store, one history across both interfaces (D1, D8)', () => {
  test('generic POST (XML), registry read, registry PUT, generic PUT (YAML), registry version delete and document delete', async () => {
    const original = sampleDoc('catalog', { title: 'Cross G1', version: 'g1' });
    const xml = serializeOscal(parseOscal(JSON.stringify(original), 'json'), 'xml');
    const posted = await gen('POST', '/catalog', { token: alice, body: xml, contentType: 'application/xml' });
    assert.equal(posted.status, 201, posted.text);
    const id = posted.json()['catalog-list'][0]['content-uuid'] as string;
    assert.notEqual(id, original.catalog.uuid, 'the generic POST assigns a new content identifier (D2)');

    const read = await getJson(`/catalogs/${id}`, alice);
    assertStored(read, original, id);
    assert.deepEqual(await versionTitles('catalogs', id, alice), [[1, 'Cross G1']]);

    // A version added through the registry: the body carries the content identifier it read.
    const second = structuredClone(read);
    second.catalog.metadata.title = 'Cross R2';
    second.catalog.metadata.version = 'r2';
    const put = await putJson('catalogs', id, second, alice);
    assert.equal(put.status, 204, put.text);

    const third = structuredClone(second);
    third.catalog.metadata.title = 'Cross G3';
    third.catalog.metadata.version = 'g3';
    const yaml = serializeOscal(parseOscal(JSON.stringify(third), 'json'), 'yaml');
    const genericPut = await gen('PUT', `/catalog/${id}`, {
      token: alice,
      body: yaml,
      contentType: 'application/yaml',
    });
    assert.equal(genericPut.status, 204, genericPut.text);

    const versions = await versionList('catalogs', id, alice);
    assert.deepEqual(
      versions.map((v) => [v.version, v.title, v.documentVersion]),
      [
        [3, 'Cross G3', 'g3'],
        [2, 'Cross R2', 'r2'],
        [1, 'Cross G1', 'g1'],
      ],
    );
    assertStored(await getJson(`/catalogs/${id}`, alice), third, id);
    assertStored(await getJson(`/catalogs/${id}/versions/2`, alice), second, id);
    // Still private (D7: created through the generic interface), whichever interface wrote since.
    assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);

    const dropped = await reg('DELETE', `/catalogs/${id}/versions/2`, { token: alice });
    assert.equal(dropped.status, 204, dropped.text);
    assert.deepEqual(await versionTitles('catalogs', id, alice), [
      [3, 'Cross G3'],
      [1, 'Cross G1'],
    ]);
    const genericRead = await gen('GET', `/catalog/${id}`, { token: alice, accept: 'application/json' });
    assert.equal(genericRead.status, 200, genericRead.text);
    assertStored(genericRead.json(), third, id);

    const removed = await reg('DELETE', `/catalogs/${id}`, { token: alice });
    assert.equal(removed.status, 204, removed.text);
    assertErrorBody(await gen('GET', `/catalog/${id}`, { token: alice }), 404);
    assertErrorBody(await reg('GET', `/catalogs/${id}`, { token: alice }), 404);
    const genericList = await gen('GET', '/catalog', { token: alice });
    assert.equal(
      genericList.json()['catalog-list'].some((i: Record<string, any>) => i['content-uuid'] === id),
      false,
    );
  });

  test('registry PUT, generic GET in XML and YAML, upload, generic PUT, generic DELETE', async () => {
    const { id, doc: first } = await created('catalog', alice, { title: 'Reverse R1', version: 'r1' });
    for (const [accept, format] of [
      ['application/xml', 'xml'],
      ['application/yaml', 'yaml'],
    ] as const) {
      const r = await gen('GET', `/catalog/${id}`, { token: alice, accept });
      assert.equal(r.status, 200, `${accept}: ${r.text}`);
      assert.equal(r.headers['content-type'], accept);
      assertStored(parseOscal(r.text, format).content, first, id);
    }
    // Public (D7: created through the registry) on the generic interface too.
    assert.equal((await gen('GET', `/catalog/${id}`)).status, 200);

    const second = sampleDoc('catalog', { uuid: id, title: 'Reverse U2', version: 'u2' });
    const up = await upload(second, alice);
    assert.equal(up.status, 200, up.text);
    assert.deepEqual(up.json(), {
      'content-uuid': id,
      'model-type': 'catalog',
      title: 'Reverse U2',
      action: 'updated',
    });

    const third = sampleDoc('catalog', { uuid: id, title: 'Reverse G3', version: 'g3' });
    const xml = serializeOscal(parseOscal(JSON.stringify(third), 'json'), 'xml');
    const genericPut = await gen('PUT', `/catalog/${id}`, { token: alice, body: xml, contentType: 'application/xml' });
    assert.equal(genericPut.status, 204, genericPut.text);

    const versions = await versionList('catalogs', id, alice);
    assert.deepEqual(
      versions.map((v) => [v.version, v.title, v.documentVersion]),
      [
        [3, 'Reverse G3', 'g3'],
        [2, 'Reverse U2', 'u2'],
        [1, 'Reverse R1', 'r1'],
      ],
    );
    assertStored(await getJson(`/catalogs/${id}`), third, id);
    assertStored(await getJson(`/catalogs/${id}/versions/1`), first, id);
    assertStored(await getJson(`/catalogs/${id}/versions/2`), second, id);

    const removed = await gen('DELETE', `/catalog/${id}`, { token: alice });
    assert.equal(removed.status, 204, removed.text);
    assertErrorBody(await reg('GET', `/catalogs/${id}`), 404);
    assertErrorBody(await reg('GET', `/catalogs/${id}/versions/1`), 404);
    assertErrorBody(await reg('GET', `/catalogs/${id}/versions`, { token: alice }), 404);
    assert.equal(
      (await anonymousList('catalogs')).some((i) => i['content-uuid'] === id),
      false,
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('upload (registry-api 2.5, rule 3, D3, D8)', () => {
  test('a JSON body of each model: the model and content-uuid are detected, 201 "created", readable under its plural', async () => {
    for (const [model, plural] of Object.entries(PLURAL)) {
      const doc = sampleDoc(model, { title: `Uploaded ${model}` });
      const id = doc[model].uuid as string;
      const r = await upload(doc, alice);
      assert.equal(r.status, 201, `${model}: ${r.text}`);
      assert.match(String(r.headers['content-type']), /^application\/json\b/);
      const result = r.json();
      assert.deepEqual(Object.keys(result).sort(), UPLOAD_RESULT_KEYS);
      assert.deepEqual(result, {
        'content-uuid': id,
        'model-type': model,
        title: `Uploaded ${model}`,
        action: 'created',
      });
      assertStored(await getJson(`/${plural}/${id}`), doc, id);
      assert.ok(
        (await anonymousList(plural)).some((i) => i['content-uuid'] === id && i.self === `/api/v1/${plural}/${id}`),
        `${model} listed`,
      );
    }
  });

  test('JSON body creates (201), multipart updates (200 "updated") with a new version; and the reverse', async () => {
    const first = sampleDoc('plan-of-action-and-milestones', { title: 'Upload P1' });
    const id = first['plan-of-action-and-milestones'].uuid as string;
    const a = await upload(first, alice);
    assert.equal(a.status, 201, a.text);
    assert.equal(a.json().action, 'created');
    const second = sampleDoc('plan-of-action-and-milestones', { uuid: id, title: 'Upload P2' });
    const b = await uploadMultipart(second, alice);
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(b.json(), {
      'content-uuid': id,
      'model-type': 'plan-of-action-and-milestones',
      title: 'Upload P2',
      action: 'updated',
    });
    assert.deepEqual(await versionTitles('plans-of-action-and-milestones', id, alice), [
      [2, 'Upload P2'],
      [1, 'Upload P1'],
    ]);
    assertStored(await getJson(`/plans-of-action-and-milestones/${id}`), second, id);
    assertStored(await getJson(`/plans-of-action-and-milestones/${id}/versions/1`), first, id);

    const c1 = sampleDoc('assessment-results', { title: 'Upload M1' });
    const cid = c1['assessment-results'].uuid as string;
    const c = await uploadMultipart(c1, alice);
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.json(), {
      'content-uuid': cid,
      'model-type': 'assessment-results',
      title: 'Upload M1',
      action: 'created',
    });
    // An admin's upload over alice's document is an update too (D7).
    const d = await upload(sampleDoc('assessment-results', { uuid: cid, title: 'Upload M2' }), admin);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.json().action, 'updated');
    assert.deepEqual(await versionTitles('assessment-results', cid, alice), [
      [2, 'Upload M2'],
      [1, 'Upload M1'],
    ]);
  });

  test('the content-uuid comes from the document-ids entry (either spelling, upper case lowered), else the root uuid', async () => {
    const entry = randomUUID();
    const doc = catalogWithIds([{ scheme: CONTENT_UUID_HYPHENATED, identifier: entry.toUpperCase() }], {
      title: 'Upload by entry',
    });
    const r = await upload(doc, alice);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json()['content-uuid'], entry, 'the entry, lower-cased, not the root uuid');
    assertErrorBody(await reg('GET', `/catalogs/${doc.catalog.uuid}`), 404);
    const stored = await getJson(`/catalogs/${entry}`);
    assert.deepEqual(
      idsOf(stored),
      [{ scheme: CONTENT_UUID, identifier: entry }],
      'written in the contentuuid form (D2)',
    );

    const root = randomUUID();
    const upper = sampleDoc('catalog', { uuid: root.toUpperCase(), title: 'Upload upper' });
    const u = await upload(upper, alice);
    assert.equal(u.status, 201, u.text);
    assert.equal(u.json()['content-uuid'], root);
    assert.deepEqual(
      idsOf(await getJson(`/catalogs/${root}`)),
      [{ scheme: CONTENT_UUID, identifier: root }],
      'the entry is written when missing (D2)',
    );
    const again = await upload(sampleDoc('catalog', { uuid: root.toUpperCase(), title: 'Upload upper 2' }), alice);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(await versionTitles('catalogs', root, alice), [
      [2, 'Upload upper 2'],
      [1, 'Upload upper'],
    ]);
  });
});
