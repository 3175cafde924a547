/**
 * Every status of D3 provoked over real HTTP against real `oscal-depot serve` processes, each
 * with the one error body ({"status-code", "code", "message", "errors"?}) and a message that
 * names the problem; plus 202 → job → 303 for a large document's rendition, and the legal hold.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertErrorBody, assertNoneOf } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import {
  BASIC_CATALOG_JSON,
  CONTENT_UUID_SCHEME,
  markedCatalog,
  PRIVACY_RESOLVED_JSON,
  retitled,
  type MarkedDoc,
} from './support/marked-docs.js';
import { stopWithin } from './support/lifecycle.js';
import { TestServer } from './support/server.js';
import { CONTENT, REV5_A849 } from './support/shared.js';
import { makeToken } from './support/tokens.js';

const EXAMPLES = join(CONTENT, 'oscal-content@88bb8de', 'examples');
const BASIC_XML = join(EXAMPLES, 'catalog', 'xml', 'basic-catalog.xml');
const BASIC_YAML = join(EXAMPLES, 'catalog', 'yaml', 'basic-catalog.yaml');
const LOW_PROFILE_JSON = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_LOW-baseline_profile.json');
const FULL_CATALOG_JSON = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');

/** The default server (one rendition worker); one with no worker; one with a 64 KB body limit. */
let main: TestServer;
let noWorker: TestServer;
let small: TestServer;
/** Started in the 303 test on noWorker's data directory, with the default worker. */
let withWorker: TestServer | undefined;

let admin: string;
let writer: string;
let reader: string;

interface Doc extends MarkedDoc {
  id: string;
}

async function createAs(
  token: string,
  label: string,
  options: { contentUuid?: string; on?: TestServer } = {},
): Promise<Doc> {
  const marked = markedCatalog(label, options.contentUuid ? { contentUuid: options.contentUuid } : {});
  const res = await api((options.on ?? main).url, 'POST', '/oscal/v1/catalog', {
    token,
    body: marked.body,
    contentType: 'application/json',
  });
  assert.equal(res.status, 201, res.text);
  return { ...marked, id: res.json()['catalog-list'][0]['content-uuid'] };
}

const docPath = (id: string, model = 'catalog') => `/oscal/v1/${model}/${id}`;

async function makePublic(doc: Doc, token = writer): Promise<void> {
  const res = await api(main.url, 'PUT', `${docPath(doc.id)}/access`, {
    token,
    body: '{"visibility":"public"}',
    contentType: 'application/json',
  });
  assert.equal(res.status, 200, res.text);
}

async function titleOf(doc: Doc, server = main): Promise<string | undefined> {
  const res = await api(server.url, 'GET', docPath(doc.id), { token: admin });
  if (res.status === 404) return undefined;
  assert.equal(res.status, 200, res.text);
  return res.json().catalog.metadata.title;
}

/** The content uuids of the catalogs the admin sees: to show that a refused POST stored nothing. */
async function allIds(server = main): Promise<string[]> {
  const res = await api(server.url, 'GET', '/oscal/v1/catalog?limit=1000', { token: admin });
  assert.equal(res.status, 200, res.text);
  return res
    .json()
    ['catalog-list'].map((i: { 'content-uuid': string }) => i['content-uuid'])
    .sort();
}

const post = (
  body: string | Buffer,
  contentType: string | undefined,
  token: string | undefined = writer,
  server = main,
): Promise<ApiResponse> =>
  api(server.url, 'POST', '/oscal/v1/catalog', {
    ...(token ? { token } : {}),
    body,
    ...(contentType ? { contentType } : {}),
  });

before(async () => {
  [main, noWorker, small] = await Promise.all([
    TestServer.start(),
    TestServer.start({ args: ['--workers', '0'] }),
    TestServer.start({ args: ['--max-body', '64kb'] }),
  ]);
  admin = main.adminToken();
  const [w, r] = await Promise.all([
    makeToken(main.dataDir, 'wendy', 'writer'),
    makeToken(main.dataDir, 'ray', 'reader'),
  ]);
  writer = w.secret;
  reader = r.secret;
});

after(async () => {
  await Promise.all([main, noWorker, small, withWorker].map((s) => stopWithin(s)));
});

describe('400: the body is not parseable as the declared format', () => {
  test('XML sent as application/json', async () => {
    const stored = await allIds();
    const res = await post(readFileSync(BASIC_XML), 'application/json');
    const body = assertErrorBody(res, 400, /JSON/);
    assert.equal(body.errors?.[0]?.line, 1, 'the error points at the first line');
    assert.deepEqual(await allIds(), stored, 'nothing stored');
  });

  test('truncated XML sent as application/xml names the line', async () => {
    const xml = readFileSync(BASIC_XML, 'utf8');
    const res = await post(xml.slice(0, xml.lastIndexOf('</catalog>')), 'application/xml');
    const body = assertErrorBody(res, 400, /XML/);
    assert.equal(typeof body.errors?.[0]?.line, 'number');
    assert.match(body.message, /catalog/, 'names the unclosed element');
  });

  test('broken YAML sent as application/yaml', async () => {
    const yaml = readFileSync(BASIC_YAML, 'utf8');
    const res = await post(`${yaml.slice(0, 2000)}\n  - [unclosed`, 'application/yaml');
    assertErrorBody(res, 400, /YAML/);
  });

  test('bytes that are not UTF-8', async () => {
    const res = await post(Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]), 'application/json');
    assertErrorBody(res, 400, /UTF-8/);
  });

  test('PUT with a body cut short leaves the document as it was', async () => {
    const doc = await createAs(writer, '400 put');
    const res = await api(main.url, 'PUT', docPath(doc.id), {
      token: writer,
      body: doc.body.slice(0, 500),
      contentType: 'application/json',
    });
    assertErrorBody(res, 400, /JSON/);
    assert.equal(await titleOf(doc), doc.title);
  });

  test('access settings that are not JSON', async () => {
    const doc = await createAs(writer, '400 access');
    const res = await api(main.url, 'PUT', `${docPath(doc.id)}/access`, {
      token: writer,
      body: '{"visibility": ',
      contentType: 'application/json',
    });
    assertErrorBody(res, 400, /JSON/);
  });

  test('JSON, YAML, plain text and an unclosed fragment sent as application/xml', async () => {
    const bodies = [
      readFileSync(BASIC_CATALOG_JSON, 'utf8'),
      readFileSync(BASIC_YAML, 'utf8'),
      'hello world',
      '<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0"><metadata>',
    ];
    for (const body of bodies) {
      const res = await post(body, 'application/xml');
      const err = assertErrorBody(res, 400, /XML/);
      assert.equal(typeof err.errors?.[0]?.line, 'number');
      assert.doesNotMatch(err.message, /oscal-version/, 'a syntax problem, not a version problem');
    }
  });
});

describe('401: no credentials where they are needed, or a token the server does not accept', () => {
  test('POST, PUT, DELETE and access without credentials; the public document stays readable anonymously', async () => {
    const doc = await createAs(writer, '401');
    await makePublic(doc);
    const read = await api(main.url, 'GET', docPath(doc.id));
    assert.equal(read.status, 200, 'a public read needs no credentials');
    const stored = await allIds();
    for (const res of [
      await post(markedCatalog('anonymous').body, 'application/json', ''),
      await api(main.url, 'PUT', docPath(doc.id), {
        body: retitled(doc, 'anonymous edit'),
        contentType: 'application/json',
      }),
      await api(main.url, 'DELETE', docPath(doc.id)),
      await api(main.url, 'GET', `${docPath(doc.id)}/access`),
      await api(main.url, 'PUT', `${docPath(doc.id)}/access`, {
        body: '{"visibility":"private"}',
        contentType: 'application/json',
      }),
    ]) {
      assertErrorBody(res, 401, /credentials|Authorization|token/i);
      assert.match(res.json().message, /Bearer/, 'says how to authenticate');
    }
    assert.deepEqual(await allIds(), stored);
    assert.equal(await titleOf(doc), doc.title);
  });

  test('an unknown token, even for a public read; the message never echoes it', async () => {
    const token = `odt_${randomBytes(32).toString('base64url')}`;
    for (const res of [
      await api(main.url, 'GET', '/oscal/v1/catalog', { token }),
      await post(markedCatalog('unknown').body, 'application/json', token),
    ]) {
      assertErrorBody(res, 401, /token/i);
      assertNoneOf(res, [token]);
    }
  });
});

describe('403: the caller may read the document but not do this', () => {
  test('a reader may not create', async () => {
    const stored = await allIds();
    const res = await post(markedCatalog('reader post').body, 'application/json', reader);
    assertErrorBody(res, 403, /writer|admin|role/i);
    assert.deepEqual(await allIds(), stored);
  });

  test('a reader may read a public document but not replace or delete it', async () => {
    const doc = await createAs(writer, '403');
    await makePublic(doc);
    assert.equal((await api(main.url, 'GET', docPath(doc.id), { token: reader })).status, 200);
    assertErrorBody(
      await api(main.url, 'PUT', docPath(doc.id), {
        token: reader,
        body: retitled(doc, 'reader edit'),
        contentType: 'application/json',
      }),
      403,
      /read/,
    );
    assertErrorBody(await api(main.url, 'DELETE', docPath(doc.id), { token: reader }), 403, /delete/);
    assertErrorBody(
      await api(main.url, 'GET', `${docPath(doc.id)}/access`, { token: reader }),
      403,
      /access|owner|admin/,
    );
    assert.equal(await titleOf(doc), doc.title);
  });

  test('an owner may not set a legal hold: only an admin may', async () => {
    const doc = await createAs(writer, '403 hold');
    const res = await api(main.url, 'PUT', `${docPath(doc.id)}/access`, {
      token: writer,
      body: '{"legal-hold": true}',
      contentType: 'application/json',
    });
    assertErrorBody(res, 403, /legal hold/);
    assert.match(res.json().message, /admin/);
    const access = await api(main.url, 'GET', `${docPath(doc.id)}/access`, { token: writer });
    assert.equal(access.json()['legal-hold'], false);
  });
});

describe('404: absent, or not readable by the caller (existence never revealed)', () => {
  test('an id that exists nowhere, and a private document of someone else, look the same', async () => {
    const doc = await createAs(writer, '404');
    const absent = await api(main.url, 'GET', docPath(randomUUID()), { token: reader });
    assertErrorBody(absent, 404, /no such document/);
    const hidden = await api(main.url, 'GET', docPath(doc.id), { token: reader });
    assertErrorBody(hidden, 404);
    assert.deepEqual(hidden.json(), absent.json());
    assertNoneOf(hidden, [doc.id, doc.title, doc.marker, doc.rootUuid]);
    const hiddenDelete = await api(main.url, 'DELETE', docPath(doc.id), { token: reader });
    assertErrorBody(hiddenDelete, 404);
    assert.equal(await titleOf(doc), doc.title);
  });

  test('a document addressed under another model', async () => {
    const doc = await createAs(writer, '404 model');
    const res = await api(main.url, 'GET', docPath(doc.id, 'profile'), { token: writer });
    assertErrorBody(res, 404);
    assertNoneOf(res, [doc.title, doc.marker]);
    assert.equal(
      (await api(main.url, 'GET', docPath(doc.id), { token: writer })).status,
      200,
      'found under its own model',
    );
  });

  test('a job that does not exist', async () => {
    assertErrorBody(await api(main.url, 'GET', `/oscal/v1/jobs/${randomUUID()}`, { token: admin }), 404, /no such job/);
  });
});

describe('406: Accept names no supported format', () => {
  test('text/html, application/pdf and a q=0 JSON are refused; the document is readable otherwise', async () => {
    const doc = await createAs(writer, '406');
    for (const accept of ['text/html', 'application/pdf', 'application/json;q=0']) {
      const res = await api(main.url, 'GET', docPath(doc.id), { token: writer, accept });
      const body = assertErrorBody(res, 406, /Accept/);
      for (const type of ['application/json', 'application/xml', 'application/yaml'])
        assert.ok(body.message.includes(type), `names ${type}`);
      assertNoneOf(res, [doc.title, doc.marker]);
    }
    const negotiated = await api(main.url, 'GET', docPath(doc.id), {
      token: writer,
      accept: 'text/html, application/yaml;q=0.5',
    });
    assert.equal(negotiated.status, 200, 'a supported type anywhere in the header is served');
    assert.equal(negotiated.headers['content-type'], 'application/yaml');
  });
});

describe('409: conflicts', () => {
  test('POST with a content uuid that is already taken (in either case of hex)', async () => {
    const id = randomUUID();
    const first = await createAs(writer, '409 first', { contentUuid: id });
    assert.equal(first.id, id);
    for (const again of [id, id.toUpperCase()]) {
      const res = await post(markedCatalog('409 again', { contentUuid: again }).body, 'application/json');
      assertErrorBody(res, 409, new RegExp(`${id}.*already exists`));
    }
    assert.equal(await titleOf(first), first.title, 'the first document is untouched');
  });

  test('PUT whose body carries another content uuid than the path', async () => {
    const doc = await createAs(writer, '409 put');
    const other = randomUUID();
    const content = structuredClone(doc.content);
    content.catalog.metadata.title = 'conflicting replacement';
    content.catalog.metadata['document-ids'] = [{ scheme: CONTENT_UUID_SCHEME, identifier: other }];
    const res = await api(main.url, 'PUT', docPath(doc.id), {
      token: writer,
      body: JSON.stringify(content),
      contentType: 'application/json',
    });
    const body = assertErrorBody(res, 409);
    assert.ok(body.message.includes(other) && body.message.includes(doc.id), `names both ids: ${body.message}`);
    assert.equal(await titleOf(doc), doc.title);
  });

  test('DELETE under a legal hold: 409, still readable; lifted, DELETE 204', async () => {
    const doc = await createAs(writer, 'legal hold');
    const hold = await api(main.url, 'PUT', `${docPath(doc.id)}/access`, {
      token: admin,
      body: '{"legal-hold": true}',
      contentType: 'application/json',
    });
    assert.equal(hold.status, 200, hold.text);
    assert.equal(hold.json()['legal-hold'], true);
    const seen = await api(main.url, 'GET', `${docPath(doc.id)}/access`, { token: writer });
    assert.equal(seen.json()['legal-hold'], true, 'the owner sees the hold');

    for (const token of [writer, admin]) {
      const res = await api(main.url, 'DELETE', docPath(doc.id), { token });
      assertErrorBody(res, 409, /legal hold/);
    }
    const read = await api(main.url, 'GET', docPath(doc.id), { token: writer, accept: 'application/xml' });
    assert.equal(read.status, 200, 'still readable under the hold');
    assert.ok(read.text.includes(doc.marker));

    const lift = await api(main.url, 'PUT', `${docPath(doc.id)}/access`, {
      token: admin,
      body: '{"legal-hold": false}',
      contentType: 'application/json',
    });
    assert.equal(lift.status, 200, lift.text);
    assert.equal(lift.json()['legal-hold'], false);
    const del = await api(main.url, 'DELETE', docPath(doc.id), { token: writer });
    assert.equal(del.status, 204, del.text);
    assert.equal(await titleOf(doc), undefined);
  });
});

describe('413: body over --max-body (64kb server)', () => {
  test('a 554 KB catalog is refused on POST and PUT; a 16 KB one is accepted', async () => {
    const token = small.adminToken();
    const big = markedCatalog('too large', { path: PRIVACY_RESOLVED_JSON });
    const res = await post(big.body, 'application/json', token, small);
    assertErrorBody(res, 413, /larger|too large|size|limit/i);
    assertNoneOf(res, [big.title]);
    const fits = markedCatalog('fits');
    const created = await post(fits.body, 'application/json', token, small);
    assert.equal(created.status, 201, created.text);
    const id = created.json()['catalog-list'][0]['content-uuid'];
    const put = await api(small.url, 'PUT', docPath(id), { token, body: big.body, contentType: 'application/json' });
    assertErrorBody(put, 413, /larger|too large|size|limit/i);
    const list = await api(small.url, 'GET', '/oscal/v1/catalog', { token });
    assert.deepEqual(
      list.json()['catalog-list'].map((i: { title: string }) => i.title),
      [fits.title],
      'only the small one is stored, unchanged',
    );
  });
});

describe('415: Content-Type missing or not accepted', () => {
  test('POST without Content-Type, with text/plain and with application/pdf', async () => {
    const stored = await allIds();
    const body = markedCatalog('415').body;
    for (const type of [undefined, 'text/plain', 'application/pdf']) {
      const res = await post(body, type);
      const err = assertErrorBody(res, 415, /media type|Content-Type/i);
      assert.ok(err.message.includes('application/json'), `says what to send: ${err.message}`);
    }
    assert.deepEqual(await allIds(), stored, 'no JSON was guessed');
  });

  test('PUT with text/plain, and access settings sent as XML', async () => {
    const doc = await createAs(writer, '415 put');
    const put = await api(main.url, 'PUT', docPath(doc.id), {
      token: writer,
      body: retitled(doc, 'plain'),
      contentType: 'text/plain',
    });
    assertErrorBody(put, 415, /media type|Content-Type/i);
    assert.equal(await titleOf(doc), doc.title);
    const access = await api(main.url, 'PUT', `${docPath(doc.id)}/access`, {
      token: writer,
      body: '<visibility>public</visibility>',
      contentType: 'application/xml',
    });
    assertErrorBody(access, 415, /JSON/);
  });
});

describe('422: valid syntax, but not valid OSCAL for the path', () => {
  test('a catalog without its required title, with the path of the problem', async () => {
    const doc = markedCatalog('422');
    delete doc.content.catalog.metadata.title;
    const res = await post(JSON.stringify(doc.content), 'application/json');
    const body = assertErrorBody(res, 422, /not valid OSCAL/);
    assert.ok(
      body.errors?.some((e) => e.path.startsWith('/catalog/metadata') && /title/.test(e.message)),
      JSON.stringify(body.errors),
    );
  });

  test('an element OSCAL does not allow, in XML: line and column of it', async () => {
    const xml = readFileSync(BASIC_XML, 'utf8').replace('<title>', '<colour>red</colour>\n    <title>');
    const lineOfColour = xml.slice(0, xml.indexOf('<colour>')).split('\n').length;
    const res = await post(xml, 'application/xml');
    const body = assertErrorBody(res, 422, /colour/);
    assert.equal(body.errors?.[0]?.line, lineOfColour);
    assert.equal(typeof body.errors?.[0]?.column, 'number');
  });

  test('a profile posted to the catalog endpoint', async () => {
    const res = await post(readFileSync(LOW_PROFILE_JSON), 'application/json');
    assertErrorBody(res, 422, /catalog.*profile|profile.*catalog/);
  });

  test('an unsupported oscal-version names the supported ones', async () => {
    const doc = markedCatalog('422 version');
    doc.content.catalog.metadata['oscal-version'] = '9.9.9';
    const res = await post(JSON.stringify(doc.content), 'application/json');
    const body = assertErrorBody(res, 422, /9\.9\.9/);
    assert.match(body.message, /1\.0\.0/);
    assert.match(body.message, /1\.1\.2/);
  });

  test('a content identifier that is not a v4/v5 UUID', async () => {
    const res = await post(markedCatalog('422 id', { contentUuid: 'not-a-uuid' }).body, 'application/json');
    assertErrorBody(res, 422, /not-a-uuid.*UUID|UUID.*not-a-uuid/);
  });
});

describe('202: a large document whose rendition is not ready', () => {
  let job: { id: string; doc: Doc; token: string };

  test('with no worker: GET as XML answers 202 with the job; the job answers 200 "queued"', async () => {
    const token = noWorker.adminToken();
    const marked = markedCatalog('full 800-53', { path: FULL_CATALOG_JSON });
    const created = await api(noWorker.url, 'POST', '/oscal/v1/catalog', {
      token,
      body: marked.body,
      contentType: 'application/json',
    });
    assert.equal(created.status, 201, created.text);
    const doc: Doc = { ...marked, id: created.json()['catalog-list'][0]['content-uuid'] };

    const json = await api(noWorker.url, 'GET', docPath(doc.id), { token, accept: 'application/json' });
    assert.equal(json.status, 200, 'the JSON form is stored with the write');

    const pending = await api(noWorker.url, 'GET', docPath(doc.id), { token, accept: 'application/xml' });
    assert.equal(pending.status, 202, pending.text.slice(0, 300));
    const location = String(pending.headers.location);
    const id = /^(?:https?:\/\/[^/]+)?\/oscal\/v1\/jobs\/([^/?#]+)$/.exec(location)?.[1];
    assert.ok(id, `Location is /oscal/v1/jobs/{id}: ${location}`);
    assert.equal(pending.json().job.id, id);
    assert.ok(!pending.text.includes(marked.marker), 'no content in the 202');

    const status = await api(noWorker.url, 'GET', `/oscal/v1/jobs/${id}`, { token });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.json().job.status, 'queued');
    assert.equal(status.json().job.format, 'xml');
    await sleep(300);
    const still = await api(noWorker.url, 'GET', `/oscal/v1/jobs/${id}`, { token });
    assert.equal(still.json().job.status, 'queued', 'nothing works on it without a worker');
    job = { id, doc, token };
  });

  test('with the default worker (same data directory): the job ends in 303 to the content, which then arrives as XML', async () => {
    assert.ok(job, 'the previous test queued a job');
    await stopWithin(noWorker);
    withWorker = await TestServer.start({ dataDir: noWorker.dataDir });
    const deadline = Date.now() + 40_000;
    let res: ApiResponse;
    for (;;) {
      res = await api(withWorker.url, 'GET', `/oscal/v1/jobs/${job.id}`, { token: job.token });
      if (res.status !== 200) break;
      assert.match(res.json().job.status, /^(queued|running)$/);
      assert.ok(Date.now() < deadline, 'the worker finishes the job in time');
      await sleep(200);
    }
    assert.equal(res.status, 303, res.text);
    const location = String(res.headers.location);
    assert.match(location, new RegExp(`/oscal/v1/catalog/${job.doc.id}$`));
    const content = await api(withWorker.url, 'GET', new URL(location, withWorker.url).pathname, {
      token: job.token,
      accept: 'application/xml',
    });
    assert.equal(content.status, 200, content.text.slice(0, 300));
    assert.equal(content.headers['content-type'], 'application/xml');
    assert.match(content.text, /^<\?xml [^>]*\?>\s*<catalog xmlns="http:\/\/csrc.nist.gov\/ns\/oscal\/1.0"/);
    assert.ok(content.text.includes(`uuid="${job.doc.rootUuid}"`));
    assert.ok(content.text.includes(`<title>${job.doc.title}</title>`));
    assert.ok(content.text.includes('<control id="ac-1"'), 'the whole catalog, controls included');
  });
});
