/**
 * `oscal-depot backup` and `oscal-depot restore` against real `serve` processes: a store filled
 * over HTTP (JSON and XML documents, revisions, an attachment, a snapshot, a private document with
 * a grant, tokens of every kind, a constraint set) is backed up while its server runs, restored
 * into a new store of either backend, and a server started there must give the same answers to
 * the same GETs, and take the same tokens. Also: backups taken while a writer is busy are whole
 * snapshots; restore refuses a store with documents, and damaged files, changing nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import * as contentDisposition from 'content-disposition';
import { MIGRATIONS } from '../src/store/migrations.js';
import { catalogXml, UUID } from './support/documents.js';
import { pngImage } from './support/files.js';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog, retitled } from './support/marked-docs.js';
import { freshDatabase, SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { newDataDir, TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

const work = newDataDir();
const SET_XML =
  '<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0"><context><metapath target="/catalog"/><constraints><expect id="has-title" target="metadata" test="exists(title)"/></constraints></context></metaschema-meta-constraints>';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The CLI, with the store named only by the arguments (no DATABASE_URL from the environment). */
function cli(
  args: string[],
  io: { stdin?: string; stdout?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.OSCAL_DEPOT_DATA;
  const stdin = io.stdin === undefined ? 'ignore' : openSync(io.stdin, 'r');
  const stdout = io.stdout === undefined ? 'pipe' : openSync(io.stdout, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: [stdin, stdout, 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (typeof stdin === 'number') closeSync(stdin);
      if (typeof stdout === 'number') closeSync(stdout);
      resolve({ code, stdout: out, stderr: err });
    });
  });
}

async function ok(args: string[], io: { stdin?: string; stdout?: string } = {}): Promise<string> {
  const r = await cli(args, io);
  assert.equal(r.code, 0, `oscal-depot ${args.join(' ')}: ${r.stderr}`);
  return r.stderr;
}

type Who = 'admin' | 'alice' | 'bob' | 'carol' | 'dave';

/** What the source store holds, as its server was asked to make it. */
interface Fixture {
  tokens: Record<Who, string>;
  docs: { json: string; xml: string; private: string; draft: string };
  attachment: Buffer;
}

/** `status`, or for 'success' any 2xx (a replacement answers 200 or 204). */
async function expectStatus(res: Promise<ApiResponse>, status: number | 'success'): Promise<ApiResponse> {
  const r = await res;
  if (status === 'success') assert.ok(r.status >= 200 && r.status < 300, `${r.status}: ${r.text.slice(0, 500)}`);
  else assert.equal(r.status, status, r.text.slice(0, 500));
  return r;
}

async function populate(server: TestServer): Promise<Fixture> {
  const dir = server.dataDir;
  const [alice, bob, carol, dave] = await Promise.all([
    makeToken(dir, 'alice', 'writer'),
    makeToken(dir, 'bob', 'reader'),
    makeToken(dir, 'carol', 'reader', ['--expires', '30d']),
    makeToken(dir, 'dave', 'writer'),
  ]);
  await ok(['token', 'revoke', dave!.id, '--data', dir]);
  const tokens = {
    admin: server.adminToken(),
    alice: alice!.secret,
    bob: bob!.secret,
    carol: carol!.secret,
    dave: dave!.secret,
  };
  const as = (
    who: Who,
    method: string,
    path: string,
    body?: string | Buffer,
    contentType = 'application/json',
    headers: Record<string, string> = {},
  ) =>
    api(server.url, method, `/oscal/v1/catalog${path}`, {
      token: tokens[who],
      ...(body === undefined ? {} : { body, contentType }),
      headers,
    });

  // A JSON document with a second revision, an attachment (a third), a snapshot, made public.
  const marked = markedCatalog('backup json');
  const json = (await expectStatus(as('alice', 'POST', '', marked.body), 201)).json()['catalog-list'][0][
    'content-uuid'
  ] as string;
  await expectStatus(as('alice', 'PUT', `/${json}`, retitled(marked, 'Backed up, second revision')), 'success');
  const attachment = pngImage(64, 64);
  await expectStatus(
    as('alice', 'POST', `/${json}/attachment`, attachment, 'image/png', {
      'content-disposition': contentDisposition.create('picture.png'),
    }),
    201,
  );
  await expectStatus(
    as(
      'alice',
      'POST',
      `/${json}/snapshot`,
      JSON.stringify({ snapshot: { description: 'before the backup', labels: ['v1'], types: [] } }),
    ),
    201,
  );
  await expectStatus(as('alice', 'PUT', `/${json}/access`, JSON.stringify({ visibility: 'public' })), 200);

  // An XML document, with a second revision written as JSON.
  const xmlText = catalogXml('', '', '1.1.2').replace(UUID, randomUUID());
  const xml = (await expectStatus(as('alice', 'POST', '', xmlText, 'application/xml'), 201)).json()['catalog-list'][0][
    'content-uuid'
  ] as string;
  const asJson = (
    await expectStatus(
      api(server.url, 'GET', `/oscal/v1/catalog/${xml}`, { token: tokens.alice, accept: 'application/json' }),
      200,
    )
  ).json();
  asJson.catalog.metadata.title = 'XML document, second revision';
  await expectStatus(as('alice', 'PUT', `/${xml}`, JSON.stringify(asJson)), 'success');

  // A private document that bob may read through a grant; carol may not.
  const secret = markedCatalog('backup private');
  const priv = (await expectStatus(as('alice', 'POST', '', secret.body), 201)).json()['catalog-list'][0][
    'content-uuid'
  ] as string;
  await expectStatus(
    as('alice', 'PUT', `/${priv}/access`, JSON.stringify({ grants: [{ principal: 'user:bob', permission: 'read' }] })),
    200,
  );

  await expectStatus(
    api(server.url, 'PUT', '/oscal/v1/constraint-set/backup-set', {
      token: tokens.admin,
      body: SET_XML,
      contentType: 'application/xml',
    }),
    201,
  );
  // A draft kept with its constraint findings (a responsible party naming no role or party): marked not valid.
  const draft = markedCatalog('backup draft');
  draft.content.catalog.metadata['responsible-parties'] = [
    { 'role-id': 'no-such-role', 'party-uuids': [randomUUID()] },
  ];
  const kept = (
    await expectStatus(as('alice', 'POST', '?keep-findings=true', JSON.stringify(draft.content)), 201)
  ).json()['catalog-list'][0];
  assert.equal(kept.valid, false);
  return { tokens, docs: { json, xml, private: priv, draft: kept['content-uuid'] as string }, attachment };
}

/**
 * Everything a client can read of the fixture, as each token sees it. Every server of a restored
 * store is started with the source's public URL, as a real restore would be: the links to
 * attachments that revisions hold name the server they were written on.
 */
async function fingerprint(server: TestServer, fx: Fixture): Promise<Record<string, unknown>> {
  const get = async (path: string, who?: Who, accept?: string) => {
    const res = await api(server.url, 'GET', path, {
      ...(who ? { token: fx.tokens[who] } : {}),
      ...(accept ? { accept } : {}),
    });
    const type = String(res.headers['content-type'] ?? '');
    const textual = /json|xml|yaml|text/.test(type);
    return { status: res.status, type, body: textual ? res.text : sha256(res.body) };
  };
  const json = (answer: { body: string }) => JSON.parse(answer.body);
  const print: Record<string, unknown> = {};
  for (const [name, id] of Object.entries(fx.docs)) {
    const base = `/oscal/v1/catalog/${id}`;
    const doc: Record<string, unknown> = {};
    for (const accept of ['application/json', 'application/xml', 'application/yaml'])
      doc[accept] = await get(base, 'admin', accept);
    const versions = await get(`/api/v1/catalogs/${id}/versions`, 'admin');
    doc.versions = versions;
    for (const v of json(versions) as { version: number }[])
      doc[`version ${v.version}`] = await get(`/api/v1/catalogs/${id}/versions/${v.version}`, 'admin');
    const attachments = await get(`${base}/attachment`, 'admin');
    doc.attachments = attachments;
    for (const a of json(attachments)['attachment-list'] as { uuid: string }[])
      doc[`attachment ${a.uuid}`] = await get(`${base}/attachment/${a.uuid}`, 'admin');
    const snapshots = await get(`${base}/snapshot`, 'admin');
    doc.snapshots = snapshots;
    for (const s of json(snapshots)['catalog-snapshot-list'] as { 'snapshot-id': string }[]) {
      doc[`snapshot ${s['snapshot-id']}`] = await get(
        `${base}/snapshot/${s['snapshot-id']}`,
        'admin',
        'application/xml',
      );
    }
    doc.access = await get(`${base}/access`, 'admin');
    for (const who of ['alice', 'bob', 'carol', 'dave'] as const) doc[`read by ${who}`] = (await get(base, who)).status;
    doc['read anonymously'] = (await get(base)).status;
    print[name] = doc;
  }
  for (const who of ['admin', 'alice', 'bob', 'carol', 'dave'] as const)
    print[`list for ${who}`] = await get('/oscal/v1/catalog?limit=100', who);
  print.audit = await get('/oscal/v1/audit?limit=1000', 'admin');
  print['constraint sets'] = await get('/oscal/v1/constraint-set', 'admin');
  print['constraint set'] = await get('/oscal/v1/constraint-set/backup-set', 'admin');
  return print;
}

/** `token list`: ids, users, roles, creation and expiry times, revocations. */
const tokenList = async (storeArgs: string[]) => (await cli(['token', 'list', ...storeArgs])).stdout;

/** Facts the fingerprint could only show indirectly, asserted outright. */
function assertFixtureShape(print: Record<string, any>, fx: Fixture): void {
  const versions = JSON.parse(print.json.versions.body) as { version: number }[];
  assert.deepEqual(
    versions.map((v) => v.version),
    [3, 2, 1],
  );
  assert.equal(print.json['read by carol'], 200, 'public');
  assert.equal(print.private['read by bob'], 200, 'granted');
  assert.equal(print.private['read by carol'], 404, 'private');
  assert.equal(print.private['read by dave'], 401, 'revoked');
  const attachments = Object.entries(print.json).filter(([k]) => k.startsWith('attachment '));
  assert.equal(attachments.length, 1);
  assert.equal((attachments[0]![1] as { body: string }).body, sha256(fx.attachment));
  assert.equal(JSON.parse(print.json.snapshots.body)['catalog-snapshot-list'].length, 1);
  assert.match(print.xml['application/xml'].body, /XML document, second revision/);
  const draftVersions = JSON.parse(print.draft.versions.body) as { version: number; valid: boolean }[];
  assert.deepEqual(
    draftVersions.map((v) => [v.version, v.valid]),
    [[1, false]],
    'the draft is marked not valid',
  );
  const listed = JSON.parse(print['list for admin'].body)['catalog-list'] as {
    'content-uuid': string;
    valid: boolean;
  }[];
  assert.deepEqual(
    listed.filter((i) => !i.valid).map((i) => i['content-uuid']),
    [fx.docs.draft],
  );
  assert.equal(JSON.parse(print.audit.body)['audit-list'].length > 10, true);
}

let source: TestServer | undefined;
const started: TestServer[] = [];
const databases: { drop: () => Promise<void> }[] = [];
let fx: Fixture;
let expected: Record<string, unknown>;
let expectedTokens: string;
/** A backup of the fixture, taken from the running SQLite server. */
const sqliteBackup = join(work, 'sqlite.backup');

/**
 * A server; on a restored store (`restored`), with the source's public URL. The revoked token is
 * tried often: no limit on refused credentials.
 */
async function serve(args: string[], dataDir = newDataDir(), restored = true): Promise<TestServer> {
  const options = ['--auth-failure-limit', '0', ...(restored && source ? ['--public-url', source.url] : []), ...args];
  const server = await TestServer.start({ dataDir, args: options });
  started.push(server);
  return server;
}

before(async () => {
  source = await serve([], newDataDir(), false);
  fx = await populate(source);
  expected = await fingerprint(source, fx);
  assertFixtureShape(expected, fx);
  expectedTokens = await tokenList(['--data', source.dataDir]);
});

after(async () => {
  for (const server of started) await stopWithin(server);
  for (const db of databases) await db.drop();
});

describe('backup and restore, SQLite', () => {
  test('a backup taken while the server runs restores into a new data directory: the same answers, the same tokens', async () => {
    const said = await ok(['backup', '--data', source!.dataDir, sqliteBackup]);
    assert.match(
      said,
      /^backed up 4 documents \(7 revisions, 1 attachment, 1 snapshot\), 5 users, 5 tokens, \d+ audit entries, 1 constraint set, \d+ jobs?, \d+ blobs to /,
    );
    assert.equal(
      statSync(sqliteBackup).mode & 0o777,
      0o600,
      'readable by its owner only: it holds private documents and token hashes',
    );
    // The format: gzip'd JSON lines, a header first with the schema version, a final record last.
    const lines = gunzipSync(readFileSync(sqliteBackup)).toString('latin1').split('\n');
    const header = JSON.parse(lines[0]!);
    assert.deepEqual(
      { ...header, createdAt: undefined },
      {
        format: 'oscal-depot-backup',
        formatVersion: 1,
        schemaVersion: Math.max(...MIGRATIONS.map((m) => m.version)),
        source: 'sqlite',
        createdAt: undefined,
      },
    );
    assert.match(lines.at(-2)!, /^\{"complete":true,"tables":\{"users":5,"tokens":5,/);

    const target = newDataDir();
    const restored = await ok(['restore', '--data', target, sqliteBackup]);
    assert.match(restored, /^restored 4 documents \(7 revisions, 1 attachment, 1 snapshot\), 5 users, 5 tokens/m);
    assert.equal(existsSync(join(target, 'admin-token')), false);
    const copy = await serve([], target);
    assert.equal(
      existsSync(join(target, 'admin-token')),
      false,
      'the restored tokens are there: no first admin token is made',
    );
    assert.deepEqual(await fingerprint(copy, fx), expected);
    assert.equal(await tokenList(['--data', target]), expectedTokens);
  });

  test('restore into a store that holds documents is refused and changes nothing', async () => {
    const before = await fingerprint(source!, fx);
    const file = join(source!.dataDir, 'oscal-depot.sqlite');
    const rowsBefore = readRows(file);
    const r = await cli(['restore', '--data', source!.dataDir, sqliteBackup]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      r.stderr,
      `oscal-depot: cannot restore into the store in ${source!.dataDir}: the target store holds 4 documents: restore only into an empty store (a new data directory or an empty database); nothing was changed\n`,
    );
    assert.deepEqual(readRows(file), rowsBefore);
    assert.deepEqual(await fingerprint(source!, fx), before);
  });

  test('a store without documents (a server was started on it once) is replaced whole, its first admin token included', async () => {
    const fresh = await serve([], newDataDir(), false);
    const firstAdmin = fresh.adminToken();
    await stopWithin(fresh);
    const r = await ok(['restore', '--data', fresh.dataDir, sqliteBackup]);
    assert.match(
      r,
      /^the store had no document; its other rows were replaced by the backup's \(1 audit_log, 1 tokens, 1 users\)$/m,
    );
    const copy = await serve([], fresh.dataDir);
    assert.equal(
      (await api(copy.url, 'GET', '/oscal/v1/audit', { token: firstAdmin })).status,
      401,
      'the replaced token is gone',
    );
    assert.deepEqual(await fingerprint(copy, fx), expected);
  });

  test('a damaged, truncated or foreign file is refused and leaves the target as it was', async () => {
    const target = newDataDir();
    const notGzip = join(work, 'not-a-backup');
    writeFileSync(notGzip, 'hello\n');
    let r = await cli(['restore', '--data', target, notGzip]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `oscal-depot: cannot restore ${notGzip}: this is not an oscal-depot backup (it is not gzip-compressed); nothing was changed\n`,
    );
    const otherGzip = join(work, 'other.gz');
    writeFileSync(otherGzip, gzipSync('{"some":"json"}\n'));
    r = await cli(['restore', '--data', target, otherGzip]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /: this is not an oscal-depot backup; nothing was changed\n$/);
    assert.equal(
      existsSync(join(target, 'oscal-depot.sqlite')),
      false,
      'no store is made for a file that is not a backup',
    );

    // Cut short: the whole restore, one transaction, is rolled back.
    const truncated = join(work, 'truncated.backup');
    copyFileSync(sqliteBackup, truncated);
    truncateSync(truncated, Math.floor(statSync(sqliteBackup).size * 0.6));
    r = await cli(['restore', '--data', target, truncated]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^oscal-depot: cannot restore .*truncated\.backup: the backup is (damaged or truncated|ends in the middle of a record)/,
    );
    // One row changed on the way (the count of a table): refused at that table's end.
    const lines = gunzipSync(readFileSync(sqliteBackup));
    const altered = join(work, 'altered.backup');
    writeFileSync(
      altered,
      gzipSync(
        Buffer.from(
          lines.toString('latin1').replace(/\{"end":"documents","rows":4\}/, '{"end":"documents","rows":5}'),
          'latin1',
        ),
      ),
    );
    r = await cli(['restore', '--data', target, altered]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /table documents should have 5 rows and has 4: the backup is damaged; nothing was changed\n$/,
    );
    assert.deepEqual(readRows(join(target, 'oscal-depot.sqlite')), {}, 'nothing of the partial restores is left');

    // A backup that fails leaves no file, not even a partial one.
    const nothing = newDataDir();
    r = await cli(['backup', '--data', nothing, join(nothing, 'none.backup')]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `oscal-depot: cannot back up the store in ${nothing}: there is no store at ${join(nothing, 'oscal-depot.sqlite')}\n`,
    );
    assert.deepEqual(readdirSync(nothing), []);

    // The same target then takes the whole backup.
    await ok(['restore', '--data', target, sqliteBackup]);
    assert.deepEqual(await fingerprint(await serve([], target), fx), expected);
  });

  test('backups taken while a writer is busy succeed, and each is one consistent snapshot', async () => {
    await backupUnderLoad(source!, ['--data', source!.dataDir], ['--data', newDataDir()]);
  });
});

describe('backup and restore across backends, PostgreSQL', { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE }, () => {
  let pgUrl: string;
  let pgServer: TestServer;

  before(async () => {
    const db = await freshDatabase();
    databases.push(db);
    pgUrl = db.url;
  });

  test('a SQLite backup restores into PostgreSQL: the same answers, the same tokens', async () => {
    const said = await ok(['restore', '--database-url', pgUrl, sqliteBackup]);
    assert.match(said, /into the PostgreSQL store\nindexed 4 documents for search\n$/);
    assert.doesNotMatch(said, /postgres:\/\//, 'the URL (which may hold a password) is not printed');
    pgServer = await serve(['--database-url', pgUrl]);
    assert.deepEqual(await fingerprint(pgServer, fx), expected);
    assert.equal(await tokenList(['--database-url', pgUrl]), expectedTokens);
    // Numbering continues where the source left off: the next revision is 4, the next audit entry follows the last.
    const audit = JSON.parse((expected.audit as { body: string }).body)['audit-list'] as { id: number }[];
    const marked = await api(pgServer.url, 'GET', `/oscal/v1/catalog/${fx.docs.json}`, {
      token: fx.tokens.alice,
      accept: 'application/json',
    });
    const put = await api(pgServer.url, 'PUT', `/oscal/v1/catalog/${fx.docs.json}`, {
      token: fx.tokens.alice,
      body: marked.text,
      contentType: 'application/json',
    });
    assert.ok(put.status === 200 || put.status === 204, put.text);
    const versions = (
      await api(pgServer.url, 'GET', `/api/v1/catalogs/${fx.docs.json}/versions`, { token: fx.tokens.alice })
    ).json();
    assert.deepEqual(
      versions.map((v: { version: number }) => v.version),
      [4, 3, 2, 1],
    );
    const [newest] = (await api(pgServer.url, 'GET', '/oscal/v1/audit?limit=1', { token: fx.tokens.admin })).json()[
      'audit-list'
    ];
    assert.equal(newest.id, audit[0]!.id + 1);
    assert.equal(newest.action, 'document.replace');
    // …and the new revision's record id is new (the registry's ETag of a version is built on it).
    await stopWithin(pgServer);
    started.splice(started.indexOf(pgServer), 1);
  });

  test('restore into a PostgreSQL store that holds documents is refused and changes nothing', async () => {
    const r = await cli(['restore', '--database-url', pgUrl, sqliteBackup]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'oscal-depot: cannot restore into the PostgreSQL store: the target store holds 4 documents: restore only into an empty store (a new data directory or an empty database); nothing was changed\n',
    );
  });

  test('a PostgreSQL backup (to standard output, while its server runs) restores into SQLite and back into PostgreSQL', async () => {
    const db = await freshDatabase();
    databases.push(db);
    await ok(['restore', '--database-url', db.url, sqliteBackup]);
    const server = await serve(['--database-url', db.url]);
    const file = join(work, 'postgres.backup');
    const said = await ok(['backup', '--database-url', db.url, '-'], { stdout: file });
    assert.match(said, /^backed up 4 documents \(7 revisions, 1 attachment, 1 snapshot\), 5 users, 5 tokens/);
    assert.equal(JSON.parse(gunzipSync(readFileSync(file)).toString('latin1').split('\n')[0]!).source, 'postgres');

    const target = newDataDir();
    await ok(['restore', '--data', target, '-'], { stdin: file });
    assert.deepEqual(await fingerprint(await serve([], target), fx), expected);
    assert.equal(await tokenList(['--data', target]), expectedTokens);

    const again = await freshDatabase();
    databases.push(again);
    await ok(['restore', '--database-url', again.url, file]);
    assert.deepEqual(await fingerprint(await serve(['--database-url', again.url]), fx), expected);
    await stopWithin(server);
  });

  test('PostgreSQL backups taken while a writer is busy succeed, and each is one consistent snapshot', async () => {
    const db = await freshDatabase();
    databases.push(db);
    await ok(['restore', '--database-url', db.url, sqliteBackup]);
    const server = await serve(['--database-url', db.url]);
    const target = await freshDatabase();
    databases.push(target);
    await backupUnderLoad(server, ['--database-url', db.url], ['--database-url', target.url]);
  });

  test('a backup of an older schema restores into a new store of either backend, which is then migrated', async () => {
    const older = Math.max(...MIGRATIONS.map((m) => m.version)) - 1;
    const secret = `odt_${randomBytes(32).toString('base64url')}`;
    const dir = newDataDir();
    const db = new Database(join(dir, 'oscal-depot.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    for (const m of MIGRATIONS.filter((m) => m.version <= older)) {
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
        m.version,
        m.description,
        new Date().toISOString(),
      );
    }
    db.prepare("INSERT INTO users VALUES ('u1', 'old-admin', '2020-01-01T00:00:00.000Z')").run();
    db.prepare(
      "INSERT INTO tokens (id, user_id, hash, role, created_at) VALUES ('t1', 'u1', ?, 'admin', '2020-01-01T00:00:00.000Z')",
    ).run(sha256(Buffer.from(secret)));
    db.prepare(
      "INSERT INTO audit_log (at, actor, action, detail) VALUES ('2020-01-01T00:00:00.000Z', 'cli:old', 'token.create', '{}')",
    ).run();
    db.close();
    const file = join(work, 'older.backup');
    await ok(['backup', '--data', dir, file]);
    assert.equal(JSON.parse(gunzipSync(readFileSync(file)).toString('latin1').split('\n')[0]!).schemaVersion, older);

    // Not into an existing store, even one without documents: its schema is not the backup's.
    const existing = await serve([], newDataDir(), false);
    await stopWithin(existing);
    const refused = await cli(['restore', '--data', existing.dataDir, file]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `the backup holds schema ${older}, older than this oscal-depot's ${older + 1}: it can be restored only into a new store`,
      ),
    );

    const pg = await freshDatabase();
    databases.push(pg);
    for (const args of [
      ['--data', newDataDir()],
      ['--database-url', pg.url],
    ]) {
      await ok(['restore', ...args, file]);
      const server = await serve(args);
      const audit = await api(server.url, 'GET', '/oscal/v1/audit', { token: secret });
      assert.equal(audit.status, 200, audit.text);
      assert.equal(audit.json()['audit-list'][0].actor, 'cli:old');
      const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
        token: secret,
        body: markedCatalog('after migration').body,
        contentType: 'application/json',
      });
      assert.equal(created.status, 201, created.text);
    }
  });
});

/** Row counts of every table of a SQLite store ({} when there is none). */
function readRows(file: string): Record<string, number> {
  if (!existsSync(file)) return {};
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations', 'sqlite_sequence')",
      )
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((t) => [t, db.prepare(`SELECT COUNT(*) FROM "${t}"`).pluck().get() as number]),
    );
  } finally {
    db.close();
  }
}

/**
 * A writer replaces one document as fast as the server lets it while backups are taken (the store
 * is made large enough that reading it takes a while). Each backup must succeed; the last is
 * restored into `targetArgs`, where the document's revisions, its current content and its audit
 * entries must agree: all of one instant, none of a later write.
 */
async function backupUnderLoad(server: TestServer, storeArgs: string[], targetArgs: string[]): Promise<void> {
  const token = fx.tokens.alice;
  const call = (method: string, path: string, body?: string | Buffer, contentType = 'application/json') =>
    api(server.url, method, `/oscal/v1/catalog${path}`, {
      token,
      ...(body === undefined ? {} : { body, contentType }),
    });
  const bulk = (await expectStatus(call('POST', '', markedCatalog('bulk').body), 201)).json()['catalog-list'][0][
    'content-uuid'
  ];
  for (let i = 0; i < 4; i++)
    await expectStatus(
      call('POST', `/${bulk}/attachment`, randomBytes(2 * 1024 * 1024), 'application/octet-stream'),
      201,
    );
  const marked = markedCatalog('busy');
  const busy = (await expectStatus(call('POST', '', marked.body), 201)).json()['catalog-list'][0][
    'content-uuid'
  ] as string;

  let writes = 0;
  let stop = false;
  const writer = (async () => {
    while (!stop) {
      await expectStatus(call('PUT', `/${busy}`, retitled(marked, `busy write ${writes + 1}`)), 'success');
      writes++;
    }
  })();
  const file = join(work, `busy-${randomUUID()}.backup`);
  let window = { from: 0, to: 0 };
  try {
    while (writes < 3) await new Promise((r) => setTimeout(r, 10));
    for (let round = 0; round < 2; round++) {
      const from = writes;
      await ok(['backup', ...storeArgs, file]);
      window = { from, to: writes };
      assert.ok(window.to > window.from, `the writer wrote while the backup ran (${window.from} → ${window.to})`);
    }
  } finally {
    stop = true;
    await writer;
  }

  await ok(['restore', ...targetArgs, file]);
  const copy = await serve(
    targetArgs[0] === '--data' ? [] : targetArgs,
    targetArgs[0] === '--data' ? targetArgs[1] : undefined,
  );
  const versions = (await api(copy.url, 'GET', `/api/v1/catalogs/${busy}/versions`, { token }))
    .json()
    .map((v: { version: number }) => v.version) as number[];
  const n = versions[0]!;
  assert.deepEqual(
    versions,
    Array.from({ length: n }, (_, i) => n - i),
    'every revision up to the newest, none missing',
  );
  assert.ok(
    n - 1 >= window.from && n - 1 <= window.to + 1,
    `the snapshot is of an instant during the backup (${n - 1} writes, ${window.from} to ${window.to} seen)`,
  );
  const current = (
    await api(copy.url, 'GET', `/oscal/v1/catalog/${busy}`, { token, accept: 'application/json' })
  ).json();
  assert.equal(current.catalog.metadata.title, `busy write ${n - 1}`, 'the document is its newest revision');
  const audit = (
    await api(copy.url, 'GET', `/oscal/v1/audit?limit=1000&document=${busy}`, { token: fx.tokens.admin })
  ).json()['audit-list'] as { action: string }[];
  assert.deepEqual(
    audit.map((e) => e.action),
    [...Array(n - 1).fill('document.replace'), 'document.create'],
    'one audit entry per revision, as the writes committed them',
  );
  const attachments = (await api(copy.url, 'GET', `/oscal/v1/catalog/${bulk}/attachment`, { token })).json()[
    'attachment-list'
  ];
  assert.equal(attachments.length, 4);
}
