/**
 * The authorization matrix of the registry interface (/api/v1, /api/upload; registry-api.md with
 * D3, D6, D7), over real HTTP against a real `oscal-depot serve` process: every endpoint × every
 * kind of caller × a public and a private document. The expected statuses are written out by hand
 * from the rules, never taken from the server. Every response to a caller who may not read a
 * document is checked for every byte that would identify it, and against the answer for a
 * document that does not exist; every refused write is checked, as admin, to have changed nothing.
 * The admin calls with the first-start local token; the other callers with bearer JWTs of a real
 * OpenID provider process (D6), whose identities also carry the groups that group grants reach.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { importJWK, SignJWT, type JWK } from 'jose';
import { assertConceals, assertErrorBody, assertNoneOf } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog, retitled, type MarkedDoc } from './support/marked-docs.js';
import { rsaSigningKey, TestProvider, type ProviderClient } from './support/oidc-provider.js';
import { sampleDoc } from './support/registry-docs.js';
import { TestServer } from './support/server.js';

type Who = 'anonymous' | 'reader' | 'writer' | 'otherOwner' | 'owner' | 'admin';
type Vis = 'public' | 'private';
/** Operations on one existing document. */
type DocOp = 'read' | 'update' | 'delete' | 'versions' | 'version-read' | 'version-delete' | 'upload-update';
/** Operations that concern no existing document. */
type NewOp = 'create' | 'upload-create';

const WHO: Who[] = ['anonymous', 'reader', 'writer', 'otherOwner', 'owner', 'admin'];
const VIS: Vis[] = ['public', 'private'];

/**
 * Expected status of each operation, per caller: [on the public document, on the private document].
 * Rules (D3, D7, registry-api 4-5): read = admin, owner, public, read/write grant; write = admin,
 * owner, write grant; manage (delete, versions list and delete) = admin, owner. No credentials
 * where they are needed (PUT, DELETE, versions list, version delete, upload): 401. Cannot read:
 * 404. May read but not do this: 403. Success: PUT update 204, upload update 200 (D3), delete 204.
 */
const EXPECTED: Record<DocOp, Record<Who, readonly [number, number]>> = {
  read: /*            */ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  update: /*          */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  delete: /*          */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  versions: /*        */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'version-read': /*  */ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'version-delete': /**/ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  'upload-update': /* */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
};

/** Creating (PUT to a new content-uuid, upload of a new one) needs the writer or admin role: 201. */
const CREATE: Record<Who, number> = {
  anonymous: 401,
  reader: 403,
  writer: 201,
  otherOwner: 201,
  owner: 201,
  admin: 201,
};

/** Whether the document is in the caller's list (and readable at all): [public, private]. */
const LISTED: Record<Who, readonly [boolean, boolean]> = {
  anonymous: [true, false],
  reader: [true, false],
  writer: [true, false],
  otherOwner: [true, false],
  owner: [true, true],
  admin: [true, true],
};

const MUTATING = new Set<DocOp>(['update', 'delete', 'version-delete', 'upload-update']);
const col = (vis: Vis) => (vis === 'public' ? 0 : 1);
const succeeded = (status: number) => status < 300;

/** User names as the server knows them: the first-start local token's user, and the provider's users as oidc:<subject>. */
const NAME: Record<Exclude<Who, 'anonymous'>, string> = {
  reader: 'oidc:rita',
  writer: 'oidc:walt',
  otherOwner: 'oidc:oscar',
  owner: 'oidc:olive',
  admin: 'admin',
};
/** The role each provider user's JWT claims. */
const ROLE: Record<Exclude<Who, 'anonymous' | 'admin'>, string> = {
  reader: 'reader',
  writer: 'writer',
  otherOwner: 'writer',
  owner: 'writer',
};

const API_AUDIENCE = 'https://depot.test/api';
const KID = 'registry-matrix-key';
const WEB: ProviderClient = { id: 'depot-web', secret: randomBytes(24).toString('base64url'), web: true };

interface Doc extends MarkedDoc {
  id: string;
  owner: string;
  visibility: Vis;
  grants: { principal: string; permission: 'read' | 'write' }[];
  /** [number, title] of each version, newest first, as the server was told. */
  versions: [number, string][];
}

let server: TestServer;
let provider: TestProvider;
let signingKey: JWK;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
/** Every catalog this file created and has not deleted, with what the server was told about it. */
const registry = new Map<string, Doc>();
const shared = {} as Record<Vis, Doc>;
let otherOwnersDoc: Doc;

const tokenOf = (who: Who) => (who === 'anonymous' ? undefined : tokens[who]);
const call = (who: Who, method: string, path: string, body?: string) => {
  const token = tokenOf(who);
  return api(server.url, method, path, {
    ...(token ? { token } : {}),
    ...(body === undefined ? {} : { body, contentType: 'application/json' }),
  });
};
const docPath = (id: string) => `/api/v1/catalogs/${id}`;
const titleOf = (doc: Doc) => doc.versions[0]![1];

/** D7: who may read a document as the server was told about it. */
function mayRead(who: Who, doc: Doc): boolean {
  if (doc.visibility === 'public') return true;
  if (who === 'anonymous') return false;
  return who === 'admin' || doc.owner === NAME[who] || doc.grants.some((g) => g.principal === `user:${NAME[who]}`);
}

/** Every identifying string of a document: content uuid, root uuid, title (prefix of later titles) and remarks marker. */
const fingerprints = (doc: Doc) => [doc.id, doc.rootUuid, doc.title, doc.marker];

/** Registry PUT of a new catalog (public, D7), then visibility as asked and as many versions as asked. */
async function createDoc(
  ownerWho: 'owner' | 'otherOwner',
  visibility: Vis,
  label: string,
  versionCount = 2,
): Promise<Doc> {
  const id = randomUUID();
  const marked = markedCatalog(label, { contentUuid: id });
  const res = await call(ownerWho, 'PUT', docPath(id), marked.body);
  assert.equal(res.status, 201, res.text);
  const doc: Doc = {
    ...marked,
    id,
    owner: NAME[ownerWho],
    visibility: 'public',
    grants: [],
    versions: [[1, marked.title]],
  };
  registry.set(id, doc);
  for (let n = 2; n <= versionCount; n++) {
    const title = `${marked.title} v${n}`;
    const put = await call(ownerWho, 'PUT', docPath(id), retitled(doc, title));
    assert.equal(put.status, 204, put.text);
    doc.versions.unshift([n, title]);
  }
  if (visibility === 'private') await setAccess(ownerWho, doc, { visibility: 'private' });
  return doc;
}

/** Visibility and grants through the generic interface's access endpoint (D7: one store). */
async function setAccess(who: Who, doc: Doc, change: { visibility?: Vis; grants?: Doc['grants'] }): Promise<void> {
  const res = await call(who, 'PUT', `/oscal/v1/catalog/${doc.id}/access`, JSON.stringify(change));
  assert.equal(res.status, 200, res.text);
  if (change.visibility) doc.visibility = change.visibility;
  if (change.grants) doc.grants = change.grants;
}

/** What an admin sees of the document now: its current title and its versions, or undefined when gone. */
async function stateOf(id: string): Promise<{ title: string; versions: [number, string][] } | undefined> {
  const res = await api(server.url, 'GET', docPath(id), { token: tokens.admin });
  if (res.status === 404) return undefined;
  assert.equal(res.status, 200, res.text);
  const versions = await api(server.url, 'GET', `${docPath(id)}/versions`, { token: tokens.admin });
  assert.equal(versions.status, 200, versions.text);
  return {
    title: res.json().catalog.metadata.title,
    versions: versions.json().map((v: { version: number; title: string }) => [v.version, v.title]),
  };
}

async function assertUnchanged(doc: Doc, what: string): Promise<void> {
  assert.deepEqual(await stateOf(doc.id), { title: titleOf(doc), versions: doc.versions }, `${what} changes nothing`);
}

/**
 * One operation on a document (by content-uuid, with a body naming it for writes). Version
 * operations address version 1, which every document of this file has.
 */
function send(op: DocOp, who: Who, id: string, body: string): Promise<ApiResponse> {
  switch (op) {
    case 'read':
      return call(who, 'GET', docPath(id));
    case 'update':
      return call(who, 'PUT', docPath(id), body);
    case 'delete':
      return call(who, 'DELETE', docPath(id));
    case 'versions':
      return call(who, 'GET', `${docPath(id)}/versions`);
    case 'version-read':
      return call(who, 'GET', `${docPath(id)}/versions/1`);
    case 'version-delete':
      return call(who, 'DELETE', `${docPath(id)}/versions/1`);
    case 'upload-update':
      return call(who, 'POST', '/api/upload', body);
  }
}

/**
 * What the caller gets for a document that does not exist. A PUT or upload naming a new
 * content-uuid creates it (registry-api rule 2, 3), so for an authenticated caller the refusal to
 * write over an unreadable document can only be compared with the plain 404 of a document that
 * does not exist (the docs' "Unreadable documents are 404 on the registry as well"); that the
 * content-uuid is taken is the one thing the caller learns, as D2's 409 for a POST tells it too.
 */
function absentAnswer(op: DocOp, who: Who): Promise<ApiResponse> {
  const id = randomUUID();
  const creates = (op === 'update' || op === 'upload-update') && who !== 'anonymous';
  if (creates) return send('read', who, id, '');
  return send(op, who, id, markedCatalog('absent', { contentUuid: id }).body);
}

/** A list answer: exactly the registry's documents this caller may read, and nothing of the others. */
async function assertListFor(who: Who): Promise<Set<string>> {
  const res = await call(who, 'GET', '/api/v1/catalogs?limit=1000');
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json\b/);
  const body = res.json();
  assert.ok(Array.isArray(body), 'the list is a bare JSON array (D4)');
  const listed = new Set<string>(body.map((item: { 'content-uuid': string }) => item['content-uuid']));
  assert.equal(listed.size, body.length, 'no document listed twice');
  const expected = [...registry.values()]
    .filter((d) => mayRead(who, d))
    .map((d) => d.id)
    .sort();
  assert.deepEqual([...listed].sort(), expected, `${who} lists exactly the documents it may read`);
  for (const item of body) {
    const doc = registry.get(item['content-uuid'])!;
    assert.equal(item.title, titleOf(doc));
    assert.equal(item.self, docPath(doc.id));
  }
  for (const doc of registry.values()) if (!mayRead(who, doc)) assertNoneOf(res, fingerprints(doc), `${who}'s list`);
  return listed;
}

/** The current (or given) version of the document as the registry returns it: JSON, with every mark of it. */
function assertContent(res: ApiResponse, doc: Doc, title = titleOf(doc)): void {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers['content-type'], 'application/json');
  const content = res.json();
  assert.equal(content.catalog.uuid, doc.rootUuid);
  assert.equal(content.catalog.metadata.title, title);
  assert.ok(content.catalog.metadata['document-ids'].some((d: { identifier: string }) => d.identifier === doc.id));
  assert.ok(res.text.includes(doc.marker));
}

/** A bearer JWT for a user of the given role and groups, signed with the provider's key as the provider signs its own. */
async function providerToken(user: string, role: string, groups: string[]): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: provider.issuer,
    aud: API_AUDIENCE,
    sub: user,
    roles: [role],
    groups,
    iat: now,
    exp: now + 600,
  })
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'at+jwt' })
    .sign(await importJWK(signingKey, 'RS256'));
}

before(async () => {
  signingKey = await rsaSigningKey(KID);
  provider = await TestProvider.listen({ signingKey, clients: [WEB], users: {}, resources: [API_AUDIENCE] });
  // The matrix presents many refused credentials on purpose; the limit on them is tested apart.
  server = await TestServer.start({
    args: [...provider.depotArgs(WEB, API_AUDIENCE), '--auth-failure-limit', '0'],
  });
  await provider.serve([`${server.url}/auth/callback`]);
  tokens.admin = server.adminToken();
  for (const [who, role] of Object.entries(ROLE) as [keyof typeof ROLE, string][])
    tokens[who] = await providerToken(NAME[who].replace(/^oidc:/, ''), role, []);

  for (const vis of VIS) shared[vis] = await createDoc('owner', vis, `shared ${vis}`);
  otherOwnersDoc = await createDoc('otherOwner', 'private', 'other owner', 1);
});

after(async () => {
  await stopWithin(server);
  await provider?.stop();
});

describe('the matrix: list (GET /api/v1/catalogs)', () => {
  for (const who of WHO) {
    test(`${who}: 200, public document listed ${LISTED[who][0]}, private ${LISTED[who][1]}, nothing unreadable`, async () => {
      const listed = await assertListFor(who);
      assert.equal(listed.has(shared.public.id), LISTED[who][0]);
      assert.equal(listed.has(shared.private.id), LISTED[who][1]);
      // The other owner's private document: listed only for that owner and admin.
      assert.equal(listed.has(otherOwnersDoc.id), who === 'otherOwner' || who === 'admin');
    });
  }
});

describe('the matrix: create (PUT /api/v1/catalogs/{new id}, POST /api/upload of a new content-uuid)', () => {
  for (const op of ['create', 'upload-create'] as NewOp[]) {
    for (const who of WHO) {
      const status = CREATE[who];
      test(`${op}, ${who}: ${status}`, async () => {
        const id = randomUUID();
        const marked = markedCatalog(`${op} by ${who}`, { contentUuid: id });
        const res =
          op === 'create'
            ? await call(who, 'PUT', docPath(id), marked.body)
            : await call(who, 'POST', '/api/upload', marked.body);
        if (status !== 201) {
          assertErrorBody(res, status);
          assert.equal(await stateOf(id), undefined, 'a refused create stores nothing');
          return;
        }
        assert.equal(res.status, 201, res.text);
        if (op === 'create') assert.equal(res.text, '');
        else
          assert.deepEqual(res.json(), {
            'content-uuid': id,
            'model-type': 'catalog',
            title: marked.title,
            action: 'created',
          });
        const doc: Doc = {
          ...marked,
          id,
          owner: NAME[who as Exclude<Who, 'anonymous'>],
          visibility: 'public',
          grants: [],
          versions: [[1, marked.title]],
        };
        registry.set(id, doc);
        assert.deepEqual(await stateOf(id), { title: marked.title, versions: [[1, marked.title]] });
        // D7: registry documents are public and owned by their creator, who manages them.
        assertContent(await call('anonymous', 'GET', docPath(id)), doc);
        const access = await api(server.url, 'GET', `/oscal/v1/catalog/${id}/access`, { token: tokens.admin });
        assert.equal(access.json().owner, doc.owner);
        assert.equal(access.json().visibility, 'public');
        assert.equal((await call(who, 'GET', `${docPath(id)}/versions`)).status, 200, 'the creator lists its versions');
      });
    }
  }
});

describe('the matrix: every operation on an existing document', () => {
  for (const op of Object.keys(EXPECTED) as DocOp[]) {
    for (const vis of VIS) {
      for (const who of WHO) {
        const status = EXPECTED[op][who][col(vis)];
        const fresh = MUTATING.has(op) && succeeded(status);
        test(`${op} ${vis} document, ${who}: ${status}${fresh ? ' (a fresh document)' : ''}`, async () => {
          // Only a case that changes a document gets one of its own; the others use the shared ones.
          const doc = fresh ? await createDoc('owner', vis, `${op} ${vis} by ${who}`) : shared[vis];
          const title = `${doc.title} ${op} by ${who}`;
          const res = await send(op, who, doc.id, retitled(doc, title));
          if (!succeeded(status)) {
            assertErrorBody(res, status);
            if (!mayRead(who, doc)) assertConceals(res, fingerprints(doc), await absentAnswer(op, who));
            if (MUTATING.has(op)) await assertUnchanged(doc, `a refused ${op}`);
            return;
          }
          assert.equal(res.status, status, res.text);
          switch (op) {
            case 'read':
              return assertContent(res, doc);
            case 'version-read':
              return assertContent(res, doc, doc.title);
            case 'versions': {
              const body = res.json();
              assert.ok(Array.isArray(body));
              assert.deepEqual(
                body.map((v: { version: number; title: string }) => [v.version, v.title]),
                doc.versions,
                'every version, newest first',
              );
              return;
            }
            case 'update':
            case 'upload-update': {
              if (op === 'update') assert.equal(res.text, '');
              else
                assert.deepEqual(res.json(), {
                  'content-uuid': doc.id,
                  'model-type': 'catalog',
                  title,
                  action: 'updated',
                });
              doc.versions.unshift([doc.versions[0]![0] + 1, title]);
              return assertUnchanged(doc, 'nothing but the new version: it');
            }
            case 'delete':
              assert.equal(res.text, '');
              assert.equal(await stateOf(doc.id), undefined, 'gone after 204');
              assertErrorBody(
                await api(server.url, 'GET', `${docPath(doc.id)}/versions/2`, { token: tokens.admin }),
                404,
              );
              registry.delete(doc.id);
              return;
            case 'version-delete':
              assert.equal(res.text, '');
              doc.versions.pop();
              await assertUnchanged(doc, 'deleting version 1: nothing but that');
              assertErrorBody(
                await api(server.url, 'GET', `${docPath(doc.id)}/versions/1`, { token: tokens.admin }),
                404,
              );
              return;
          }
        });
      }
    }
  }
});

describe('the matrix: update keeping findings (PUT /api/v1/catalogs/{id}?keep-findings=true)', () => {
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED.update[who][col(vis)];
      test(`${vis} document, ${who}: ${status}`, async () => {
        const doc = await createDoc('owner', vis, `keep findings ${vis} by ${who}`);
        const title = `${doc.title} kept with findings by ${who}`;
        // A responsible party naming no role and no party: ERROR findings of the model's constraints.
        const content = JSON.parse(retitled(doc, title));
        content.catalog.metadata['responsible-parties'] = [
          { 'role-id': 'no-such-role', 'party-uuids': [randomUUID()] },
        ];
        const res = await call(who, 'PUT', `${docPath(doc.id)}?keep-findings=true`, JSON.stringify(content));
        if (!succeeded(status)) {
          assertErrorBody(res, status);
          if (!mayRead(who, doc)) assertConceals(res, fingerprints(doc), await absentAnswer('update', who));
          return assertUnchanged(doc, 'a refused update');
        }
        assert.equal(res.status, status, res.text);
        const versions = await api(server.url, 'GET', `${docPath(doc.id)}/versions`, { token: tokens.admin });
        assert.deepEqual(
          versions.json().map((v: { version: number; valid: boolean }) => [v.version, v.valid]),
          [[doc.versions[0]![0] + 1, false], ...doc.versions.map(([n]) => [n, true])],
          'the new version alone is marked',
        );
        doc.versions.unshift([doc.versions[0]![0] + 1, title]);
        return assertUnchanged(doc, 'nothing but the new version: it');
      });
    }
  }
});

describe('an unknown token is refused with 401 on every endpoint, public content included', () => {
  const unknown = `odt_${randomBytes(32).toString('base64url')}`;
  const request = (method: string, path: string, body?: string) =>
    api(server.url, method, path, {
      token: unknown,
      ...(body === undefined ? {} : { body, contentType: 'application/json' }),
    });
  test('list, read, update, create, delete, versions, version read and delete, upload: 401', async () => {
    const doc = shared.public;
    const fresh = markedCatalog('unknown token', { contentUuid: randomUUID() });
    for (const res of [
      await request('GET', '/api/v1/catalogs'),
      await request('GET', docPath(doc.id)),
      await request('PUT', docPath(doc.id), retitled(doc, 'hijacked')),
      await request('PUT', docPath(randomUUID()), fresh.body),
      await request('DELETE', docPath(doc.id)),
      await request('GET', `${docPath(doc.id)}/versions`),
      await request('GET', `${docPath(doc.id)}/versions/1`),
      await request('DELETE', `${docPath(doc.id)}/versions/1`),
      await request('POST', '/api/upload', retitled(doc, 'hijacked')),
      await request('POST', '/api/upload', fresh.body),
    ]) {
      assertErrorBody(res, 401, /token/i);
      assertNoneOf(res, [unknown, doc.marker, doc.rootUuid]);
    }
    await assertUnchanged(doc, 'a request with an unknown token');
  });
});

describe('grants', () => {
  test('a read grant to user:<name>: read, version read and list; update, upload, delete and version management 403', async () => {
    const doc = await createDoc('owner', 'private', 'read grant');
    assertErrorBody(await call('reader', 'GET', docPath(doc.id)), 404);
    await setAccess('owner', doc, { grants: [{ principal: `user:${NAME.reader}`, permission: 'read' }] });

    assertContent(await call('reader', 'GET', docPath(doc.id)), doc);
    assertContent(await call('reader', 'GET', `${docPath(doc.id)}/versions/1`), doc, doc.title);
    assert.ok((await assertListFor('reader')).has(doc.id));
    assertErrorBody(await call('reader', 'PUT', docPath(doc.id), retitled(doc, 'changed by a reader')), 403);
    assertErrorBody(await call('reader', 'POST', '/api/upload', retitled(doc, 'uploaded by a reader')), 403);
    assertErrorBody(await call('reader', 'DELETE', docPath(doc.id)), 403);
    assertErrorBody(await call('reader', 'GET', `${docPath(doc.id)}/versions`), 403);
    assertErrorBody(await call('reader', 'DELETE', `${docPath(doc.id)}/versions/1`), 403);
    await assertUnchanged(doc, 'what a read grant refuses');

    // The grant reaches rita only.
    const other = await call('writer', 'GET', docPath(doc.id));
    assertErrorBody(other, 404);
    assertNoneOf(other, fingerprints(doc));

    // Taking the grant away takes the document away.
    await setAccess('owner', doc, { grants: [] });
    const revoked = await call('reader', 'GET', docPath(doc.id));
    assertConceals(revoked, fingerprints(doc), await call('reader', 'GET', docPath(randomUUID())));
    assert.ok(!(await assertListFor('reader')).has(doc.id));
  });

  test('a write grant to user:<name>: PUT adds a version (204), upload too (200 updated); delete and version management 403', async () => {
    const doc = await createDoc('owner', 'private', 'write grant');
    await setAccess('owner', doc, { grants: [{ principal: `user:${NAME.reader}`, permission: 'write' }] });

    const put = await call('reader', 'PUT', docPath(doc.id), retitled(doc, `${doc.title} put by the grantee`));
    assert.equal(put.status, 204, put.text);
    doc.versions.unshift([3, `${doc.title} put by the grantee`]);
    const upload = await call('reader', 'POST', '/api/upload', retitled(doc, `${doc.title} uploaded by the grantee`));
    assert.equal(upload.status, 200, upload.text);
    assert.equal(upload.json().action, 'updated');
    doc.versions.unshift([4, `${doc.title} uploaded by the grantee`]);
    await assertUnchanged(doc, 'two writes by the grantee: nothing but their versions');
    assertContent(await call('reader', 'GET', docPath(doc.id)), doc);

    assertErrorBody(await call('reader', 'DELETE', docPath(doc.id)), 403);
    assertErrorBody(await call('reader', 'GET', `${docPath(doc.id)}/versions`), 403);
    assertErrorBody(await call('reader', 'DELETE', `${docPath(doc.id)}/versions/1`), 403);
    await assertUnchanged(doc, 'what a write grant refuses');
    // A write grant is no creator role: a reader still may not create.
    const id = randomUUID();
    assertErrorBody(
      await call('reader', 'PUT', docPath(id), markedCatalog('grantee creates', { contentUuid: id }).body),
      403,
    );
    assert.equal(await stateOf(id), undefined);
  });

  test('grants to group:<name> reach the members of that group: read, then write; never delete', async () => {
    const member = await providerToken('gail', 'reader', ['auditors']);
    const outsider = await providerToken('nate', 'reader', ['editors']);
    const as = (token: string, method: string, path: string, body?: string) =>
      api(server.url, method, path, {
        token,
        ...(body === undefined ? {} : { body, contentType: 'application/json' }),
      });
    const doc = await createDoc('owner', 'private', 'group grant');
    assertErrorBody(await as(member, 'GET', docPath(doc.id)), 404);

    await setAccess('owner', doc, { grants: [{ principal: 'group:auditors', permission: 'read' }] });
    assertContent(await as(member, 'GET', docPath(doc.id)), doc);
    const list = await as(member, 'GET', '/api/v1/catalogs?limit=1000');
    assert.ok(
      list.json().some((i: { 'content-uuid': string }) => i['content-uuid'] === doc.id),
      'listed for the group',
    );
    assertErrorBody(await as(member, 'PUT', docPath(doc.id), retitled(doc, 'changed by a group reader')), 403);
    await assertUnchanged(doc, 'a group read grant refusing a PUT');
    const outside = await as(outsider, 'GET', docPath(doc.id));
    assertConceals(outside, fingerprints(doc), await as(outsider, 'GET', docPath(randomUUID())));

    await setAccess('owner', doc, { grants: [{ principal: 'group:auditors', permission: 'write' }] });
    const title = `${doc.title} by the group`;
    const put = await as(member, 'PUT', docPath(doc.id), retitled(doc, title));
    assert.equal(put.status, 204, put.text);
    doc.versions.unshift([3, title]);
    assertErrorBody(await as(member, 'DELETE', docPath(doc.id)), 403);
    assertErrorBody(await as(member, 'DELETE', `${docPath(doc.id)}/versions/1`), 403);
    await assertUnchanged(doc, 'a group write grant refusing deletes');
    assertErrorBody(await as(outsider, 'PUT', docPath(doc.id), retitled(doc, 'changed by an outsider')), 404);
    await assertUnchanged(doc, "an outsider's PUT");
  });

  test('a grant to group:<name> is not a grant to user:<name>', async () => {
    const doc = await createDoc('owner', 'private', 'group named like a user');
    await setAccess('owner', doc, { grants: [{ principal: `group:${NAME.reader}`, permission: 'write' }] });
    const res = await call('reader', 'GET', docPath(doc.id));
    assertConceals(res, fingerprints(doc), await call('reader', 'GET', docPath(randomUUID())));
    assertErrorBody(await call('reader', 'PUT', docPath(doc.id), retitled(doc, 'not granted')), 404);
    await assertUnchanged(doc, 'a PUT by the user named like the group');
  });
});

describe('a write naming a document of another model', () => {
  test("PUT to the profiles segment and upload of a profile with a private catalog's content-uuid: 404 to those who may not read it, 409 to its owner", async () => {
    const doc = shared.private;
    const profile = JSON.stringify(
      sampleDoc('profile', {
        documentIds: [{ scheme: 'http://oscal.io/oscal/identifier/contentuuid', identifier: doc.id }],
      }),
    );
    for (const who of ['reader', 'writer', 'otherOwner'] as Who[]) {
      const absent = await call(who, 'GET', `/api/v1/profiles/${randomUUID()}`);
      for (const res of [
        await call(who, 'PUT', `/api/v1/profiles/${doc.id}`, profile),
        await call(who, 'POST', '/api/upload', profile),
      ]) {
        assertErrorBody(res, 404);
        assertConceals(res, [...fingerprints(doc), 'catalog'], absent);
      }
    }
    for (const res of [
      await call('owner', 'PUT', `/api/v1/profiles/${doc.id}`, profile),
      await call('owner', 'POST', '/api/upload', profile),
    ]) {
      assertErrorBody(res, 409, /catalog/);
    }
    await assertUnchanged(doc, 'a write under another model');
  });
});

describe('after every change above', () => {
  for (const who of WHO) {
    test(`${who} still lists exactly what it may read`, async () => {
      await assertListFor(who);
    });
  }
});
