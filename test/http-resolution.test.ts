/**
 * Profile resolution over real HTTP (generic-interface 4.5, D8, D10): imports from the store as
 * the caller may read them, from the import map, from allowed hosts only; warnings in headers;
 * resolved snapshots.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseOscal } from '../src/oscal/formats/index.js';
import { assertErrorBody, assertNoneOf } from './support/error-body.js';
import { api } from './support/http.js';
import { scrub } from './support/resolve.js';
import { createTokenFor, TestServer } from './support/server.js';
import { REV5_A849 } from './support/shared.js';

type Json = Record<string, any>;
const NS = 'http://oscal.io/ns/oscal/1.0.0';
const meta = (title: string) => ({
  title,
  'last-modified': '2024-01-01T00:00:00Z',
  version: '1',
  'oscal-version': '1.1.2',
});

function catalog(title: string, controlIds: string[]): Json {
  return {
    catalog: {
      uuid: randomUUID(),
      metadata: meta(title),
      controls: controlIds.map((id) => ({
        id,
        title: `Control ${id}`,
        params: [{ id: `${id}_prm_1`, label: 'a value' }],
        parts: [{ id: `${id}_smt`, name: 'statement', prose: 'Do it.' }],
      })),
    },
  };
}

function profile(title: string, imports: Json[], extra: Json = {}): Json {
  return { profile: { uuid: randomUUID(), metadata: meta(title), imports, ...extra } };
}

const controlIds = (resolved: Json): string[] => (resolved.catalog.controls ?? []).map((c: Json) => c.id);

let server: TestServer;
let fileHost: Server;
let fileHostUrl: string;
let admin: string;
let walt: string;
let olive: string;
const v1 = () => `${server.url}/oscal/v1`;

async function create(model: string, doc: Json, token = admin): Promise<string> {
  const res = await api(v1(), 'POST', `/${model}`, {
    token,
    body: JSON.stringify(doc),
    contentType: 'application/json',
  });
  assert.equal(res.status, 201, res.text);
  return res.json()[`${model}-list`][0]['content-uuid'];
}

async function setPublic(model: string, id: string, token: string) {
  const res = await api(v1(), 'PUT', `/${model}/${id}/access`, {
    token,
    body: JSON.stringify({ visibility: 'public' }),
    contentType: 'application/json',
  });
  assert.equal(res.status, 200, res.text);
}

const resolved = (id: string, token = admin, accept = 'application/json') =>
  api(v1(), 'GET', `/profile/${id}/resolved-catalog`, { token, accept });

// NIST's JSON profiles import the catalog by its XML name; the JSON catalog stands in for it, as
// NIST's own JSON results were made from it.
const HIGH_SOURCE = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');

before(async () => {
  // A host the server may fetch imports from (only because it is allowed): it serves one catalog.
  const served = JSON.stringify(catalog('Served over HTTP', ['net-1', 'net-2']));
  fileHost = createServer((req, res) => {
    if (req.url === '/catalog.json') res.writeHead(200, { 'content-type': 'application/json' }).end(served);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fileHost.listen(0, '127.0.0.1', resolve));
  fileHostUrl = `http://localhost:${(fileHost.address() as AddressInfo).port}`;
  server = await TestServer.start({
    args: [
      '--resolve-map',
      `NIST_SP-800-53_rev5_catalog.xml=${HIGH_SOURCE}`,
      '--resolve-allow-host',
      'localhost',
      '--default-visibility',
      'private',
    ],
  });
  admin = server.adminToken();
  walt = createTokenFor(server.dataDir, 'walt', 'writer');
  olive = createTokenFor(server.dataDir, 'olive', 'writer');
});
after(async () => {
  await server.stop();
  fileHost.close();
});

describe('imports from the store', () => {
  test('relative, absolute and #uuid hrefs to stored catalogs resolve; in JSON, XML and YAML', async () => {
    const a = await create('catalog', catalog('Catalog A', ['a-1', 'a-2', 'a-3']));
    const b = await create('catalog', catalog('Catalog B', ['b-1', 'b-2']));
    const resource = randomUUID();
    const id = await create(
      'profile',
      profile(
        'Two imports',
        [
          { href: `../catalog/${a}`, 'include-controls': [{ 'with-ids': ['a-1', 'a-3'] }] },
          { href: `#${resource}`, 'include-all': {} },
        ],
        {
          'back-matter': { resources: [{ uuid: resource, rlinks: [{ href: `${server.url}/oscal/v1/catalog/${b}` }] }] },
        },
      ),
    );
    const res = await resolved(id);
    assert.equal(res.status, 200, res.text);
    const json = res.json();
    assert.deepEqual(controlIds(json), ['a-1', 'a-3', 'b-1', 'b-2']);
    assert.equal(json.catalog.metadata.title, 'Two imports');
    assert.equal(res.headers['resolution-warning-count'], '0');
    const link = json.catalog.metadata.links.find((l: Json) => l.rel === 'source-profile');
    assert.equal(link.href, `${server.url}/oscal/v1/profile/${id}`);
    assert.ok(
      !JSON.stringify(json.catalog.metadata['document-ids'] ?? []).includes(id),
      "the profile's content uuid is not carried over",
    );
    for (const [accept, format] of [
      ['application/xml', 'xml'],
      ['application/yaml', 'yaml'],
    ] as const) {
      const other = await resolved(id, admin, accept);
      assert.equal(other.status, 200);
      assert.match(String(other.headers['content-type']), new RegExp(format));
      const doc = parseOscal(other.text, format);
      assert.deepEqual(controlIds(doc.content), ['a-1', 'a-3', 'b-1', 'b-2']);
    }
  });

  test('chained profiles resolve through the store; a cycle is 422 circular-import', async () => {
    const c = await create('catalog', catalog('Base', ['x-1', 'x-2', 'x-3']));
    const inner = await create(
      'profile',
      profile('Inner', [
        { href: `${server.url}/oscal/v1/catalog/${c}`, 'include-controls': [{ 'with-ids': ['x-1', 'x-2'] }] },
      ]),
    );
    const outer = await create(
      'profile',
      profile('Outer', [
        { href: `../profile/${inner}`, 'exclude-controls': [{ 'with-ids': ['x-1'] }], 'include-all': {} },
      ]),
    );
    const res = await resolved(outer);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(controlIds(res.json()), ['x-2']);

    const first = randomUUID();
    const second = randomUUID();
    const one = profile('Loop one', [{ href: `../profile/${second}`, 'include-all': {} }]);
    one.profile.metadata['document-ids'] = [
      { scheme: 'http://oscal.io/oscal/identifier/contentuuid', identifier: first },
    ];
    const two = profile('Loop two', [{ href: `../profile/${first}`, 'include-all': {} }]);
    two.profile.metadata['document-ids'] = [
      { scheme: 'http://oscal.io/oscal/identifier/contentuuid', identifier: second },
    ];
    await create('profile', one);
    await create('profile', two);
    assertErrorBody(await resolved(first), 422, /circular|itself/i);
  });

  test('an import the caller may not read is refused, naming the import and revealing nothing of it', async () => {
    const secret = await create('catalog', catalog('Secret catalog title', ['s-1']), olive);
    const id = await create(
      'profile',
      profile('Imports a private catalog', [{ href: `../catalog/${secret}`, 'include-all': {} }]),
      walt,
    );
    const refused = await resolved(id, walt);
    const body = assertErrorBody(
      refused,
      422,
      new RegExp(`catalog/${secret}.*no such document, or you may not read it`),
    );
    assert.equal(body.code, 'import-not-found');
    assertNoneOf(refused, ['Secret catalog title', 's-1']);
    // The same answer as for a catalog that does not exist at all.
    const missing = await create(
      'profile',
      profile('Imports nothing', [{ href: `../catalog/${randomUUID()}`, 'include-all': {} }]),
      walt,
    );
    assert.equal(assertErrorBody(await resolved(missing, walt), 422).code, 'import-not-found');
    // Once olive makes it public, walt's resolution goes through.
    await setPublic('catalog', secret, olive);
    const now = await resolved(id, walt);
    assert.equal(now.status, 200, now.text);
    assert.deepEqual(controlIds(now.json()), ['s-1']);
    // Someone who cannot read the profile gets 404, as for any document.
    assert.equal((await resolved(id, olive)).status, 404);
  });

  test('a catalog attached to the profile itself can be its import', async () => {
    const resource = randomUUID();
    const id = await create(
      'profile',
      profile('Imports its attachment', [{ href: `#${resource}`, 'include-all': {} }]),
    );
    const file = Buffer.from(JSON.stringify(catalog('Attached catalog', ['att-1'])));
    const posted = await api(v1(), 'POST', `/profile/${id}/attachment`, {
      token: admin,
      body: file,
      contentType: 'application/json',
      headers: { 'content-disposition': 'attachment; filename="cat.json"' },
    });
    assert.equal(posted.status, 201, posted.text);
    const attached = posted.json();
    // Point the import at the new resource: its rlink is the attachment's URL.
    const doc = parseOscal((await api(v1(), 'GET', `/profile/${id}`, { token: admin })).text, 'json').content as Json;
    doc.profile.imports[0].href = `#${attached.uuid}`;
    const put = await api(v1(), 'PUT', `/profile/${id}`, {
      token: admin,
      body: JSON.stringify(doc),
      contentType: 'application/json',
    });
    assert.equal(put.status, 204, put.text);
    const res = await resolved(id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(controlIds(res.json()), ['att-1']);
  });
});

describe('imports from elsewhere', () => {
  test("the import map serves NIST's catalog: the HIGH baseline resolves to NIST's published result", async () => {
    const high = JSON.parse(
      readFileSync(join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_HIGH-baseline_profile.json'), 'utf8'),
    );
    const id = await create('profile', high);
    const res = await resolved(id);
    assert.equal(res.status, 200, res.text);
    const published = JSON.parse(
      readFileSync(join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_HIGH-baseline-resolved-profile_catalog.json'), 'utf8'),
    );
    const ours = res.json();
    delete ours.catalog.metadata['document-ids'];
    delete published.catalog.metadata['document-ids'];
    assert.deepEqual(scrub(ours), scrub(published));
  });

  test('an allowed host is fetched from; any other address is refused without a fetch', async () => {
    const ok = await create(
      'profile',
      profile('From the network', [
        { href: `${fileHostUrl}/catalog.json`, 'include-controls': [{ 'with-ids': ['net-2'] }] },
      ]),
    );
    const res = await resolved(ok);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(controlIds(res.json()), ['net-2']);
    const port = (fileHost.address() as AddressInfo).port;
    const refused = await create(
      'profile',
      profile('Elsewhere', [{ href: `http://127.0.0.2:${port}/catalog.json`, 'include-all': {} }]),
    );
    const body = assertErrorBody(await resolved(refused), 422, /not allowed/);
    assert.equal(body.code, 'import-not-found');
    const gone = await create(
      'profile',
      profile('Missing file', [{ href: `${fileHostUrl}/nothing.json`, 'include-all': {} }]),
    );
    assertErrorBody(await resolved(gone), 422, /404/);
  });
});

describe('warnings and resolved snapshots', () => {
  test('warnings travel in the Resolution-Warnings header', async () => {
    const c = await create('catalog', catalog('Warned', ['w-1']));
    const id = await create(
      'profile',
      profile(
        'With a miss',
        [{ href: `../catalog/${c}`, 'include-controls': [{ 'with-ids': ['w-1', 'no-such-control'] }] }],
        {
          modify: { 'set-parameters': [{ 'param-id': 'nowhere', values: ['x'] }] },
        },
      ),
    );
    const res = await resolved(id);
    assert.equal(res.status, 200, res.text);
    const warnings = JSON.parse(String(res.headers['resolution-warnings']));
    assert.equal(res.headers['resolution-warning-count'], String(warnings.length));
    assert.deepEqual(warnings.map((w: Json) => w.code).sort(), ['no-match', 'unknown-param']);
  });

  test('POST, list, GET in three formats, PUT keeps resolved-profile, DELETE; the copy does not follow later changes', async () => {
    const c = await create('catalog', catalog('Snapped base', ['s-1', 's-2']));
    const id = await create('profile', profile('Snapped', [{ href: `../catalog/${c}`, 'include-all': {} }]));
    const made = await api(v1(), 'POST', `/profile/${id}/resolved-snapshot`, {
      token: admin,
      body: JSON.stringify({ snapshot: { description: 'at review', labels: ['r1'] } }),
      contentType: 'application/json',
    });
    assert.equal(made.status, 201, made.text);
    const entry = made.json();
    assert.deepEqual(entry.types, ['resolved-profile']);
    assert.equal(entry.description, 'at review');
    assert.deepEqual(entry.warnings, []);
    const list = (await api(v1(), 'GET', `/profile/${id}/resolved-snapshot`, { token: admin })).json();
    assert.deepEqual(
      list['resolved-snapshot-list'].map((s: Json) => [s['snapshot-id'], s.created]),
      [[entry['snapshot-id'], entry.created]],
    );
    // Content snapshots are kept apart.
    assert.deepEqual(
      (await api(v1(), 'GET', `/profile/${id}/snapshot`, { token: admin })).json()['profile-snapshot-list'],
      [],
    );

    // The base catalog changes; the snapshot does not.
    await api(v1(), 'PUT', `/catalog/${c}`, {
      token: admin,
      body: JSON.stringify({
        catalog: {
          ...catalog('Changed', ['s-9']).catalog,
          metadata: {
            ...meta('Changed'),
            'document-ids': [{ scheme: 'http://oscal.io/oscal/identifier/contentuuid', identifier: c }],
          },
        },
      }),
      contentType: 'application/json',
    });
    assert.deepEqual(controlIds((await resolved(id)).json()), ['s-9']);
    const path = `/profile/${id}/resolved-snapshot/${entry['snapshot-id']}`;
    const copy = (await api(v1(), 'GET', path, { token: admin })).json();
    assert.deepEqual(controlIds(copy), ['s-1', 's-2']);
    const props = copy.catalog.metadata.props.filter((p: Json) => p.ns === NS);
    assert.deepEqual(
      props.map((p: Json) => [p.name, p.name === 'snapshot-created' ? p.value === entry.created : p.value]),
      [
        ['snapshot-created', true],
        ['snapshot-type', 'resolved-profile'],
        ['snapshot-label', 'r1'],
        ['snapshot-description', 'na'],
      ],
    );
    for (const accept of ['application/xml', 'application/yaml']) {
      const other = await api(v1(), 'GET', path, { token: admin, accept });
      assert.equal(other.status, 200);
      assert.deepEqual(controlIds(parseOscal(other.text).content), ['s-1', 's-2']);
    }

    const put = await api(v1(), 'PUT', path, {
      token: admin,
      body: JSON.stringify({ snapshot: { types: ['approved'] } }),
      contentType: 'application/json',
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json().types, ['resolved-profile', 'approved']);
    assert.equal(put.json().created, entry.created);
    assertErrorBody(
      await api(v1(), 'PUT', path, {
        token: admin,
        body: JSON.stringify({ snapshot: { 'snapshot-created': '2020-01-01T00:00:00Z' } }),
        contentType: 'application/json',
      }),
      400,
      /snapshot-created/,
    );

    assert.equal((await api(v1(), 'DELETE', path, { token: admin })).status, 204);
    assert.equal((await api(v1(), 'GET', path, { token: admin })).status, 404);
  });

  test('a resolved snapshot needs write access; readers of the profile may list and read them', async () => {
    const c = await create('catalog', catalog('Shared base', ['p-1']), olive);
    await setPublic('catalog', c, olive);
    const id = await create('profile', profile("Olive's", [{ href: `../catalog/${c}`, 'include-all': {} }]), olive);
    await setPublic('profile', id, olive);
    assertErrorBody(await api(v1(), 'POST', `/profile/${id}/resolved-snapshot`, { token: walt }), 403);
    assertErrorBody(await api(v1(), 'POST', `/profile/${id}/resolved-snapshot`), 401);
    const made = await api(v1(), 'POST', `/profile/${id}/resolved-snapshot`, { token: olive });
    assert.equal(made.status, 201, made.text);
    assert.equal(
      (await api(v1(), 'GET', `/profile/${id}/resolved-snapshot/${made.json()['snapshot-id']}`, { token: walt }))
        .status,
      200,
    );
    assert.equal(
      (await api(v1(), 'DELETE', `/profile/${id}/resolved-snapshot/${made.json()['snapshot-id']}`, { token: walt }))
        .status,
      403,
    );
  });
});
