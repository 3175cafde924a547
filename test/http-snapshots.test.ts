/**
 * Snapshots of the generic interface (generic-interface 2.5 and 4.4, D8) over real HTTP against a
 * real `oscal-depot serve` process: making, listing, reading in each format, annotating and
 * deleting them; that they never change when the document does; that `snapshot-created` cannot be
 * set; and the legal hold. Expected props are written out from D8, not read back from the server.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseOscal } from '../src/oscal/formats/index.js';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiRequest, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog } from './support/marked-docs.js';
import { TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';

const NS = 'http://oscal.io/ns/oscal/1.0.0';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

type Prop = { name: string; value: string; ns?: string; remarks?: string };
interface Entry {
  'snapshot-id': string;
  created: string;
  description: string | null;
  labels: string[];
  types: string[];
}

let server: TestServer;
let owner: string;
let admin: string;

const call = (method: string, path: string, options: ApiRequest = {}) =>
  api(server.url, method, `/oscal/v1/catalog${path}`, { token: owner, ...options });
const json = (value: unknown): ApiRequest => ({ body: JSON.stringify(value), contentType: 'application/json' });

async function newCatalog(label: string): Promise<string> {
  const res = await call('POST', '', { body: markedCatalog(label).body, contentType: 'application/json' });
  assert.equal(res.status, 201, res.text);
  return res.json()['catalog-list'][0]['content-uuid'];
}

async function snapshot(id: string, body?: unknown): Promise<Entry> {
  const res = await call('POST', `/${id}/snapshot`, body === undefined ? {} : json(body));
  assert.equal(res.status, 201, res.text);
  return res.json();
}

async function list(id: string): Promise<Entry[]> {
  const res = await call('GET', `/${id}/snapshot`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.json()), ['catalog-snapshot-list']);
  return res.json()['catalog-snapshot-list'];
}

async function read(id: string, snapshotId: string, accept = 'application/json'): Promise<ApiResponse> {
  const res = await call('GET', `/${id}/snapshot/${snapshotId}`, { accept });
  assert.equal(res.status, 200, res.text);
  return res;
}

async function document(id: string): Promise<Record<string, any>> {
  const res = await call('GET', `/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.json();
}

const propsOf = (content: Record<string, any>): Prop[] => content.catalog.metadata.props ?? [];

/** The content without its metadata props: what a snapshot copies unchanged. */
function withoutProps(content: Record<string, any>): Record<string, any> {
  const copy = structuredClone(content);
  delete copy.catalog.metadata.props;
  return copy;
}

/** D8's props for a snapshot, in the order created, types, labels, description. */
function snapshotProps(entry: {
  created: string;
  types?: string[];
  labels?: string[];
  description?: string | null;
}): Prop[] {
  return [
    { name: 'snapshot-created', ns: NS, value: entry.created },
    ...(entry.types ?? []).map((value) => ({ name: 'snapshot-type', ns: NS, value })),
    ...(entry.labels ?? []).map((value) => ({ name: 'snapshot-label', ns: NS, value })),
    ...(entry.description == null
      ? []
      : [{ name: 'snapshot-description', ns: NS, value: 'na', remarks: entry.description }]),
  ];
}

before(async () => {
  server = await TestServer.start();
  admin = server.adminToken();
  owner = (await makeToken(server.dataDir, 'sam', 'writer')).secret;
});
after(async () => {
  await stopWithin(server);
});

describe('POST /{model}/{id}/snapshot', () => {
  test('without a body: 201 with the list entry; the copy is the content plus snapshot-created in the namespace', async () => {
    const id = await newCatalog('plain snapshot');
    const startedAt = Date.now();
    const res = await call('POST', `/${id}/snapshot`);
    const endedAt = Date.now();
    assert.equal(res.status, 201, res.text);
    const entry: Entry = res.json();
    assert.match(entry['snapshot-id'], UUID_V4);
    assert.match(entry.created, ISO_DATE_TIME);
    const created = Date.parse(entry.created);
    assert.ok(
      created >= startedAt - 1000 && created <= endedAt + 1000,
      `created ${entry.created} is the time of the POST`,
    );
    assert.equal(entry.description, null);
    assert.deepEqual([entry.labels, entry.types], [[], []]);
    assert.equal(res.headers.location, `${server.url}/oscal/v1/catalog/${id}/snapshot/${entry['snapshot-id']}`);

    const copy = (await read(id, entry['snapshot-id'])).json();
    assert.deepEqual(propsOf(copy), snapshotProps(entry));
    assert.deepEqual(withoutProps(copy), await document(id), 'otherwise the content as it is');
  });

  test('with a body: description, labels and types become props of the namespace (description in remarks, value "na")', async () => {
    const id = await newCatalog('annotated snapshot');
    const notes = { description: 'Before the 2025 review', labels: ['approved', 'q3'], types: ['baseline'] };
    const entry = await snapshot(id, { snapshot: notes });
    assert.deepEqual({ description: entry.description, labels: entry.labels, types: entry.types }, notes);
    assert.deepEqual(
      propsOf((await read(id, entry['snapshot-id'])).json()),
      snapshotProps({ created: entry.created, ...notes }),
    );
  });

  test('a body that is not {"snapshot": {description, labels, types}} is refused and makes no snapshot', async () => {
    const id = await newCatalog('refused snapshot');
    const cases: [ApiRequest, number, string][] = [
      [{ body: '{"snapshot": {}}', contentType: 'text/plain' }, 415, 'unsupported-media-type'],
      [{ body: '{"snapshot": ', contentType: 'application/json' }, 400, 'malformed'],
      [json({ description: 'not wrapped' }), 400, 'bad-request'],
      [json({ snapshot: { description: 'x', colour: 'red' } }), 400, 'bad-request'],
      [json({ snapshot: { labels: 'one' } }), 400, 'bad-request'],
      [json({ snapshot: { types: [7] } }), 400, 'bad-request'],
      [json({ snapshot: { description: ' padded' } }), 400, 'bad-request'],
      [json({ snapshot: { created: '2000-01-01T00:00:00Z' } }), 400, 'immutable-field'],
      [json({ snapshot: { 'snapshot-created': '2000-01-01T00:00:00Z' } }), 400, 'immutable-field'],
    ];
    for (const [request, status, code] of cases) {
      const body = assertErrorBody(await call('POST', `/${id}/snapshot`, request), status);
      assert.equal(body.code, code, `${request.body}: ${body.message}`);
    }
    assert.deepEqual(await list(id), []);
  });
});

describe('list and read', () => {
  test('GET .../snapshot is {"<model>-snapshot-list": [...]} in the order made; another model segment is 404', async () => {
    const id = await newCatalog('list');
    assert.deepEqual(await list(id), []);
    const first = await snapshot(id);
    const second = await snapshot(id, { snapshot: { labels: ['second'] } });
    const listed = await list(id);
    assert.deepEqual(
      listed.map((e) => e['snapshot-id']),
      [first['snapshot-id'], second['snapshot-id']],
    );
    assert.deepEqual(listed, [first, second], 'the entries POST answered');
    assertErrorBody(await api(server.url, 'GET', `/oscal/v1/profile/${id}/snapshot`, { token: owner }), 404);
    assertErrorBody(
      await api(server.url, 'GET', `/oscal/v1/profile/${id}/snapshot/${first['snapshot-id']}`, { token: owner }),
      404,
    );
  });

  test('GET one snapshot in JSON, XML and YAML: the same document, its props with their namespace in each', async () => {
    const id = await newCatalog('formats');
    const entry = await snapshot(id, { snapshot: { description: 'Three formats', labels: ['fmt'] } });
    const forms = {
      json: await read(id, entry['snapshot-id'], 'application/json'),
      xml: await read(id, entry['snapshot-id'], 'application/xml'),
      yaml: await read(id, entry['snapshot-id'], 'application/yaml'),
    };
    for (const [format, res] of Object.entries(forms))
      assert.equal(res.headers['content-type'], `application/${format}`);
    assert.ok(
      forms.xml.text.includes(`<prop name="snapshot-created" ns="${NS}" value="${entry.created}"/>`),
      'XML props name the namespace',
    );
    assert.ok(forms.xml.text.includes(`<prop name="snapshot-label" ns="${NS}" value="fmt"/>`));
    assert.match(
      forms.yaml.text,
      new RegExp(
        `- name: snapshot-created\\n\\s+ns: ${NS.replace(/[./]/g, '\\$&')}\\n\\s+value: '?${entry.created}'?\\n`,
      ),
    );
    const fromJson = parseOscal(forms.json.text, 'json').content;
    assert.deepEqual(parseOscal(forms.xml.text, 'xml').content, fromJson);
    assert.deepEqual(parseOscal(forms.yaml.text, 'yaml').content, fromJson);
    assert.deepEqual(
      propsOf(fromJson),
      snapshotProps({ created: entry.created, labels: ['fmt'], description: 'Three formats' }),
    );
    assertErrorBody(await call('GET', `/${id}/snapshot/${entry['snapshot-id']}`, { accept: 'text/html' }), 406);
  });

  test('the description is text: its Markdown characters are not taken as markup in any format', async () => {
    const id = await newCatalog('description text');
    const description = 'Release "1.0" *final* & <b>bold</b> [x](y) \\ {{ insert: param, p1 }}';
    const entry = await snapshot(id, { snapshot: { description } });
    assert.equal(entry.description, description);
    const xml = (await read(id, entry['snapshot-id'], 'application/xml')).text;
    const escaped = description.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    assert.ok(
      xml.includes(`<remarks><p>${escaped}</p></remarks>`),
      xml.slice(xml.indexOf('snapshot-description'), xml.indexOf('snapshot-description') + 300),
    );
    const fromYaml = parseOscal((await read(id, entry['snapshot-id'], 'application/yaml')).text, 'yaml').content;
    assert.deepEqual(fromYaml, parseOscal((await read(id, entry['snapshot-id'])).text, 'json').content);
  });

  test('ETag and 304 on the JSON form', async () => {
    const id = await newCatalog('etag');
    const entry = await snapshot(id);
    const etag = String((await read(id, entry['snapshot-id'])).headers.etag);
    assert.match(etag, /^W\/"[0-9a-f]{64}"$/);
    const cached = await call('GET', `/${id}/snapshot/${entry['snapshot-id']}`, { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    assert.equal(cached.body.length, 0);
  });

  test('an unknown or junk snapshot id is 404 (a NUL in the URL 400), never another document', async () => {
    const id = await newCatalog('unknown');
    const other = await newCatalog('other document');
    const elsewhere = await snapshot(other);
    for (const snapshotId of [
      randomUUID(),
      elsewhere['snapshot-id'],
      '..%2F..%2Fetc%2Fpasswd',
      '..',
      'x'.repeat(65),
      '%00',
    ]) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await call(
          method,
          `/${id}/snapshot/${snapshotId}`,
          method === 'PUT' ? json({ snapshot: { labels: ['x'] } }) : {},
        );
        assertErrorBody(res, snapshotId === '%00' ? 400 : 404);
      }
    }
    assert.deepEqual(await list(other), [elsewhere], "the other document's snapshot is untouched");
  });
});

describe('a snapshot never changes with its document', () => {
  test('later PUTs of the content and attachment changes leave it byte for byte as it was', async () => {
    const id = await newCatalog('survives');
    const entry = await snapshot(id, { snapshot: { labels: ['before'] } });
    const before = await read(id, entry['snapshot-id']);
    const title = before.json().catalog.metadata.title;

    const changed = await document(id);
    changed.catalog.metadata.title = `${title} (revised)`;
    assert.equal((await call('PUT', `/${id}`, json(changed))).status, 204);
    const attached = await call('POST', `/${id}/attachment`, {
      body: randomBytes(100),
      contentType: 'application/octet-stream',
    });
    assert.equal(attached.status, 201, attached.text);
    assert.equal((await document(id)).catalog.metadata.title, `${title} (revised)`);

    const after = await read(id, entry['snapshot-id']);
    assert.ok(after.body.equals(before.body), 'the same bytes');
    assert.equal(after.headers.etag, before.headers.etag);
    assert.deepEqual(await list(id), [entry]);
  });

  test('a PUT of content that carries snapshot props stores them as sent and touches no snapshot; a new snapshot has its own', async () => {
    const id = await newCatalog('forged props');
    const entry = await snapshot(id);
    const before = await read(id, entry['snapshot-id']);
    const forged: Prop[] = [
      { name: 'snapshot-created', ns: NS, value: '1999-01-01T00:00:00Z' },
      { name: 'snapshot-label', ns: NS, value: 'forged' },
    ];
    const content = await document(id);
    content.catalog.metadata.props = forged;
    assert.equal((await call('PUT', `/${id}`, json(content))).status, 204);
    assert.deepEqual(propsOf(await document(id)), forged, 'the document holds what was sent');
    assert.ok((await read(id, entry['snapshot-id'])).body.equals(before.body), 'the earlier snapshot is untouched');
    assert.deepEqual(await list(id), [entry]);

    const next = await snapshot(id);
    assert.notEqual(next.created, '1999-01-01T00:00:00Z');
    assert.deepEqual(
      propsOf((await read(id, next['snapshot-id'])).json()),
      snapshotProps(next),
      "the document's snapshot props give way to the snapshot's own",
    );
  });
});

describe('PUT /{model}/{id}/snapshot/{snapshot}', () => {
  test('changes description, labels and types; what is left out stays; snapshot-created and the content do not change', async () => {
    const id = await newCatalog('annotate');
    const entry = await snapshot(id, { snapshot: { description: 'First', labels: ['a'], types: ['t1'] } });
    const path = `/${id}/snapshot/${entry['snapshot-id']}`;
    const content = withoutProps((await read(id, entry['snapshot-id'])).json());

    const put = await call(
      'PUT',
      path,
      json({ snapshot: { description: 'Second', labels: ['b', 'c'], types: ['t2'] } }),
    );
    assert.equal(put.status, 200, put.text);
    const changed = { ...entry, description: 'Second', labels: ['b', 'c'], types: ['t2'] };
    assert.deepEqual(put.json(), changed);
    let copy = (await read(id, entry['snapshot-id'])).json();
    assert.deepEqual(
      propsOf(copy),
      snapshotProps({ created: entry.created, description: 'Second', labels: ['b', 'c'], types: ['t2'] }),
    );
    assert.deepEqual(withoutProps(copy), content);

    assert.deepEqual(
      (await call('PUT', path, json({ snapshot: { labels: [] } }))).json(),
      { ...changed, labels: [] },
      'only labels change',
    );
    const cleared = await call('PUT', path, json({ snapshot: { description: null } }));
    assert.deepEqual(cleared.json(), { ...changed, labels: [], description: null }, 'null removes the description');
    copy = (await read(id, entry['snapshot-id'])).json();
    assert.deepEqual(propsOf(copy), snapshotProps({ created: entry.created, types: ['t2'] }));
    assert.deepEqual(await list(id), [{ ...changed, labels: [], description: null }]);
  });

  test('naming created or snapshot-created is 400 immutable-field and changes nothing', async () => {
    const id = await newCatalog('immutable');
    const entry = await snapshot(id, { snapshot: { description: 'Keep' } });
    const path = `/${id}/snapshot/${entry['snapshot-id']}`;
    const before = await read(id, entry['snapshot-id']);
    for (const field of ['created', 'snapshot-created']) {
      for (const value of ['2000-01-01T00:00:00Z', entry.created]) {
        const body = assertErrorBody(
          await call('PUT', path, json({ snapshot: { description: 'Changed', [field]: value } })),
          400,
          /snapshot-created/,
        );
        assert.equal(body.code, 'immutable-field');
      }
    }
    assert.ok((await read(id, entry['snapshot-id'])).body.equals(before.body));
    assert.deepEqual(await list(id), [entry]);
  });
});

describe('DELETE /{model}/{id}/snapshot/{snapshot}', () => {
  test('204; then 404 for it; the document and the other snapshots stay', async () => {
    const id = await newCatalog('delete');
    const [first, second] = [await snapshot(id), await snapshot(id)];
    const del = await call('DELETE', `/${id}/snapshot/${first['snapshot-id']}`);
    assert.equal(del.status, 204, del.text);
    assert.equal(del.text, '');
    for (const method of ['GET', 'DELETE'])
      assertErrorBody(await call(method, `/${id}/snapshot/${first['snapshot-id']}`), 404);
    assertErrorBody(
      await call('PUT', `/${id}/snapshot/${first['snapshot-id']}`, json({ snapshot: { labels: ['x'] } })),
      404,
    );
    assert.deepEqual(await list(id), [second]);
    await read(id, second['snapshot-id']);
    await document(id);
  });

  test('under a legal hold a snapshot delete and an attachment delete are 409 and change nothing; lifted, both work', async () => {
    const id = await newCatalog('legal hold');
    const entry = await snapshot(id);
    const attached = await call('POST', `/${id}/attachment`, {
      body: randomBytes(100),
      contentType: 'application/octet-stream',
    });
    assert.equal(attached.status, 201, attached.text);
    const resource = attached.json().uuid;
    const hold = (on: boolean) =>
      api(server.url, 'PUT', `/oscal/v1/catalog/${id}/access`, { token: admin, ...json({ 'legal-hold': on }) });
    assert.equal((await hold(true)).status, 200);
    for (const token of [owner, admin]) {
      assertErrorBody(await call('DELETE', `/${id}/snapshot/${entry['snapshot-id']}`, { token }), 409, /legal hold/);
      assertErrorBody(await call('DELETE', `/${id}/attachment/${resource}`, { token }), 409, /legal hold/);
    }
    assert.deepEqual(await list(id), [entry]);
    assert.equal((await call('GET', `/${id}/attachment/${resource}`)).status, 200);
    assert.equal((await hold(false)).status, 200);
    assert.equal((await call('DELETE', `/${id}/snapshot/${entry['snapshot-id']}`)).status, 204);
    assert.equal((await call('DELETE', `/${id}/attachment/${resource}`)).status, 204);
    assert.deepEqual(await list(id), []);
  });
});
