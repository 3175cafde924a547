/**
 * The audit log over real HTTP: every write path and every access change leaves one entry (who,
 * what, when), refusals leave none, and GET /oscal/v1/audit is for admins, paged and filtered.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { markedCatalog, type MarkedDoc } from './support/marked-docs.js';
import { createTokenFor, TestServer } from './support/server.js';
import { cliAsync, makeToken } from './support/tokens.js';

interface Entry {
  id: number;
  at: string;
  actor: string;
  action: string;
  'content-uuid'?: string;
  detail?: Record<string, unknown>;
}

let server: TestServer;
let admin: string;
let writer: string;
let reader: string;

before(async () => {
  server = await TestServer.start({ args: ['--workers', '0'] });
  admin = server.adminToken();
  writer = createTokenFor(server.dataDir, 'wanda', 'writer');
  reader = createTokenFor(server.dataDir, 'rita', 'reader');
});

after(async () => {
  await server.stop();
});

async function audit(query = '', token = admin): Promise<{ entries: Entry[]; res: ApiResponse }> {
  const res = await api(server.url, 'GET', `/oscal/v1/audit${query}`, { token });
  assert.equal(res.status, 200, res.text);
  return { entries: res.json()['audit-list'], res };
}

async function newest(): Promise<Entry> {
  return (await audit('?limit=1')).entries[0]!;
}

/** Runs a write and returns the entries it added, oldest first. */
async function entriesOf(write: () => Promise<ApiResponse>, status: number): Promise<Entry[]> {
  const before = (await newest()).id;
  const started = new Date().toISOString();
  const res = await write();
  assert.equal(res.status, status, res.text);
  const added = (await audit('?limit=100')).entries.filter((e) => e.id > before).reverse();
  for (const e of added) assert.ok(e.at >= started && e.at <= new Date().toISOString(), `when: ${e.at}`);
  return added;
}

const json = (token: string, body: string) => ({ token, body, contentType: 'application/json' });

/** A NIST catalog copy with a content uuid of its own. */
function document(label: string): MarkedDoc & { id: string } {
  const id = randomUUID();
  return { ...markedCatalog(label, { contentUuid: id }), id };
}

describe('GET /oscal/v1/audit', () => {
  test('anonymous: 401; reader and writer: 403; admin: 200', async () => {
    assertErrorBody(await api(server.url, 'GET', '/oscal/v1/audit'), 401);
    assertErrorBody(await api(server.url, 'GET', '/oscal/v1/audit', { token: reader }), 403, /admins/);
    assertErrorBody(await api(server.url, 'GET', '/oscal/v1/audit', { token: writer }), 403, /admins/);
    assert.equal((await api(server.url, 'GET', '/oscal/v1/audit', { token: admin })).status, 200);
  });

  test('tokens made by the CLI and at first start are in it, never their secrets', async () => {
    const { entries, res } = await audit('?action=token.create');
    assert.deepEqual(
      entries.map((e) => [e.actor, e.detail?.user, e.detail?.role]),
      [
        [`cli:${userInfo().username}`, 'rita', 'reader'],
        [`cli:${userInfo().username}`, 'wanda', 'writer'],
        ['server', 'admin', 'admin'],
      ],
    );
    for (const secret of [admin, writer, reader]) assert.ok(!res.text.includes(secret));
  });
});

describe('every write and access change is audited', () => {
  test('generic create, replace, access change (with what changed) and delete', async () => {
    const doc = document('audited generic');
    const [created] = await entriesOf(() => api(server.url, 'POST', '/oscal/v1/catalog', json(writer, doc.body)), 201);
    assert.deepEqual(
      { ...created, id: 0, at: '' },
      {
        id: 0,
        at: '',
        actor: 'wanda',
        action: 'document.create',
        'content-uuid': doc.id,
        detail: { model: 'catalog', format: 'json' },
      },
    );
    const path = `/oscal/v1/catalog/${doc.id}`;
    const [replaced] = await entriesOf(
      () => api(server.url, 'PUT', path, json(writer, doc.body.replace(doc.title, `${doc.title} v2`))),
      204,
    );
    assert.deepEqual(
      [replaced!.actor, replaced!.action, replaced!['content-uuid']],
      ['wanda', 'document.replace', doc.id],
    );
    const change = { visibility: 'public', grants: [{ principal: 'user:rita', permission: 'write' }] };
    const [access] = await entriesOf(
      () => api(server.url, 'PUT', `${path}/access`, json(writer, JSON.stringify(change))),
      200,
    );
    assert.deepEqual(
      [access!.actor, access!.action, access!['content-uuid'], access!.detail],
      ['wanda', 'access.change', doc.id, change],
    );
    const [hold] = await entriesOf(
      () => api(server.url, 'PUT', `${path}/access`, json(admin, '{"legal-hold":true}')),
      200,
    );
    assert.deepEqual([hold!.actor, hold!.detail], ['admin', { legalHold: true }]);
    await entriesOf(() => api(server.url, 'PUT', `${path}/access`, json(admin, '{"legal-hold":false}')), 200);
    const [deleted] = await entriesOf(() => api(server.url, 'DELETE', path, { token: writer }), 204);
    assert.deepEqual([deleted!.actor, deleted!.action, deleted!['content-uuid']], ['wanda', 'document.delete', doc.id]);
  });

  test('attachments, resources, snapshots and resolved snapshots: each change one entry', async () => {
    const doc = document('audited files');
    await entriesOf(() => api(server.url, 'POST', '/oscal/v1/catalog', json(writer, doc.body)), 201);
    const path = `/oscal/v1/catalog/${doc.id}`;
    const actions = async (write: () => Promise<ApiResponse>, status: number) =>
      (await entriesOf(write, status)).map((e) => [e.actor, e.action, e['content-uuid']]);
    let resource = '';
    const posted = await actions(async () => {
      const res = await api(server.url, 'POST', `${path}/attachment`, {
        token: writer,
        body: 'evidence',
        contentType: 'text/plain',
      });
      resource = res.json().uuid;
      return res;
    }, 201);
    assert.deepEqual(posted, [['wanda', 'attachment.create', doc.id]]);
    assert.deepEqual(
      await actions(
        () =>
          api(server.url, 'PUT', `${path}/attachment/${resource}`, {
            token: writer,
            body: 'evidence v2',
            contentType: 'text/plain',
          }),
        204,
      ),
      [['wanda', 'attachment.replace', doc.id]],
    );
    const entry = (await api(server.url, 'GET', `${path}/attachment/${resource}/resource`, { token: writer })).json();
    assert.deepEqual(
      await actions(
        () =>
          api(
            server.url,
            'PUT',
            `${path}/attachment/${resource}/resource`,
            json(writer, JSON.stringify({ ...entry, title: 'Renamed' })),
          ),
        204,
      ),
      [['wanda', 'resource.replace', doc.id]],
    );
    assert.deepEqual(
      await actions(() => api(server.url, 'DELETE', `${path}/attachment/${resource}`, { token: writer }), 204),
      [['wanda', 'attachment.delete', doc.id]],
    );
    let snapshot = '';
    assert.deepEqual(
      await actions(async () => {
        const res = await api(server.url, 'POST', `${path}/snapshot`, { token: writer });
        snapshot = res.json()['snapshot-id'];
        return res;
      }, 201),
      [['wanda', 'snapshot.create', doc.id]],
    );
    assert.deepEqual(
      await actions(
        () => api(server.url, 'PUT', `${path}/snapshot/${snapshot}`, json(writer, '{"snapshot":{"labels":["x"]}}')),
        200,
      ),
      [['wanda', 'snapshot.update', doc.id]],
    );
    assert.deepEqual(
      await actions(() => api(server.url, 'DELETE', `${path}/snapshot/${snapshot}`, { token: writer }), 204),
      [['wanda', 'snapshot.delete', doc.id]],
    );
    const profile = JSON.stringify({
      profile: {
        uuid: randomUUID(),
        metadata: {
          title: 'Audited profile',
          'last-modified': '2024-01-01T00:00:00Z',
          version: '1',
          'oscal-version': '1.1.2',
        },
        imports: [{ href: `../catalog/${doc.id}`, 'include-all': {} }],
      },
    });
    const created = await api(server.url, 'POST', '/oscal/v1/profile', json(writer, profile));
    const profileId = created.json()['profile-list'][0]['content-uuid'];
    assert.deepEqual(
      await actions(
        () => api(server.url, 'POST', `/oscal/v1/profile/${profileId}/resolved-snapshot`, { token: writer }),
        201,
      ),
      [['wanda', 'resolved-snapshot.create', profileId]],
    );
    // Reading leaves nothing.
    assert.deepEqual(
      await actions(
        () => api(server.url, 'GET', `/oscal/v1/profile/${profileId}/resolved-catalog`, { token: writer }),
        200,
      ),
      [],
    );
  });

  test('registry upsert (create, then a version), upload (update), version delete', async () => {
    const doc = document('audited registry');
    const path = `/api/v1/catalogs/${doc.id}`;
    const actions = async (write: () => Promise<ApiResponse>, status: number) =>
      (await entriesOf(write, status)).map((e) => [e.actor, e.action, e['content-uuid']]);
    assert.deepEqual(await actions(() => api(server.url, 'PUT', path, json(writer, doc.body)), 201), [
      ['wanda', 'document.create', doc.id],
    ]);
    assert.deepEqual(
      await actions(() => api(server.url, 'PUT', path, json(writer, doc.body.replace(doc.title, 'v2'))), 204),
      [['wanda', 'document.replace', doc.id]],
    );
    assert.deepEqual(
      await actions(() => api(server.url, 'POST', '/api/upload', json(admin, doc.body.replace(doc.title, 'v3'))), 200),
      [['admin', 'document.replace', doc.id]],
    );
    assert.deepEqual(await actions(() => api(server.url, 'DELETE', `${path}/versions/1`, { token: writer }), 204), [
      ['wanda', 'version.delete', doc.id],
    ]);
  });

  test('token revocation through the CLI', async () => {
    const { id } = await makeToken(server.dataDir, 'rex', 'reader');
    const revoke = async () => {
      const r = await cliAsync(['token', 'revoke', id, '--data', server.dataDir]);
      assert.equal(r.code, 0, r.stderr);
      return { status: 0 } as ApiResponse;
    };
    const [revoked] = await entriesOf(revoke, 0);
    assert.deepEqual(
      [revoked!.actor, revoked!.action, revoked!.detail],
      [`cli:${userInfo().username}`, 'token.revoke', { token: id }],
    );
  });

  test('refused writes leave no entry', async () => {
    const doc = document('refused');
    assert.deepEqual(
      await entriesOf(() => api(server.url, 'POST', '/oscal/v1/catalog', json(reader, doc.body)), 403),
      [],
    );
    assert.deepEqual(
      await entriesOf(() => api(server.url, 'POST', '/oscal/v1/catalog', json(writer, '{"catalog":{}}')), 422),
      [],
    );
    assert.deepEqual(
      await entriesOf(() => api(server.url, 'PUT', `/api/v1/catalogs/${doc.id}`, json(reader, doc.body)), 403),
      [],
    );
  });
});

describe('paging and filters', () => {
  test('pages follow Link: rel="next", newest first, without gaps or repeats', async () => {
    const all = (await audit('?limit=1000')).entries;
    assert.ok(all.length >= 10, `${all.length} entries`);
    const seen: number[] = [];
    let next: string | undefined = '/oscal/v1/audit?limit=3';
    while (next) {
      const res = await api(server.url, 'GET', next, { token: admin });
      assert.equal(res.status, 200, res.text);
      seen.push(...res.json()['audit-list'].map((e: Entry) => e.id));
      const link = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1];
      next = link === undefined ? undefined : new URL(link).pathname + new URL(link).search;
    }
    assert.deepEqual(
      seen,
      all.map((e) => e.id),
    );
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => b - a),
    );
  });

  test('by actor, action, document, and time; filters are kept on the next page', async () => {
    const all = (await audit('?limit=1000')).entries;
    const byWanda = (await audit('?actor=wanda')).entries;
    assert.deepEqual(
      byWanda,
      all.filter((e) => e.actor === 'wanda'),
    );
    assert.deepEqual(
      (await audit('?action=document.delete')).entries,
      all.filter((e) => e.action === 'document.delete'),
    );
    const doc = byWanda.find((e) => e['content-uuid'] !== undefined)!['content-uuid']!;
    assert.deepEqual(
      (await audit(`?document=${doc.toUpperCase()}`)).entries,
      all.filter((e) => e['content-uuid'] === doc),
      'the content uuid in either case',
    );
    const middle = all[Math.floor(all.length / 2)]!;
    assert.deepEqual(
      (await audit(`?since=${encodeURIComponent(middle.at)}`)).entries,
      all.filter((e) => e.at >= middle.at),
    );
    assert.deepEqual(
      (await audit(`?until=${encodeURIComponent(middle.at)}`)).entries,
      all.filter((e) => e.at < middle.at),
    );
    assert.deepEqual((await audit('?since=2000-01-01&until=2000-01-02')).entries, []);
    const { res } = await audit('?actor=wanda&limit=1');
    const link = /<([^>]+)>; rel="next"/.exec(String(res.headers.link))![1]!;
    assert.equal(new URL(link).searchParams.get('actor'), 'wanda');
  });

  test('bad filters and cursors: 400', async () => {
    for (const query of [
      '?since=yesterday',
      '?until=2025-13-45T99:00:00Z',
      '?cursor=nonsense',
      `?cursor=${Buffer.from('["title","x"]').toString('base64url')}`,
      '?limit=0',
    ]) {
      assertErrorBody(await api(server.url, 'GET', `/oscal/v1/audit${query}`, { token: admin }), 400);
    }
  });
});
