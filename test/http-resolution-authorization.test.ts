/**
 * The authorization matrix of profile resolution (generic-interface 4.5, D7, D8, D10): every
 * resolution endpoint × every kind of caller × a public and a private profile, over real HTTP.
 * The expected statuses are written out by hand from the rules: resolving and reading resolved
 * snapshots is read; making and annotating them is write; deleting one is manage. A refusal to a
 * caller who may not read the profile holds nothing of it and equals the answer for a profile
 * that does not exist.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertConceals, assertErrorBody } from './support/error-body.js';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';

type Who = 'anonymous' | 'reader' | 'writer' | 'otherOwner' | 'owner' | 'admin';
type Vis = 'public' | 'private';
type Op = 'resolve' | 'list' | 'get' | 'post' | 'put' | 'delete';

const WHO: Who[] = ['anonymous', 'reader', 'writer', 'otherOwner', 'owner', 'admin'];
const VIS: Vis[] = ['public', 'private'];
const READ = {
  anonymous: [200, 404],
  reader: [200, 404],
  writer: [200, 404],
  otherOwner: [200, 404],
  owner: [200, 200],
  admin: [200, 200],
} as const;

/** [on the public profile, on the private profile], both owned by `owner`. */
const EXPECTED: Record<Op, Record<Who, readonly [number, number]>> = {
  resolve: READ,
  list: READ,
  get: READ,
  post: /*  */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [201, 201],
    admin: [201, 201],
  },
  put: /*   */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  delete: /**/ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
};

interface Profile {
  id: string;
  title: string;
  rootUuid: string;
  snapshot: string;
}

let server: TestServer;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
let catalogId: string;
const profiles = {} as Record<Vis, Profile>;

const call = (who: Who, method: string, path: string, options: { body?: string; contentType?: string } = {}) =>
  api(server.url, method, `/oscal/v1${path}`, { ...options, ...(who === 'anonymous' ? {} : { token: tokens[who] }) });

async function makeProfile(vis: Vis, label: string): Promise<Profile> {
  const title = `Resolution matrix ${label} ${randomBytes(6).toString('hex')}`;
  const rootUuid = randomUUID();
  const body = JSON.stringify({
    profile: {
      uuid: rootUuid,
      metadata: { title, 'last-modified': '2024-01-01T00:00:00Z', version: '1', 'oscal-version': '1.1.2' },
      imports: [{ href: `../catalog/${catalogId}`, 'include-all': {} }],
    },
  });
  const created = await call('owner', 'POST', '/profile', { body, contentType: 'application/json' });
  assert.equal(created.status, 201, created.text);
  const id = created.json()['profile-list'][0]['content-uuid'];
  if (vis === 'public')
    assert.equal(
      (
        await call('owner', 'PUT', `/profile/${id}/access`, {
          body: '{"visibility":"public"}',
          contentType: 'application/json',
        })
      ).status,
      200,
    );
  const snapshot = await call('owner', 'POST', `/profile/${id}/resolved-snapshot`);
  assert.equal(snapshot.status, 201, snapshot.text);
  return { id, title, rootUuid, snapshot: snapshot.json()['snapshot-id'] };
}

const snapshotsOf = async (p: Profile) =>
  (await call('admin', 'GET', `/profile/${p.id}/resolved-snapshot`)).json()['resolved-snapshot-list'] as {
    'snapshot-id': string;
    labels: string[];
  }[];

/** Each endpoint: its request on a profile, what a success shows, and whether the state changed. */
const CASES: Record<
  Op,
  {
    request: (p: Profile, who: Who) => { method: string; path: string; body?: string; contentType?: string };
    fresh: boolean;
    check: (p: Profile, body: any) => Promise<void> | void;
    unchanged?: (p: Profile) => Promise<boolean>;
  }
> = {
  resolve: {
    request: (p) => ({ method: 'GET', path: `/profile/${p.id}/resolved-catalog` }),
    fresh: false,
    check: (p, body) => assert.equal(body.catalog.metadata.title, p.title),
  },
  list: {
    request: (p) => ({ method: 'GET', path: `/profile/${p.id}/resolved-snapshot` }),
    fresh: false,
    check: (p, body) =>
      assert.ok(body['resolved-snapshot-list'].some((s: { 'snapshot-id': string }) => s['snapshot-id'] === p.snapshot)),
  },
  get: {
    request: (p) => ({ method: 'GET', path: `/profile/${p.id}/resolved-snapshot/${p.snapshot}` }),
    fresh: false,
    check: (p, body) => assert.equal(body.catalog.metadata.title, p.title),
  },
  post: {
    request: (p) => ({ method: 'POST', path: `/profile/${p.id}/resolved-snapshot` }),
    fresh: true,
    check: async (p, body) =>
      assert.deepEqual(
        (await snapshotsOf(p)).map((s) => s['snapshot-id']),
        [p.snapshot, body['snapshot-id']],
      ),
    unchanged: async (p) => (await snapshotsOf(p)).length === 1,
  },
  put: {
    request: (p, who) => ({
      method: 'PUT',
      path: `/profile/${p.id}/resolved-snapshot/${p.snapshot}`,
      body: JSON.stringify({ snapshot: { labels: [`by-${who}`] } }),
      contentType: 'application/json',
    }),
    fresh: true,
    check: async (p) => assert.equal((await snapshotsOf(p))[0]!.labels.length, 1),
    unchanged: async (p) => (await snapshotsOf(p))[0]!.labels.length === 0,
  },
  delete: {
    request: (p) => ({ method: 'DELETE', path: `/profile/${p.id}/resolved-snapshot/${p.snapshot}` }),
    fresh: true,
    check: async (p) => assert.deepEqual(await snapshotsOf(p), []),
    unchanged: async (p) => (await snapshotsOf(p)).length === 1,
  },
};

before(async () => {
  server = await TestServer.start({ args: ['--workers', '0'] });
  tokens.admin = server.adminToken();
  const made = await Promise.all([
    makeToken(server.dataDir, 'rita', 'reader'),
    makeToken(server.dataDir, 'walt', 'writer'),
    makeToken(server.dataDir, 'oscar', 'writer'),
    makeToken(server.dataDir, 'olive', 'writer'),
  ]);
  Object.assign(tokens, {
    reader: made[0].secret,
    writer: made[1].secret,
    otherOwner: made[2].secret,
    owner: made[3].secret,
  });
  const catalog = JSON.stringify({
    catalog: {
      uuid: randomUUID(),
      metadata: {
        title: 'Shared base',
        'last-modified': '2024-01-01T00:00:00Z',
        version: '1',
        'oscal-version': '1.1.2',
      },
      controls: [{ id: 'c-1', title: 'One', parts: [{ id: 'c-1_smt', name: 'statement', prose: 'Do it.' }] }],
    },
  });
  const created = await call('owner', 'POST', '/catalog', { body: catalog, contentType: 'application/json' });
  catalogId = created.json()['catalog-list'][0]['content-uuid'];
  assert.equal(
    (
      await call('owner', 'PUT', `/catalog/${catalogId}/access`, {
        body: '{"visibility":"public"}',
        contentType: 'application/json',
      })
    ).status,
    200,
  );
  for (const vis of VIS) profiles[vis] = await makeProfile(vis, vis);
});

after(async () => {
  await stopWithin(server);
});

describe('the matrix: profile resolution and resolved snapshots', () => {
  for (const op of Object.keys(CASES) as Op[]) {
    const { request, fresh, check, unchanged } = CASES[op];
    for (const vis of VIS) {
      for (const who of WHO) {
        const status = EXPECTED[op][who][vis === 'public' ? 0 : 1];
        test(`${op} ${vis} profile, ${who}: ${status}`, async () => {
          const p = fresh ? await makeProfile(vis, `${op} by ${who}`) : profiles[vis];
          const { method, path, ...options } = request(p, who);
          const res = await call(who, method, path, options);
          if (status >= 300) {
            assertErrorBody(res, status);
            if (status === 404) {
              const absent = { ...p, id: randomUUID() };
              const other = request(absent, who);
              assertConceals(
                res,
                [p.id, p.title, p.rootUuid, p.snapshot],
                await call(who, other.method, other.path, options),
              );
            }
            if (unchanged) assert.ok(await unchanged(p), 'a refused change changes nothing');
            return;
          }
          assert.equal(res.status, status, res.text);
          await check(p, res.text ? res.json() : undefined);
        });
      }
    }
  }
});
