import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { parseOscal, serializeOscal, type Format } from '../src/oscal/formats/index.js';
import { CONTENT_UUID_SCHEME, EXTERNAL_UUID_SCHEME } from '../src/oscal/identifiers.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { api } from './support/http.js';
import { createTokenFor, TestServer } from './support/server.js';
import { CONTENT } from './support/shared.js';

const EXAMPLES = join(CONTENT, 'oscal-content@88bb8de');
const SAMPLES: Record<string, string> = {
  catalog: 'examples/catalog/json/basic-catalog.json',
  profile: 'nist.gov/SP800-53/rev5/json/NIST_SP-800-53_rev5_LOW-baseline_profile.json',
  'component-definition': 'examples/component-definition/json/example-component-definition.json',
  'system-security-plan': 'examples/ssp/json/ssp-example.json',
  'assessment-plan': 'examples/ap/json/ifa_assessment-plan-example.json',
  'assessment-results': 'examples/ar/json/ifa_assessment-results-example.json',
  'plan-of-action-and-milestones': 'examples/poam/json/ifa_plan-of-action-and-milestones.json',
};
const TYPES: Record<Format, string> = { json: 'application/json', xml: 'application/xml', yaml: 'application/yaml' };
const FORMATS: Format[] = ['json', 'xml', 'yaml'];

/** A sample as text in a format, with its metadata edited first (ids, titles). */
function sample(model: string, format: Format, edit: (metadata: Record<string, any>) => void = () => {}): string {
  const doc = parseOscal(readFileSync(join(EXAMPLES, SAMPLES[model]!), 'utf8'), 'json');
  edit((doc.content[model] as { metadata: Record<string, any> }).metadata);
  return serializeOscal(doc, format);
}

function metadataOf(text: string, format: Format): Record<string, any> {
  const doc = parseOscal(text, format);
  return (doc.content[doc.model] as { metadata: Record<string, any> }).metadata;
}

let server: TestServer;
let admin: string;
let writer: string;
const url = () => `${server.url}/oscal/v1`;

before(async () => {
  server = await TestServer.start();
  admin = server.adminToken();
  writer = createTokenFor(server.dataDir, 'wanda', 'writer');
});
after(async () => {
  await server.stop();
});

describe('every model: POST in each format, GET in each format gives the same document', () => {
  for (const model of Object.keys(SAMPLES)) {
    for (const sent of FORMATS) {
      test(`${model} sent as ${sent}`, async () => {
        const body = sample(model, sent);
        const created = await api(url(), 'POST', `/${model}`, { token: writer, body, contentType: TYPES[sent] });
        assert.equal(created.status, 201, created.text);
        const [item] = created.json()[`${model}-list`];
        assert.equal(created.headers.location, `${url()}/${model}/${item['content-uuid']}`);
        // The stored document is what was sent plus the assigned content identifier (D2).
        const expected = parseOscal(body, sent).content;
        const metadata = (expected[model] as { metadata: Record<string, unknown> }).metadata;
        metadata['document-ids'] = [
          { scheme: CONTENT_UUID_SCHEME, identifier: item['content-uuid'] },
          ...((metadata['document-ids'] as unknown[]) ?? []),
        ];
        for (const wanted of FORMATS) {
          const got = await api(url(), 'GET', `/${model}/${item['content-uuid']}`, {
            token: writer,
            accept: TYPES[wanted],
          });
          assert.equal(got.status, 200, got.text);
          assert.equal(got.headers['content-type'], TYPES[wanted]);
          assert.deepEqual(parseOscal(got.text, wanted).content, expected);
        }
      });
    }
  }
});

describe('list items, replace, delete', () => {
  test('list items carry the D4 fields, and paging follows the Link header', async () => {
    const titles = ['Paging A', 'Paging B', 'Paging C'];
    for (const title of titles) {
      const body = sample('catalog', 'json', (m) => {
        m.title = title;
        m.published = '2024-02-03T04:05:06Z';
        m.remarks = 'Remark text';
        m.props = [{ name: 'marking', value: 'CUI' }];
      });
      assert.equal(
        (await api(url(), 'POST', '/catalog', { token: writer, body, contentType: TYPES.json })).status,
        201,
      );
    }
    const first = await api(url(), 'GET', '/catalog?q=paging&limit=2', { token: writer });
    assert.equal(first.status, 200);
    const page1 = first.json()['catalog-list'];
    assert.deepEqual(
      page1.map((i: { title: string }) => i.title),
      ['Paging A', 'Paging B'],
    );
    const item = page1[0];
    assert.deepEqual(
      Object.keys(item).sort(),
      [
        'content-uuid',
        'document-ids',
        'last-modified',
        'markings',
        'oscal-version',
        'published',
        'remarks',
        'title',
        'valid',
        'version',
      ].sort(),
    );
    assert.equal(item.valid, true, 'stored after passing its checks');
    assert.equal(item.published, '2024-02-03T04:05:06Z');
    assert.deepEqual(item.markings, ['CUI']);
    assert.equal(item.remarks, 'Remark text');
    assert.equal(item['oscal-version'], '1.1.2');
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.link as string)?.[1];
    assert.ok(next, 'a Link header to the next page');
    const second = await api(next.replace(url(), url()), 'GET', '', { token: writer });
    assert.deepEqual(
      second.json()['catalog-list'].map((i: { title: string }) => i.title),
      ['Paging C'],
    );
    assert.equal(second.headers.link, undefined);
    const descending = await api(url(), 'GET', '/catalog?q=paging&sort=-title', { token: writer });
    assert.deepEqual(
      descending.json()['catalog-list'].map((i: { title: string }) => i.title),
      ['Paging C', 'Paging B', 'Paging A'],
    );
  });

  test('PUT replaces the document (204) and adds a revision; DELETE (204) then GET 404', async () => {
    const created = await api(url(), 'POST', '/system-security-plan', {
      token: writer,
      body: sample('system-security-plan', 'xml'),
      contentType: TYPES.xml,
    });
    const id = created.json()['system-security-plan-list'][0]['content-uuid'];
    const replaced = await api(url(), 'PUT', `/system-security-plan/${id}`, {
      token: writer,
      body: sample('system-security-plan', 'yaml', (m) => (m.title = 'Replaced title')),
      contentType: TYPES.yaml,
    });
    assert.equal(replaced.status, 204);
    assert.equal(replaced.text, '');
    const got = await api(url(), 'GET', `/system-security-plan/${id}`, { token: writer });
    assert.equal(got.json()['system-security-plan'].metadata.title, 'Replaced title');
    assert.equal(metadataOf(got.text, 'json')['document-ids'][0].identifier, id);
    const store = new SqliteStore(join(server.dataDir, 'oscal-depot.sqlite'));
    try {
      const revisions = await store.listRevisions(id);
      assert.deepEqual(
        revisions.map((r) => [r.number, r.originalFormat, r.author]),
        [
          [2, 'yaml', 'wanda'],
          [1, 'xml', 'wanda'],
        ],
      );
    } finally {
      await store.close();
    }
    assert.equal((await api(url(), 'DELETE', `/system-security-plan/${id}`, { token: writer })).status, 204);
    assert.equal((await api(url(), 'GET', `/system-security-plan/${id}`, { token: writer })).status, 404);
    assert.equal((await api(url(), 'GET', `/system-security-plan/${id}`, { token: admin })).status, 404);
  });
});

describe('identifier rules (D2)', () => {
  const V4 = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  const V5 = '886313e1-3b8a-5372-9b90-0c9aee199e5d';
  const post = (body: string, format: Format = 'json') =>
    api(url(), 'POST', '/catalog', { token: writer, body, contentType: TYPES[format] });
  const withIds = (ids: unknown[], format: Format = 'json') =>
    sample('catalog', format, (m) => (m['document-ids'] = ids));

  test('a valid v4 or v5 content identifier is kept; upper-case hex is lower-cased', async () => {
    for (const [given, kept] of [
      [V4, V4],
      [V5.toUpperCase(), V5],
    ]) {
      const r = await post(withIds([{ scheme: CONTENT_UUID_SCHEME, identifier: given }]));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json()['catalog-list'][0]['content-uuid'], kept);
      const stored = await api(url(), 'GET', `/catalog/${kept}`, { token: writer });
      assert.deepEqual(metadataOf(stored.text, 'json')['document-ids'], [
        { scheme: CONTENT_UUID_SCHEME, identifier: kept },
      ]);
    }
  });

  test('no content identifier: one is generated (v4) and inserted; the external id stays byte for byte', async () => {
    const external = { scheme: EXTERNAL_UUID_SCHEME, identifier: 'My Ext-ID/ü 42 ¶&<x>' };
    const r = await post(withIds([external], 'xml'), 'xml');
    assert.equal(r.status, 201, r.text);
    const id = r.json()['catalog-list'][0]['content-uuid'];
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const stored = await api(url(), 'GET', `/catalog/${id}`, { token: writer, accept: TYPES.yaml });
    assert.deepEqual(metadataOf(stored.text, 'yaml')['document-ids'], [
      { scheme: CONTENT_UUID_SCHEME, identifier: id },
      external,
    ]);
  });

  test('the hyphenated scheme spelling is read, and written as contentuuid', async () => {
    const id = '6c1d2b3a-1f2e-4d5c-8b7a-0a1b2c3d4e5f';
    const r = await post(withIds([{ scheme: 'http://oscal.io/oscal/identifier/content-uuid', identifier: id }]));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json()['catalog-list'][0]['document-ids'][0].scheme, CONTENT_UUID_SCHEME);
    assert.equal(r.json()['catalog-list'][0]['content-uuid'], id);
  });

  test('an invalid content identifier is 422, an existing one 409', async () => {
    const invalid = await post(withIds([{ scheme: CONTENT_UUID_SCHEME, identifier: 'not-a-uuid' }]));
    assert.equal(invalid.status, 422);
    assert.equal(invalid.json().code, 'invalid-identifier');
    const v1 = await post(
      withIds([{ scheme: CONTENT_UUID_SCHEME, identifier: '2c1d2b3a-1f2e-1d5c-8b7a-0a1b2c3d4e5f' }]),
    );
    assert.equal(v1.status, 422, 'a version 1 UUID is not accepted');
    const again = await post(withIds([{ scheme: CONTENT_UUID_SCHEME, identifier: V4 }]));
    assert.equal(again.status, 409);
    assert.equal(again.json()['status-code'], 409);
  });

  test("PUT with a different content identifier is 409; without one, the path's id is inserted", async () => {
    const id = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
    assert.equal((await post(withIds([{ scheme: CONTENT_UUID_SCHEME, identifier: id }]))).status, 201);
    const other = await api(url(), 'PUT', `/catalog/${id}`, {
      token: writer,
      body: withIds([{ scheme: CONTENT_UUID_SCHEME, identifier: V5 }]),
      contentType: TYPES.json,
    });
    assert.equal(other.status, 409);
    const none = await api(url(), 'PUT', `/catalog/${id}`, {
      token: writer,
      body: sample('catalog', 'json', (m) => delete m['document-ids']),
      contentType: TYPES.json,
    });
    assert.equal(none.status, 204, none.text);
    const stored = await api(url(), 'GET', `/catalog/${id}`, { token: writer });
    assert.deepEqual(metadataOf(stored.text, 'json')['document-ids'], [
      { scheme: CONTENT_UUID_SCHEME, identifier: id },
    ]);
  });
});

describe('serving stored renditions', () => {
  test('compressed from stored bytes, with an ETag honoured by If-None-Match', async () => {
    const r = await api(url(), 'POST', '/catalog', {
      token: writer,
      body: sample('catalog', 'json'),
      contentType: TYPES.json,
    });
    const id = r.json()['catalog-list'][0]['content-uuid'];
    const plain = await api(url(), 'GET', `/catalog/${id}`, { token: writer, accept: TYPES.xml });
    assert.equal(plain.headers['content-encoding'], undefined);
    const gz = await api(url(), 'GET', `/catalog/${id}`, {
      token: writer,
      accept: TYPES.xml,
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    const etag = plain.headers.etag as string;
    assert.match(etag, /^W\/"[0-9a-f]{64}"$/);
    const cached = await api(url(), 'GET', `/catalog/${id}`, {
      token: writer,
      accept: TYPES.xml,
      headers: { 'if-none-match': etag },
    });
    assert.equal(cached.status, 304);
    assert.equal(cached.body.length, 0);
    const json = await api(url(), 'GET', `/catalog/${id}`, { token: writer, headers: { 'if-none-match': etag } });
    assert.equal(json.status, 200, 'another format has another ETag');
  });
});

describe('persistence and operations', () => {
  test('renditions read back byte-identical from a new process on the same data directory', async () => {
    const r = await api(url(), 'POST', '/profile', {
      token: writer,
      body: sample('profile', 'xml'),
      contentType: TYPES.xml,
    });
    const id = r.json()['profile-list'][0]['content-uuid'];
    const before = await Promise.all(
      FORMATS.map((f) => api(url(), 'GET', `/profile/${id}`, { token: writer, accept: TYPES[f] })),
    );
    assert.equal(await server.stop(), 0, 'a clean exit on SIGTERM');
    server = await TestServer.start({ dataDir: server.dataDir });
    const afterRestart = await Promise.all(
      FORMATS.map((f) => api(url(), 'GET', `/profile/${id}`, { token: writer, accept: TYPES[f] })),
    );
    for (let i = 0; i < FORMATS.length; i++) {
      assert.equal(afterRestart[i]!.status, 200);
      assert.ok(afterRestart[i]!.body.equals(before[i]!.body), `${FORMATS[i]} differs after restart`);
    }
    assert.equal(server.adminToken(), admin, 'the admin token is created once');
  });

  test('the admin token file is private to its user and its secret is never logged', () => {
    assert.equal(statSync(join(server.dataDir, 'admin-token')).mode & 0o777, 0o600);
    assert.ok(!server.output.includes(admin));
  });

  test('healthz, readyz, metrics, openapi.json and docs', async () => {
    assert.deepEqual((await api(server.url, 'GET', '/healthz')).json(), { status: 'ok' });
    assert.equal((await api(server.url, 'GET', '/readyz')).status, 200);
    await api(url(), 'GET', '/catalog', { token: writer });
    const metrics = await api(server.url, 'GET', '/metrics');
    assert.match(metrics.headers['content-type'] as string, /^text\/plain/);
    assert.match(
      metrics.text,
      /oscal_depot_http_requests_total\{method="GET",route="\/oscal\/v1\/:model",status="200"\} \d+/,
    );
    assert.match(metrics.text, /oscal_depot_documents \d+/);
    const openapi = (await api(server.url, 'GET', '/openapi.json')).json();
    assert.equal(openapi.openapi.startsWith('3.'), true);
    assert.ok(openapi.paths['/oscal/v1/{model}/{id}']?.get, 'the content route is described');
    const docs = await api(server.url, 'GET', '/docs/');
    assert.equal(docs.status, 200);
    assert.match(docs.text, /swagger/i);
  });
});
