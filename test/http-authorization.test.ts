/**
 * The authorization matrix of the generic interface (D3, D6, D7), over real HTTP against a real
 * `oscal-depot serve` process: every endpoint × every kind of caller × a public and a private
 * document. The expected statuses are written out by hand from the rules, never taken from the
 * server. Every response to a caller who may not read a document is checked for every byte that
 * would identify it, and against the answer for a document that does not exist at all.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertConceals, assertErrorBody, assertNoneOf } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { markedCatalog, PRIVACY_RESOLVED_JSON, retitled, type MarkedDoc } from './support/marked-docs.js';
import { stopWithin } from './support/lifecycle.js';
import { TestServer } from './support/server.js';
import { cliAsync, makeToken } from './support/tokens.js';

type Who = 'anonymous' | 'reader' | 'writer' | 'otherOwner' | 'owner' | 'admin';
type Vis = 'public' | 'private';
type Op =
  | 'list'
  | 'create'
  | 'read-json'
  | 'read-xml'
  | 'read-yaml'
  | 'replace'
  | 'delete'
  | 'access-get'
  | 'access-put'
  | 'job-get'
  | 'attachment-list'
  | 'attachment-get'
  | 'resource-get'
  | 'snapshot-list'
  | 'snapshot-get'
  | 'attachment-post'
  | 'attachment-put'
  | 'attachment-delete'
  | 'resource-put'
  | 'snapshot-post'
  | 'snapshot-put'
  | 'snapshot-delete'
  | 'validation-get'
  | 'metapath-get'
  | 'original-get'
  | 'revision-original-get';

/** How long the server may go on trusting a token it has looked up (serve --token-cache). */
const TOKEN_CACHE_SECONDS = 1;

const WHO: Who[] = ['anonymous', 'reader', 'writer', 'otherOwner', 'owner', 'admin'];
const VIS: Vis[] = ['public', 'private'];

/**
 * Expected status of each endpoint, per caller: [on the public document, on the private document].
 * Rules: read = admin, owner, public, grant; write = admin, owner, write grant; manage (delete,
 * access) = admin, owner; create = writer or admin role. No credentials where they are needed
 * (create, replace, delete, access): 401. Cannot read: 404. May read but not do this: 403.
 * `create` concerns no existing document: both columns are the same, and it runs once per caller.
 * Attachments and snapshots (generic-interface 4.3, 4.4) follow their document: reading them is
 * read; attachment POST/PUT/DELETE, resource PUT and snapshot POST/PUT are write; deleting a
 * snapshot is manage (like deleting a version). A validation report of a document is read, and
 * so is a Metapath expression evaluated over it.
 * The bytes a revision was sent as (.../original) are manage, as the access settings are.
 * `list` is always 200; which documents it holds is the LISTED table below.
 */
const EXPECTED: Record<Op, Record<Who, readonly [number, number]>> = {
  list: /*        */ {
    anonymous: [200, 200],
    reader: [200, 200],
    writer: [200, 200],
    otherOwner: [200, 200],
    owner: [200, 200],
    admin: [200, 200],
  },
  create: /*      */ {
    anonymous: [401, 401],
    reader: [403, 403],
    writer: [201, 201],
    otherOwner: [201, 201],
    owner: [201, 201],
    admin: [201, 201],
  },
  'read-json': /* */ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'read-xml': /*  */ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'read-yaml': /* */ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  replace: /*     */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  delete: /*      */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  'access-get': /**/ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'access-put': /**/ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'job-get': /*   */ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'attachment-list': {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'attachment-get': {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'resource-get': /**/ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'snapshot-list': {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'snapshot-get': /**/ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'attachment-post': {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [201, 201],
    admin: [201, 201],
  },
  'attachment-put': {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  'attachment-delete': {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  'resource-put': /**/ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  'snapshot-post': {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [201, 201],
    admin: [201, 201],
  },
  'snapshot-put': /**/ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'snapshot-delete': {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [204, 204],
    admin: [204, 204],
  },
  'validation-get': {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'metapath-get': {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'original-get': /**/ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
  'revision-original-get': {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
  },
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

const col = (vis: Vis) => (vis === 'public' ? 0 : 1);

/** User names behind the tokens; the admin is the first-start token's user. */
const NAME: Record<Exclude<Who, 'anonymous'>, string> = {
  reader: 'rita',
  writer: 'walt',
  otherOwner: 'oscar',
  owner: 'olive',
  admin: 'admin',
};

interface Doc extends MarkedDoc {
  id: string;
  owner: string;
  visibility: Vis;
  grants: { principal: string; permission: 'read' | 'write' }[];
}

let server: TestServer;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
/** Every catalog this file created and has not deleted, with what the server was told about it. */
const registry = new Map<string, Doc>();
let publicDoc: Doc;
let privateDoc: Doc;
let otherOwnersDoc: Doc;
const jobs = {} as Record<Vis, { id: string; doc: Doc }>;
/** A document of each visibility with one attachment and one snapshot, made by its owner. */
const filed = {} as Record<Vis, Filed>;
let expiring: { secret: string; expiresAt: number };

interface Filed {
  doc: Doc;
  resource: string;
  bytes: Buffer;
  snapshot: string;
}

const tokenOf = (who: Who) => (who === 'anonymous' ? undefined : tokens[who]);
const call = (
  who: Who,
  method: string,
  path: string,
  options: { body?: string | Buffer; contentType?: string; accept?: string } = {},
) => {
  const token = tokenOf(who);
  return api(server.url, method, path, { ...options, ...(token ? { token } : {}) });
};
const docPath = (id: string) => `/oscal/v1/catalog/${id}`;

/** The rules of D7, for the registry: who may read a document as the server was told about it. */
function mayRead(who: Who, doc: Doc): boolean {
  if (doc.visibility === 'public') return true;
  if (who === 'anonymous') return false;
  return who === 'admin' || doc.owner === NAME[who] || doc.grants.some((g) => g.principal === `user:${NAME[who]}`);
}

/** Every identifying string of a document: its content uuid, root uuid, title and remarks marker. */
const fingerprints = (doc: Doc) => [doc.id, doc.rootUuid, doc.title, doc.marker];

async function createDoc(
  ownerWho: 'owner' | 'otherOwner' | 'writer' | 'admin',
  visibility: Vis,
  label: string,
  path?: string,
): Promise<Doc> {
  const marked = markedCatalog(label, path ? { path } : {});
  const res = await call(ownerWho, 'POST', '/oscal/v1/catalog', { body: marked.body, contentType: 'application/json' });
  assert.equal(res.status, 201, res.text);
  const id = res.json()['catalog-list'][0]['content-uuid'] as string;
  const doc: Doc = { ...marked, id, owner: NAME[ownerWho], visibility: 'private', grants: [] };
  registry.set(id, doc);
  if (visibility === 'public') await setAccess(ownerWho, doc, { visibility: 'public' });
  return doc;
}

async function setAccess(
  who: Who,
  doc: Doc,
  change: { visibility?: Vis; grants?: Doc['grants'] },
): Promise<ApiResponse> {
  const res = await call(who, 'PUT', `${docPath(doc.id)}/access`, {
    body: JSON.stringify(change),
    contentType: 'application/json',
  });
  assert.equal(res.status, 200, res.text);
  if (change.visibility) doc.visibility = change.visibility;
  if (change.grants) doc.grants = change.grants;
  return res;
}

/** A file attached by the owner: its entry and bytes (which carry the document's marker). */
async function attachTo(doc: Doc): Promise<{ entry: { uuid: string } & Record<string, unknown>; bytes: Buffer }> {
  const bytes = Buffer.concat([Buffer.from(doc.marker), randomBytes(64)]);
  const res = await call('owner', 'POST', `${docPath(doc.id)}/attachment`, {
    body: bytes,
    contentType: 'application/octet-stream',
  });
  assert.equal(res.status, 201, res.text);
  return { entry: res.json(), bytes };
}

async function snapshotOf(doc: Doc): Promise<string> {
  const res = await call('owner', 'POST', `${docPath(doc.id)}/snapshot`);
  assert.equal(res.status, 201, res.text);
  return res.json()['snapshot-id'];
}

/** The document as its owner sees it now (JSON), or undefined when it is gone. */
async function current(doc: Doc): Promise<{ title: string } | undefined> {
  const res = await api(server.url, 'GET', docPath(doc.id), { token: tokens.admin });
  if (res.status === 404) return undefined;
  assert.equal(res.status, 200, res.text);
  return { title: res.json().catalog.metadata.title };
}

async function accessOf(doc: Doc): Promise<{ visibility: Vis; 'legal-hold': boolean; grants: Doc['grants'] }> {
  const res = await api(server.url, 'GET', `${docPath(doc.id)}/access`, { token: tokens.admin });
  assert.equal(res.status, 200, res.text);
  return res.json();
}

/** A list answer: exactly the registry's documents this caller may read, and nothing of the others. */
async function assertListFor(who: Who): Promise<Set<string>> {
  const res = await call(who, 'GET', '/oscal/v1/catalog?limit=1000');
  assert.equal(res.status, EXPECTED.list[who][0], res.text);
  assert.match(String(res.headers['content-type']), /^application\/json\b/);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['catalog-list']);
  const listed = new Set<string>(body['catalog-list'].map((item: { 'content-uuid': string }) => item['content-uuid']));
  assert.equal(listed.size, body['catalog-list'].length, 'no document listed twice');
  const expected = [...registry.values()]
    .filter((d) => mayRead(who, d))
    .map((d) => d.id)
    .sort();
  assert.deepEqual([...listed].sort(), expected, `${who} lists exactly the documents it may read`);
  for (const doc of registry.values()) if (!mayRead(who, doc)) assertNoneOf(res, fingerprints(doc), `${who}'s list`);
  return listed;
}

before(async () => {
  // --workers 0: renditions of large documents stay queued, so the job resource is stable.
  // This suite presents many refused credentials on purpose; the limit on them is tested apart.
  server = await TestServer.start({
    args: ['--workers', '0', '--token-cache', String(TOKEN_CACHE_SECONDS), '--auth-failure-limit', '0'],
  });
  tokens.admin = server.adminToken();
  const [reader, writer, otherOwner, owner] = await Promise.all([
    makeToken(server.dataDir, NAME.reader, 'reader'),
    makeToken(server.dataDir, NAME.writer, 'writer'),
    makeToken(server.dataDir, NAME.otherOwner, 'writer'),
    makeToken(server.dataDir, NAME.owner, 'writer'),
  ]);
  Object.assign(tokens, {
    reader: reader.secret,
    writer: writer.secret,
    otherOwner: otherOwner.secret,
    owner: owner.secret,
  });

  publicDoc = await createDoc('owner', 'public', 'public');
  privateDoc = await createDoc('owner', 'private', 'private');
  otherOwnersDoc = await createDoc('otherOwner', 'private', 'other-owner');
  for (const vis of VIS) {
    const doc = await createDoc('owner', vis, `large ${vis}`, PRIVACY_RESOLVED_JSON);
    const pending = await call('owner', 'GET', docPath(doc.id), { accept: 'application/xml' });
    assert.equal(
      pending.status,
      202,
      `a large document's XML is not ready with no worker: ${pending.text.slice(0, 200)}`,
    );
    const id = /\/oscal\/v1\/jobs\/([^/?#]+)$/.exec(String(pending.headers.location))?.[1];
    assert.ok(id, `202 names the job in Location: ${pending.headers.location}`);
    jobs[vis] = { id, doc };
  }

  for (const vis of VIS) {
    const doc = await createDoc('owner', vis, `files ${vis}`);
    const { entry, bytes } = await attachTo(doc);
    filed[vis] = { doc, resource: entry.uuid, bytes, snapshot: await snapshotOf(doc) };
  }

  // A token that expires soon, seen working first; the token tests check it later, once expired.
  const made = await makeToken(server.dataDir, 'evan', 'reader', ['--expires', '3s']);
  const expiresAt = Date.now() + 3000;
  const fresh = await api(server.url, 'GET', '/oscal/v1/catalog', { token: made.secret });
  assert.equal(fresh.status, 200, `the fresh token works: ${fresh.text}`);
  expiring = { secret: made.secret, expiresAt };
});

after(async () => {
  await stopWithin(server);
});

describe('the matrix: list', () => {
  for (const who of WHO) {
    test(`${who}: 200, public document listed ${LISTED[who][0]}, private ${LISTED[who][1]}, nothing unreadable`, async () => {
      const listed = await assertListFor(who);
      assert.equal(listed.has(publicDoc.id), LISTED[who][0]);
      assert.equal(listed.has(privateDoc.id), LISTED[who][1]);
      // The other owner's private document: listed only for that owner and admin.
      assert.equal(listed.has(otherOwnersDoc.id), who === 'otherOwner' || who === 'admin');
    });
  }
});

describe('the matrix: create (POST /oscal/v1/catalog)', () => {
  for (const who of WHO) {
    const status = EXPECTED.create[who][0];
    test(`${who}: ${status}`, async () => {
      const contentUuid = randomUUID();
      const marked = markedCatalog(`created by ${who}`, { contentUuid });
      const res = await call(who, 'POST', '/oscal/v1/catalog', { body: marked.body, contentType: 'application/json' });
      if (status !== 201) {
        assertErrorBody(res, status);
        assert.equal(res.headers.location, undefined);
        const after = await api(server.url, 'GET', docPath(contentUuid), { token: tokens.admin });
        assert.equal(after.status, 404, 'a refused create stores nothing');
        return;
      }
      assert.equal(res.status, 201, res.text);
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['catalog-list']);
      assert.equal(body['catalog-list'].length, 1);
      assert.equal(body['catalog-list'][0]['content-uuid'], contentUuid);
      assert.equal(body['catalog-list'][0].title, marked.title);
      assert.match(String(res.headers.location), new RegExp(`/oscal/v1/catalog/${contentUuid}$`));
      const doc: Doc = {
        ...marked,
        id: contentUuid,
        owner: NAME[who as Exclude<Who, 'anonymous'>],
        visibility: 'private',
        grants: [],
      };
      registry.set(doc.id, doc);
      // Private by default: the creator manages it, anonymous callers cannot see it.
      const access = await call(who, 'GET', `${docPath(doc.id)}/access`);
      assert.equal(access.status, 200, access.text);
      assert.equal(access.json().visibility, 'private');
      const anonymous = await call('anonymous', 'GET', docPath(doc.id));
      assertErrorBody(anonymous, 404);
      assertNoneOf(anonymous, fingerprints(doc));
    });
  }
});

const READS = [
  { op: 'read-json', accept: 'application/json' },
  { op: 'read-xml', accept: 'application/xml' },
  { op: 'read-yaml', accept: 'application/yaml' },
] as const;

describe('the matrix: read (GET /oscal/v1/catalog/{id}) in each format', () => {
  for (const { op, accept } of READS) {
    for (const vis of VIS) {
      for (const who of WHO) {
        const status = EXPECTED[op][who][col(vis)];
        test(`${op} ${vis} document, ${who}: ${status}`, async () => {
          const doc = vis === 'public' ? publicDoc : privateDoc;
          const res = await call(who, 'GET', docPath(doc.id), { accept });
          if (status !== 200) {
            assertErrorBody(res, status);
            assertConceals(res, fingerprints(doc), await call(who, 'GET', docPath(randomUUID()), { accept }));
            return;
          }
          assert.equal(res.status, 200, res.text);
          assert.equal(res.headers['content-type'], accept);
          if (op === 'read-json') {
            const content = res.json();
            assert.equal(content.catalog.uuid, doc.rootUuid);
            assert.equal(content.catalog.metadata.title, doc.title);
            assert.ok(
              content.catalog.metadata['document-ids'].some((d: { identifier: string }) => d.identifier === doc.id),
            );
          } else if (op === 'read-xml') {
            assert.match(res.text, /^<\?xml [^>]*\?>\s*<catalog xmlns="http:\/\/csrc.nist.gov\/ns\/oscal\/1.0"/);
            assert.ok(res.text.includes(`uuid="${doc.rootUuid}"`));
            assert.ok(res.text.includes(`<title>${doc.title}</title>`));
          } else {
            assert.match(res.text, /^(---\n)?catalog:\n/);
            assert.ok(res.text.includes(`uuid: ${doc.rootUuid}`));
            assert.ok(res.text.includes(doc.title));
          }
          assert.ok(res.text.includes(doc.marker));
        });
      }
    }
  }
});

describe('the matrix: replace (PUT /oscal/v1/catalog/{id}), a fresh document per case', () => {
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED.replace[who][col(vis)];
      test(`${vis} document, ${who}: ${status}`, async () => {
        const doc = await createDoc('owner', vis, `replace ${vis} by ${who}`);
        const title = `${doc.title} replaced by ${who}`;
        const body = retitled(doc, title);
        const res = await call(who, 'PUT', docPath(doc.id), { body, contentType: 'application/json' });
        if (status === 204) {
          assert.equal(res.status, 204, res.text);
          assert.equal(res.text, '');
          assert.equal((await current(doc))?.title, title);
          return;
        }
        assertErrorBody(res, status);
        if (!LISTED[who][col(vis)])
          assertConceals(
            res,
            fingerprints(doc),
            await call(who, 'PUT', docPath(randomUUID()), { body, contentType: 'application/json' }),
          );
        assert.equal((await current(doc))?.title, doc.title, 'a refused replace changes nothing');
      });
    }
  }
});

/** The document retitled, with a responsible party naming a role and a party it does not have: two ERROR findings. */
function withFindings(doc: Doc, title: string): string {
  const content = JSON.parse(retitled(doc, title));
  content.catalog.metadata['responsible-parties'] = [{ 'role-id': 'no-such-role', 'party-uuids': [randomUUID()] }];
  return JSON.stringify(content, null, 2);
}

describe('the matrix: replace keeping findings (PUT /oscal/v1/catalog/{id}?keep-findings=true), a fresh document per case', () => {
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED.replace[who][col(vis)];
      test(`${vis} document, ${who}: ${status}`, async () => {
        const doc = await createDoc('owner', vis, `keep findings ${vis} by ${who}`);
        const title = `${doc.title} kept with findings by ${who}`;
        const body = withFindings(doc, title);
        const path = `${docPath(doc.id)}?keep-findings=true`;
        const res = await call(who, 'PUT', path, { body, contentType: 'application/json' });
        if (status === 204) {
          assert.equal(res.status, 204, res.text);
          assert.equal((await current(doc))?.title, title);
          return;
        }
        assertErrorBody(res, status);
        if (!LISTED[who][col(vis)])
          assertConceals(
            res,
            fingerprints(doc),
            await call(who, 'PUT', `${docPath(randomUUID())}?keep-findings=true`, {
              body,
              contentType: 'application/json',
            }),
          );
        assert.equal((await current(doc))?.title, doc.title, 'a refused replace changes nothing');
      });
    }
  }
});

describe('the matrix: delete (DELETE /oscal/v1/catalog/{id}), a fresh document per case', () => {
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED.delete[who][col(vis)];
      test(`${vis} document, ${who}: ${status}`, async () => {
        const doc = await createDoc('owner', vis, `delete ${vis} by ${who}`);
        const res = await call(who, 'DELETE', docPath(doc.id));
        if (status === 204) {
          assert.equal(res.status, 204, res.text);
          assert.equal(res.text, '');
          assert.equal(await current(doc), undefined, 'gone after 204');
          registry.delete(doc.id);
          return;
        }
        assertErrorBody(res, status);
        if (!LISTED[who][col(vis)])
          assertConceals(res, fingerprints(doc), await call(who, 'DELETE', docPath(randomUUID())));
        assert.equal((await current(doc))?.title, doc.title, 'a refused delete leaves the document');
      });
    }
  }
});

describe('the matrix: access settings (GET /oscal/v1/catalog/{id}/access)', () => {
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED['access-get'][who][col(vis)];
      test(`${vis} document, ${who}: ${status}`, async () => {
        const doc = vis === 'public' ? publicDoc : privateDoc;
        const res = await call(who, 'GET', `${docPath(doc.id)}/access`);
        if (status !== 200) {
          assertErrorBody(res, status);
          if (!LISTED[who][col(vis)])
            assertConceals(res, fingerprints(doc), await call(who, 'GET', `${docPath(randomUUID())}/access`));
          return;
        }
        assert.equal(res.status, 200, res.text);
        const body = res.json();
        assert.equal(body.visibility, vis);
        assert.equal(body['legal-hold'], false);
        assert.deepEqual(body.grants, []);
      });
    }
  }
});

describe('the matrix: change access (PUT /oscal/v1/catalog/{id}/access), a fresh document per case', () => {
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED['access-put'][who][col(vis)];
      test(`${vis} document, ${who}: ${status}`, async () => {
        const doc = await createDoc('owner', vis, `access ${vis} by ${who}`);
        const flipped: Vis = vis === 'public' ? 'private' : 'public';
        const body = JSON.stringify({ visibility: flipped });
        const res = await call(who, 'PUT', `${docPath(doc.id)}/access`, { body, contentType: 'application/json' });
        if (status === 200) {
          assert.equal(res.status, 200, res.text);
          assert.equal(res.json().visibility, flipped);
          doc.visibility = flipped;
          assert.equal((await accessOf(doc)).visibility, flipped);
          return;
        }
        assertErrorBody(res, status);
        if (!LISTED[who][col(vis)]) {
          assertConceals(
            res,
            fingerprints(doc),
            await call(who, 'PUT', `${docPath(randomUUID())}/access`, { body, contentType: 'application/json' }),
          );
        }
        assert.equal((await accessOf(doc)).visibility, vis, 'a refused change leaves the visibility');
      });
    }
  }
});

describe('the matrix: rendition job (GET /oscal/v1/jobs/{id}) of a large document', () => {
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED['job-get'][who][col(vis)];
      test(`${vis} document, ${who}: ${status}`, async () => {
        const { id, doc } = jobs[vis];
        const res = await call(who, 'GET', `/oscal/v1/jobs/${id}`);
        if (status !== 200) {
          assertErrorBody(res, status);
          assertNoneOf(res, [id]);
          assertConceals(res, fingerprints(doc), await call(who, 'GET', `/oscal/v1/jobs/${randomUUID()}`));
          return;
        }
        assert.equal(res.status, 200, res.text);
        const body = res.json();
        assert.equal(body.job.id, id);
        assert.equal(body.job.status, 'queued', 'no worker runs on this server');
        assert.equal(body.job.format, 'xml');
      });
    }
  }
});

/** Reads of a document's attachments and snapshots: the path below the document, and what a 200 holds. */
const FILE_READS: { op: Op; path: (f: Filed) => string; check: (res: ApiResponse, f: Filed) => void }[] = [
  {
    op: 'attachment-list',
    path: () => '/attachment',
    check: (res, f) =>
      assert.deepEqual(
        res.json()['attachment-list'].map((r: { 'resource-uuid': string }) => r['resource-uuid']),
        [f.resource],
      ),
  },
  {
    op: 'attachment-get',
    path: (f) => `/attachment/${f.resource}`,
    check: (res, f) => assert.ok(res.body.equals(f.bytes)),
  },
  {
    op: 'resource-get',
    path: (f) => `/attachment/${f.resource}/resource`,
    check: (res, f) => assert.equal(res.json().uuid, f.resource),
  },
  {
    op: 'snapshot-list',
    path: () => '/snapshot',
    check: (res, f) =>
      assert.deepEqual(
        res.json()['catalog-snapshot-list'].map((e: { 'snapshot-id': string }) => e['snapshot-id']),
        [f.snapshot],
      ),
  },
  {
    op: 'snapshot-get',
    path: (f) => `/snapshot/${f.snapshot}`,
    check: (res, f) => assert.equal(res.json().catalog.metadata.title, f.doc.title),
  },
];

describe('the matrix: reads of attachments and snapshots', () => {
  for (const { op, path, check } of FILE_READS) {
    for (const vis of VIS) {
      for (const who of WHO) {
        const status = EXPECTED[op][who][col(vis)];
        test(`${op} ${vis} document, ${who}: ${status}`, async () => {
          const f = filed[vis];
          const res = await call(who, 'GET', `${docPath(f.doc.id)}${path(f)}`);
          if (status !== 200) {
            assertErrorBody(res, status);
            assertNoneOf(res, [f.resource, f.snapshot]);
            assertConceals(res, fingerprints(f.doc), await call(who, 'GET', `${docPath(randomUUID())}${path(f)}`));
            return;
          }
          assert.equal(res.status, 200, res.text);
          check(res, f);
        });
      }
    }
  }
});

/**
 * Changes of attachments and snapshots: what the owner sets up on a fresh document first, the
 * request, and the state an admin then sees, changed or not.
 */
interface Setup {
  resource?: { uuid: string } & Record<string, unknown>;
  bytes?: Buffer;
  snapshot?: string;
}
interface FileChange {
  op: Op;
  prepare: (doc: Doc) => Promise<Setup>;
  request: (who: Who, s: Setup) => { method: string; path: string; body?: string | Buffer; contentType?: string };
  changed: (doc: Doc, s: Setup) => Promise<boolean>;
}

const asAdmin = (path: string) => api(server.url, 'GET', path, { token: tokens.admin });
const resourceCount = async (doc: Doc) =>
  (await asAdmin(`${docPath(doc.id)}/attachment`)).json()['attachment-list'].length as number;
const snapshotsOf = async (doc: Doc) =>
  (await asAdmin(`${docPath(doc.id)}/snapshot`)).json()['catalog-snapshot-list'] as { description: string | null }[];

const FILE_CHANGES: FileChange[] = [
  {
    op: 'attachment-post',
    prepare: async () => ({}),
    request: (who) => ({ method: 'POST', path: '/attachment', body: `posted by ${who}`, contentType: 'text/plain' }),
    changed: async (doc) => (await resourceCount(doc)) === 1,
  },
  {
    op: 'attachment-put',
    prepare: async (doc) => {
      const a = await attachTo(doc);
      return { resource: a.entry, bytes: a.bytes };
    },
    request: (who, s) => ({
      method: 'PUT',
      path: `/attachment/${s.resource!.uuid}`,
      body: `replaced by ${who}`,
      contentType: 'text/plain',
    }),
    changed: async (doc, s) =>
      !(await asAdmin(`${docPath(doc.id)}/attachment/${s.resource!.uuid}`)).body.equals(s.bytes!),
  },
  {
    op: 'attachment-delete',
    prepare: async (doc) => ({ resource: (await attachTo(doc)).entry }),
    request: (_who, s) => ({ method: 'DELETE', path: `/attachment/${s.resource!.uuid}` }),
    changed: async (doc) => (await resourceCount(doc)) === 0,
  },
  {
    op: 'resource-put',
    prepare: async (doc) => ({ resource: (await attachTo(doc)).entry }),
    request: (who, s) => ({
      method: 'PUT',
      path: `/attachment/${s.resource!.uuid}/resource`,
      body: JSON.stringify({ ...s.resource, title: `titled by ${who}` }),
      contentType: 'application/json',
    }),
    changed: async (doc, s) =>
      (await asAdmin(`${docPath(doc.id)}/attachment/${s.resource!.uuid}/resource`)).json().title !== s.resource!.title,
  },
  {
    op: 'snapshot-post',
    prepare: async () => ({}),
    request: () => ({ method: 'POST', path: '/snapshot' }),
    changed: async (doc) => (await snapshotsOf(doc)).length === 1,
  },
  {
    op: 'snapshot-put',
    prepare: async (doc) => ({ snapshot: await snapshotOf(doc) }),
    request: (who, s) => ({
      method: 'PUT',
      path: `/snapshot/${s.snapshot}`,
      body: JSON.stringify({ snapshot: { description: `described by ${who}` } }),
      contentType: 'application/json',
    }),
    changed: async (doc) => (await snapshotsOf(doc))[0]!.description !== null,
  },
  {
    op: 'snapshot-delete',
    prepare: async (doc) => ({ snapshot: await snapshotOf(doc) }),
    request: (_who, s) => ({ method: 'DELETE', path: `/snapshot/${s.snapshot}` }),
    changed: async (doc) => (await snapshotsOf(doc)).length === 0,
  },
];

describe('the matrix: changes of attachments and snapshots, a fresh document per case', () => {
  for (const { op, prepare, request, changed } of FILE_CHANGES) {
    for (const vis of VIS) {
      for (const who of WHO) {
        const status = EXPECTED[op][who][col(vis)];
        test(`${op} ${vis} document, ${who}: ${status}`, async () => {
          const doc = await createDoc('owner', vis, `${op} ${vis} by ${who}`);
          const set = await prepare(doc);
          const { method, path, ...body } = request(who, set);
          const res = await call(who, method, `${docPath(doc.id)}${path}`, body);
          if (status < 300) {
            assert.equal(res.status, status, res.text);
            assert.ok(await changed(doc, set), `${op} by ${who} took effect`);
            return;
          }
          assertErrorBody(res, status);
          if (!LISTED[who][col(vis)])
            assertConceals(res, fingerprints(doc), await call(who, method, `${docPath(randomUUID())}${path}`, body));
          assert.equal(await changed(doc, set), false, 'a refused change changes nothing');
        });
      }
    }
  }
});

describe('an unknown token is refused with 401 on every endpoint, public content included', () => {
  const unknown = `odt_${randomBytes(32).toString('base64url')}`;
  const cases: {
    name: string;
    method: string;
    path: () => string;
    body?: () => string;
    contentType?: string;
    accept?: string;
  }[] = [
    { name: 'list', method: 'GET', path: () => '/oscal/v1/catalog' },
    {
      name: 'create',
      method: 'POST',
      path: () => '/oscal/v1/catalog',
      body: () => markedCatalog('unknown token').body,
      contentType: 'application/json',
    },
    { name: 'read-json', method: 'GET', path: () => docPath(publicDoc.id), accept: 'application/json' },
    { name: 'read-xml', method: 'GET', path: () => docPath(publicDoc.id), accept: 'application/xml' },
    { name: 'read-yaml', method: 'GET', path: () => docPath(publicDoc.id), accept: 'application/yaml' },
    {
      name: 'replace',
      method: 'PUT',
      path: () => docPath(publicDoc.id),
      body: () => retitled(publicDoc, 'hijacked'),
      contentType: 'application/json',
    },
    { name: 'delete', method: 'DELETE', path: () => docPath(publicDoc.id) },
    { name: 'access-get', method: 'GET', path: () => `${docPath(publicDoc.id)}/access` },
    {
      name: 'access-put',
      method: 'PUT',
      path: () => `${docPath(publicDoc.id)}/access`,
      body: () => '{"visibility":"private"}',
      contentType: 'application/json',
    },
    { name: 'job-get', method: 'GET', path: () => `/oscal/v1/jobs/${jobs.public.id}` },
    { name: 'attachment-list', method: 'GET', path: () => `${docPath(filed.public.doc.id)}/attachment` },
    {
      name: 'attachment-get',
      method: 'GET',
      path: () => `${docPath(filed.public.doc.id)}/attachment/${filed.public.resource}`,
    },
    {
      name: 'attachment-post',
      method: 'POST',
      path: () => `${docPath(filed.public.doc.id)}/attachment`,
      body: () => 'unknown token',
      contentType: 'text/plain',
    },
    {
      name: 'attachment-delete',
      method: 'DELETE',
      path: () => `${docPath(filed.public.doc.id)}/attachment/${filed.public.resource}`,
    },
    { name: 'snapshot-list', method: 'GET', path: () => `${docPath(filed.public.doc.id)}/snapshot` },
    { name: 'snapshot-post', method: 'POST', path: () => `${docPath(filed.public.doc.id)}/snapshot` },
    {
      name: 'snapshot-delete',
      method: 'DELETE',
      path: () => `${docPath(filed.public.doc.id)}/snapshot/${filed.public.snapshot}`,
    },
  ];
  for (const c of cases) {
    test(`${c.name}: 401`, async () => {
      const res = await api(server.url, c.method, c.path(), {
        token: unknown,
        ...(c.body ? { body: c.body() } : {}),
        ...(c.contentType ? { contentType: c.contentType } : {}),
        ...(c.accept ? { accept: c.accept } : {}),
      });
      assertErrorBody(res, 401, /token/i);
      assertNoneOf(res, [unknown, publicDoc.marker, publicDoc.rootUuid]);
    });
  }
  test('nothing was changed by those requests', async () => {
    assert.equal((await current(publicDoc))?.title, publicDoc.title);
    assert.equal((await accessOf(publicDoc)).visibility, 'public');
    assert.equal(await resourceCount(filed.public.doc), 1);
    assert.equal((await snapshotsOf(filed.public.doc)).length, 1);
  });
});

describe('grants', () => {
  test('a read grant lets a reader read a private document, but not replace (403), delete (403) or manage it (403)', async () => {
    const doc = await createDoc('owner', 'private', 'read grant');
    const ungranted = await call('reader', 'GET', docPath(doc.id));
    assertErrorBody(ungranted, 404);
    const granted = await setAccess('owner', doc, {
      grants: [{ principal: `user:${NAME.reader}`, permission: 'read' }],
    });
    assert.deepEqual(granted.json().grants, [{ principal: 'user:rita', permission: 'read' }]);

    for (const accept of ['application/json', 'application/xml', 'application/yaml']) {
      const read = await call('reader', 'GET', docPath(doc.id), { accept });
      assert.equal(read.status, 200, read.text);
      assert.ok(read.text.includes(doc.marker));
    }
    assert.ok((await assertListFor('reader')).has(doc.id));
    const put = await call('reader', 'PUT', docPath(doc.id), {
      body: retitled(doc, 'changed by a reader'),
      contentType: 'application/json',
    });
    assertErrorBody(put, 403, /change|write|replace/i);
    const del = await call('reader', 'DELETE', docPath(doc.id));
    assertErrorBody(del, 403, /delete/i);
    assertErrorBody(await call('reader', 'GET', `${docPath(doc.id)}/access`), 403);
    assertErrorBody(
      await call('reader', 'PUT', `${docPath(doc.id)}/access`, {
        body: '{"visibility":"public"}',
        contentType: 'application/json',
      }),
      403,
    );
    assert.equal((await current(doc))?.title, doc.title);
    assert.equal((await accessOf(doc)).visibility, 'private');

    // The grant reaches rita only: another reader-level caller still gets 404.
    const other = await call('writer', 'GET', docPath(doc.id));
    assertErrorBody(other, 404);
    assertNoneOf(other, fingerprints(doc));

    // Taking the grant away takes the document away.
    await setAccess('owner', doc, { grants: [] });
    const revoked = await call('reader', 'GET', docPath(doc.id));
    assertErrorBody(revoked, 404);
    assertNoneOf(revoked, fingerprints(doc));
    assert.ok(!(await assertListFor('reader')).has(doc.id));
  });

  test('a write grant allows PUT (204) but not DELETE (403) nor access settings (403)', async () => {
    const doc = await createDoc('owner', 'private', 'write grant');
    await setAccess('owner', doc, { grants: [{ principal: `user:${NAME.reader}`, permission: 'write' }] });
    const title = `${doc.title} edited by the grantee`;
    const put = await call('reader', 'PUT', docPath(doc.id), {
      body: retitled(doc, title),
      contentType: 'application/json',
    });
    assert.equal(put.status, 204, put.text);
    const read = await call('reader', 'GET', docPath(doc.id));
    assert.equal(read.status, 200);
    assert.equal(read.json().catalog.metadata.title, title);
    const del = await call('reader', 'DELETE', docPath(doc.id));
    assertErrorBody(del, 403, /delete/i);
    assert.equal((await current(doc))?.title, title, 'still there');
    assertErrorBody(await call('reader', 'GET', `${docPath(doc.id)}/access`), 403);
    const grantItself = await call('reader', 'PUT', `${docPath(doc.id)}/access`, {
      body: '{"visibility":"public"}',
      contentType: 'application/json',
    });
    assertErrorBody(grantItself, 403);
    assert.equal((await accessOf(doc)).visibility, 'private');
  });

  test('a read grant lets a reader read the attachments and snapshots of a private document; changing them is 403', async () => {
    const doc = await createDoc('owner', 'private', 'read grant on files');
    const { entry, bytes } = await attachTo(doc);
    const snapshot = await snapshotOf(doc);
    await setAccess('owner', doc, { grants: [{ principal: `user:${NAME.reader}`, permission: 'read' }] });
    const file = await call('reader', 'GET', `${docPath(doc.id)}/attachment/${entry.uuid}`);
    assert.equal(file.status, 200, file.text);
    assert.ok(file.body.equals(bytes));
    assert.equal((await call('reader', 'GET', `${docPath(doc.id)}/snapshot/${snapshot}`)).status, 200);
    assertErrorBody(
      await call('reader', 'POST', `${docPath(doc.id)}/attachment`, { body: 'x', contentType: 'text/plain' }),
      403,
    );
    assertErrorBody(await call('reader', 'DELETE', `${docPath(doc.id)}/attachment/${entry.uuid}`), 403);
    assertErrorBody(await call('reader', 'POST', `${docPath(doc.id)}/snapshot`), 403);
    assertErrorBody(
      await call('reader', 'PUT', `${docPath(doc.id)}/snapshot/${snapshot}`, {
        body: '{"snapshot": {"labels": ["x"]}}',
        contentType: 'application/json',
      }),
      403,
    );
    assert.equal(await resourceCount(doc), 1);
    assert.deepEqual(
      (await snapshotsOf(doc)).map((e) => e.description),
      [null],
    );
  });

  test('a write grant allows attachment and snapshot changes, but not deleting a snapshot (403)', async () => {
    const doc = await createDoc('owner', 'private', 'write grant on files');
    await setAccess('owner', doc, { grants: [{ principal: `user:${NAME.reader}`, permission: 'write' }] });
    const posted = await call('reader', 'POST', `${docPath(doc.id)}/attachment`, {
      body: 'by the grantee',
      contentType: 'text/plain',
    });
    assert.equal(posted.status, 201, posted.text);
    const resource = posted.json().uuid;
    assert.equal(
      (
        await call('reader', 'PUT', `${docPath(doc.id)}/attachment/${resource}`, {
          body: 'again',
          contentType: 'text/plain',
        })
      ).status,
      204,
    );
    const made = await call('reader', 'POST', `${docPath(doc.id)}/snapshot`);
    assert.equal(made.status, 201, made.text);
    const snapshot = made.json()['snapshot-id'];
    const described = await call('reader', 'PUT', `${docPath(doc.id)}/snapshot/${snapshot}`, {
      body: '{"snapshot": {"description": "by the grantee"}}',
      contentType: 'application/json',
    });
    assert.equal(described.status, 200, described.text);
    assertErrorBody(
      await call('reader', 'DELETE', `${docPath(doc.id)}/snapshot/${snapshot}`),
      403,
      /owner or an admin/,
    );
    assert.deepEqual(
      (await snapshotsOf(doc)).map((e) => e.description),
      ['by the grantee'],
    );
    assert.equal((await call('reader', 'DELETE', `${docPath(doc.id)}/attachment/${resource}`)).status, 204);
    assert.equal(await resourceCount(doc), 0);
  });

  test('a grant to group:<name> is not a grant to user:<name>', async () => {
    const doc = await createDoc('owner', 'private', 'group grant');
    await setAccess('owner', doc, { grants: [{ principal: `group:${NAME.reader}`, permission: 'write' }] });
    const res = await call('reader', 'GET', docPath(doc.id));
    assertErrorBody(res, 404);
    assertNoneOf(res, fingerprints(doc));
  });
});

describe('tokens that no longer hold', () => {
  test('a revoked token gets 401 everywhere, public reads included', async () => {
    const { secret, id } = await makeToken(server.dataDir, 'rex', 'writer');
    const ok = await api(server.url, 'GET', docPath(publicDoc.id), { token: secret });
    assert.equal(ok.status, 200, 'the token works before it is revoked');
    const listed = await cliAsync(['token', 'list', '--data', server.dataDir]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${id}\\s+rex\\s+writer\\s.*active$`, 'm'));
    const revoke = await cliAsync(['token', 'revoke', id, '--data', server.dataDir]);
    assert.equal(revoke.code, 0, revoke.stderr);
    const relisted = await cliAsync(['token', 'list', '--data', server.dataDir]);
    assert.match(relisted.stdout, new RegExp(`^${id}\\s+rex\\s+writer\\s.*revoked`, 'm'));
    // The revocation reaches the running server once its cached lookup has aged out.
    await sleep(TOKEN_CACHE_SECONDS * 1000 + 200);

    for (const res of [
      await api(server.url, 'GET', '/oscal/v1/catalog', { token: secret }),
      await api(server.url, 'GET', docPath(publicDoc.id), { token: secret }),
      await api(server.url, 'POST', '/oscal/v1/catalog', {
        token: secret,
        body: markedCatalog('revoked').body,
        contentType: 'application/json',
      }),
      await api(server.url, 'GET', `/oscal/v1/jobs/${jobs.public.id}`, { token: secret }),
    ]) {
      assertErrorBody(res, 401, /token/i);
      assertNoneOf(res, [secret, publicDoc.marker]);
    }
  });

  test('an expired token gets 401 (created with --expires 3s, seen working, then used after expiry)', async () => {
    const wait = expiring.expiresAt + 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    for (const res of [
      await api(server.url, 'GET', '/oscal/v1/catalog', { token: expiring.secret }),
      await api(server.url, 'GET', docPath(publicDoc.id), { token: expiring.secret }),
    ]) {
      assertErrorBody(res, 401, /token/i);
      assertNoneOf(res, [expiring.secret, publicDoc.marker]);
    }
  });

  test('a malformed Authorization header gets 401, never an anonymous read of public content', async () => {
    const anonymous = await api(server.url, 'GET', docPath(publicDoc.id));
    assert.equal(anonymous.status, 200, 'the document is public');
    const owner = tokens.owner;
    for (const header of [
      'Basic b2xpdmU6c2VjcmV0',
      'Bearer',
      'Bearer ',
      `Bearer ${owner} extra`,
      `Token ${owner}`,
      owner,
      `Bearer ${owner}%`,
      '',
    ]) {
      const res = await api(server.url, 'GET', docPath(publicDoc.id), { headers: { authorization: header } });
      assertErrorBody(res, 401, /Authorization|Bearer|token/);
      assertNoneOf(res, [owner, publicDoc.marker, publicDoc.title], `header ${JSON.stringify(header.slice(0, 12))}`);
    }
  });
});

describe('after every mutation above', () => {
  for (const who of WHO) {
    test(`${who} still lists exactly what it may read`, async () => {
      await assertListFor(who);
    });
  }
});

describe('the matrix: validation report (GET /oscal/v1/catalog/{id}/validation)', () => {
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED['validation-get'][who][col(vis)];
      test(`validation of a ${vis} document, ${who}: ${status}`, async () => {
        const doc = vis === 'public' ? publicDoc : privateDoc;
        const res = await call(who, 'GET', `${docPath(doc.id)}/validation`);
        if (status !== 200) {
          assertErrorBody(res, status);
          assertConceals(res, fingerprints(doc), await call(who, 'GET', `${docPath(randomUUID())}/validation`));
          return;
        }
        assert.equal(res.status, 200, res.text);
        assert.deepEqual([res.json().valid, res.json().model], [true, 'catalog']);
      });
    }
  }
});

describe('the matrix: Metapath over a document (GET /oscal/v1/catalog/{id}/metapath)', () => {
  const path = `/metapath?expression=${encodeURIComponent('/catalog/metadata/title')}`;
  for (const vis of VIS) {
    for (const who of WHO) {
      const status = EXPECTED['metapath-get'][who][col(vis)];
      test(`metapath over a ${vis} document, ${who}: ${status}`, async () => {
        const doc = vis === 'public' ? publicDoc : privateDoc;
        const res = await call(who, 'GET', `${docPath(doc.id)}${path}`);
        if (status !== 200) {
          assertErrorBody(res, status);
          assertConceals(res, fingerprints(doc), await call(who, 'GET', `${docPath(randomUUID())}${path}`));
          return;
        }
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json().items[0].text, (await current(doc))?.title);
      });
    }
  }
});

const ORIGINALS = [
  { op: 'original-get', path: '/original' },
  { op: 'revision-original-get', path: '/revision/1/original' },
] as const;

describe('the matrix: the bytes as sent (GET /oscal/v1/catalog/{id}/original, .../revision/{n}/original)', () => {
  for (const { op, path } of ORIGINALS) {
    for (const vis of VIS) {
      for (const who of WHO) {
        const status = EXPECTED[op][who][col(vis)];
        test(`${op} ${vis} document, ${who}: ${status}`, async () => {
          const doc = vis === 'public' ? publicDoc : privateDoc;
          const res = await call(who, 'GET', `${docPath(doc.id)}${path}`);
          if (status !== 200) {
            assertErrorBody(res, status);
            assertNoneOf(res, fingerprints(doc));
            if (!LISTED[who][col(vis)])
              assertConceals(res, fingerprints(doc), await call(who, 'GET', `${docPath(randomUUID())}${path}`));
            return;
          }
          assert.equal(res.status, 200, res.text);
          assert.equal(res.headers['content-type'], 'application/json');
          assert.equal(res.text, doc.body, 'the bytes as the owner posted them');
        });
      }
    }
  }
});

/**
 * Constraint sets and validation of a body concern no document: registering and deleting a set
 * is for admins; reading sets and validating need a signed-in caller of any role.
 */
const SET_XML =
  '<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0"><context><metapath target="/catalog"/><constraints><expect id="has-title" target="metadata" test="exists(title)"/></constraints></context></metaschema-meta-constraints>';
const SET_OPS: Record<
  string,
  {
    request: (who: Who) => { method: string; path: string; body?: string; contentType?: string };
    expected: Record<Who, number>;
  }
> = {
  'constraint-set-put': {
    request: (who) => ({
      method: 'PUT',
      path: `/oscal/v1/constraint-set/by-${who.toLowerCase()}`,
      body: SET_XML,
      contentType: 'application/xml',
    }),
    expected: { anonymous: 401, reader: 403, writer: 403, otherOwner: 403, owner: 403, admin: 201 },
  },
  'constraint-set-list': {
    request: () => ({ method: 'GET', path: '/oscal/v1/constraint-set' }),
    expected: { anonymous: 401, reader: 200, writer: 200, otherOwner: 200, owner: 200, admin: 200 },
  },
  'constraint-set-get': {
    request: () => ({ method: 'GET', path: '/oscal/v1/constraint-set/shared' }),
    expected: { anonymous: 401, reader: 200, writer: 200, otherOwner: 200, owner: 200, admin: 200 },
  },
  'constraint-set-delete': {
    request: () => ({ method: 'DELETE', path: '/oscal/v1/constraint-set/shared' }),
    expected: { anonymous: 401, reader: 403, writer: 403, otherOwner: 403, owner: 403, admin: 204 },
  },
  validate: {
    request: () => ({
      method: 'POST',
      path: '/oscal/v1/validate?constraints=shared',
      body: markedCatalog('validated').body,
      contentType: 'application/json',
    }),
    expected: { anonymous: 401, reader: 200, writer: 200, otherOwner: 200, owner: 200, admin: 200 },
  },
};

describe('the matrix: constraint sets and POST /validate', () => {
  for (const [op, { request, expected }] of Object.entries(SET_OPS)) {
    for (const who of WHO) {
      test(`${op}, ${who}: ${expected[who]}`, async () => {
        assert.equal(
          (
            await api(server.url, 'PUT', '/oscal/v1/constraint-set/shared', {
              token: tokens.admin,
              body: SET_XML,
              contentType: 'application/xml',
            })
          ).status < 300,
          true,
        );
        const { method, path, ...body } = request(who);
        const res = await call(who, method, path, body);
        if (expected[who] >= 400) assertErrorBody(res, expected[who]);
        else assert.equal(res.status, expected[who], res.text);
        const sets = (await api(server.url, 'GET', '/oscal/v1/constraint-set', { token: tokens.admin }))
          .json()
          ['constraint-sets'].map((x: { name: string }) => x.name);
        if (op === 'constraint-set-put')
          assert.equal(sets.includes(`by-${who.toLowerCase()}`), expected[who] === 201, 'registered only when allowed');
        if (op === 'constraint-set-delete')
          assert.equal(sets.includes('shared'), expected[who] !== 204, 'deleted only when allowed');
      });
    }
  }
});
