/**
 * `oscal-depot import` and `export` against real servers: the whole shared content tree (every
 * model, three formats) into an empty server, exported, compared with what the server serves,
 * imported again (nothing changes), and an export read back into another server.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProgressBar } from '../src/cli/progress.js';
import { catalogJson } from './support/documents.js';
import { pngImage } from './support/files.js';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { freePort, TestServer } from './support/server.js';
import { CONTENT } from './support/shared.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

const MODELS = [
  'catalog',
  'profile',
  'component-definition',
  'system-security-plan',
  'assessment-plan',
  'assessment-results',
  'plan-of-action-and-milestones',
  'mapping-collection',
];
const PLURALS: Record<string, string> = {
  catalog: 'catalogs',
  profile: 'profiles',
  'component-definition': 'component-definitions',
  'system-security-plan': 'system-security-plans',
  'assessment-plan': 'assessment-plans',
  'assessment-results': 'assessment-results',
  'plan-of-action-and-milestones': 'plans-of-action-and-milestones',
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
          ms: Date.now() - started,
        });
      },
    );
  });
}

const summaryOf = (run: Run) => run.stdout.trimEnd().split('\n').at(-1);

/** Every document the token may read: model and id. */
async function everyDocument(server: TestServer, token: string): Promise<{ model: string; id: string }[]> {
  const all: { model: string; id: string }[] = [];
  for (const model of MODELS) {
    const res = await api(server.url, 'GET', `/oscal/v1/${model}?limit=1000`, { token });
    assert.equal(res.status, 200, res.text);
    for (const item of res.json()[`${model}-list`]) all.push({ model, id: item['content-uuid'] });
  }
  return all;
}

/** The newest version number of each document (registry interface: versions are the revisions). */
async function revisions(
  server: TestServer,
  token: string,
  docs: { model: string; id: string }[],
): Promise<Map<string, number>> {
  const numbers = new Map<string, number>();
  for (const { model, id } of docs) {
    const res = await api(server.url, 'GET', `/api/v1/${PLURALS[model]}/${id}/versions`, { token });
    assert.equal(res.status, 200, res.text);
    numbers.set(id, res.json()[0].version);
  }
  return numbers;
}

async function getJson(server: TestServer, token: string, path: string): Promise<any> {
  const res = await api(server.url, 'GET', path, {
    token,
    accept: 'application/json',
    headers: { 'accept-encoding': 'identity' },
  });
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return res.json();
}

describe('import of the shared content tree, export, and import again', () => {
  let server: TestServer;
  let token: string;
  const work = mkdtempSync(join(tmpdir(), 'oscal-import-'));
  const exported = join(work, 'export');
  let env: Record<string, string>;
  let first: Run;

  // NIST's 1.1.2 resolved baselines break a constraint of their own release at ERROR (see
  // docs/decisions/0052-constraint-findings-on-nist-content.md); a server that must store
  // them runs with --reject-level CRITICAL, as this one does, so that every document is stored.
  before(async () => {
    server = await TestServer.start({ args: ['--reject-level', 'CRITICAL'] });
    token = server.adminToken();
    env = { OSCAL_DEPOT_TOKEN: token, OSCAL_DEPOT_SERVER: server.url };
    first = await cli(['import', CONTENT], env);
  });
  after(() => stopWithin(server));

  test('every model and format is imported; each document once, its twins in other formats unchanged or skipped', async () => {
    assert.equal(first.code, 0, first.stdout + first.stderr);
    process.stderr.write(`# import of ${CONTENT}: ${first.ms} ms\n`);
    // 80 files hold 27 documents. The first file of each (JSON before XML before YAML) creates it;
    // a twin saying the same is unchanged. The 10 skipped are XML or YAML twins whose content
    // differs: NIST's JSON lost markup that our reading of the XML keeps
    // (docs/decisions/0006-markup-where-nist-loses-content.md), so sending both would flip the
    // document between them on every run.
    assert.equal(summaryOf(first), '80 files: 27 created, 0 updated, 43 unchanged, 10 skipped, 0 refused');
    const skipped = first.stdout.split('\n').filter((l) => l.startsWith('skipped'));
    assert.equal(skipped.length, 10);
    for (const line of skipped)
      assert.match(
        line,
        /\.(xml|yaml): other content for the document of .*\.(json|xml) \((catalog|system-security-plan) uuid [0-9a-f-]{36}\), which comes first/,
      );
    const docs = await everyDocument(server, token);
    assert.equal(docs.length, 27);
    assert.deepEqual(new Set(docs.map((d) => d.model)), new Set(MODELS.filter((m) => m !== 'mapping-collection')));
  });

  test('export writes every document; its JSON is what the server serves, its original the file sent', async () => {
    const run = await cli(['export', exported], env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      summaryOf(run)!,
      /^27 documents exported to .*: \d+ originals, 27 access settings, 0 attachments, 0 snapshots$/,
    );
    const sent = new Map([...first.stdout.matchAll(/^created +\S+ (\S+) {2}(.+)$/gm)].map((m) => [m[1]!, m[2]!]));
    for (const { model, id } of await everyDocument(server, token)) {
      const folder = join(exported, model, id);
      assert.deepEqual(
        JSON.parse(readFileSync(join(folder, 'document.json'), 'utf8')),
        await getJson(server, token, `/oscal/v1/${model}/${id}`),
      );
      assert.deepEqual(
        JSON.parse(readFileSync(join(folder, 'access.json'), 'utf8')),
        await getJson(server, token, `/oscal/v1/${model}/${id}/access`),
      );
      const marker = JSON.parse(readFileSync(join(folder, 'export.json'), 'utf8'));
      assert.equal(marker['content-uuid'], id);
      // The original is exported wherever the server offers it.
      const original = await api(server.url, 'GET', `/oscal/v1/${model}/${id}/original`, {
        token,
        headers: { 'accept-encoding': 'identity' },
      });
      if (original.status === 200)
        assert.deepEqual(readFileSync(join(folder, marker.original)), readFileSync(sent.get(id)!), id);
      else assert.equal(marker.original, undefined);
    }
    assert.deepEqual(readdirSync(exported).sort(), [
      'assessment-plan',
      'assessment-results',
      'catalog',
      'component-definition',
      'export.json',
      'plan-of-action-and-milestones',
      'profile',
      'system-security-plan',
    ]);
  });

  test('a second import, of the tree and of the export, reports everything unchanged and changes nothing', async () => {
    const docs = await everyDocument(server, token);
    const before = await revisions(server, token, docs);
    const again = await cli(['import', CONTENT], env);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal(summaryOf(again), '80 files: 0 created, 0 updated, 70 unchanged, 10 skipped, 0 refused');
    assert.doesNotMatch(again.stdout, /^(created|updated|refused)/m);
    const fromExport = await cli(['import', exported], env);
    assert.equal(fromExport.code, 0, fromExport.stdout + fromExport.stderr);
    assert.equal(fromExport.stdout, '27 files: 0 created, 0 updated, 27 unchanged, 0 skipped, 0 refused\n');
    assert.deepEqual(await revisions(server, token, docs), before);
    assert.equal((await everyDocument(server, token)).length, 27);
  });
});

describe('an export read back into another server; what import says when something is wrong', () => {
  let source: TestServer;
  let target: TestServer;
  const work = mkdtempSync(join(tmpdir(), 'oscal-export-'));

  before(async () => {
    [source, target] = await Promise.all([TestServer.start(), TestServer.start()]);
  });
  after(async () => {
    await Promise.all([stopWithin(source), stopWithin(target)]);
  });

  test('content, access settings, attachments and snapshots are exported; import restores the document and its access', async () => {
    const token = source.adminToken();
    const created = await api(source.url, 'POST', '/oscal/v1/catalog', {
      token,
      body: catalogJson(),
      contentType: 'application/json',
    });
    assert.equal(created.status, 201, created.text);
    const id = created.json()['catalog-list'][0]['content-uuid'];
    const access = { visibility: 'public', grants: [{ principal: 'user:alice', permission: 'write' }] };
    assert.equal(
      (
        await api(source.url, 'PUT', `/oscal/v1/catalog/${id}/access`, {
          token,
          body: JSON.stringify(access),
          contentType: 'application/json',
        })
      ).status,
      200,
    );
    const png = pngImage();
    const attached = await api(source.url, 'POST', `/oscal/v1/catalog/${id}/attachment`, {
      token,
      body: png,
      contentType: 'image/png',
      headers: { 'content-disposition': 'attachment; filename="boundary.png"' },
    });
    assert.equal(attached.status, 201, attached.text);
    const resource = attached.json().uuid;
    const snap = await api(source.url, 'POST', `/oscal/v1/catalog/${id}/snapshot`, {
      token,
      body: JSON.stringify({ snapshot: { description: 'submitted' } }),
      contentType: 'application/json',
    });
    assert.equal(snap.status, 201, snap.text);
    const snapshotId = snap.json()['snapshot-id'];

    const dir = join(work, 'one');
    const exported = await cli(['export', '--server', source.url, dir], { OSCAL_DEPOT_TOKEN: token });
    assert.equal(exported.code, 0, exported.stdout + exported.stderr);
    assert.match(
      exported.stdout,
      /^1 document exported to .*: \d original, 1 access setting, 1 attachment, 1 snapshot\n$/,
    );
    const folder = join(dir, 'catalog', id);
    assert.deepEqual(readFileSync(join(folder, 'attachments', resource, 'boundary.png')), png);
    assert.equal(
      JSON.parse(readFileSync(join(folder, 'attachments', 'list.json'), 'utf8'))['attachment-list'].length,
      1,
    );
    assert.deepEqual(
      JSON.parse(readFileSync(join(folder, 'snapshots', `${snapshotId}.json`), 'utf8')),
      await getJson(source, token, `/oscal/v1/catalog/${id}/snapshot/${snapshotId}`),
    );
    assert.equal(
      JSON.parse(readFileSync(join(folder, 'snapshots', 'list.json'), 'utf8'))['catalog-snapshot-list'][0][
        'snapshot-id'
      ],
      snapshotId,
    );

    const targetToken = target.adminToken();
    const imported = await cli(['import', '--server', target.url, '--token', targetToken, dir]);
    assert.equal(imported.code, 0, imported.stdout + imported.stderr);
    assert.equal(
      imported.stdout,
      `created    catalog ${id}  ${join(folder, 'document.json')} (access settings restored)\n1 file: 1 created, 0 updated, 0 unchanged, 0 skipped, 0 refused; access settings restored on 1\n`,
    );
    assert.deepEqual(
      await getJson(target, targetToken, `/oscal/v1/catalog/${id}`),
      await getJson(source, token, `/oscal/v1/catalog/${id}`),
    );
    const restored = await getJson(target, targetToken, `/oscal/v1/catalog/${id}/access`);
    assert.deepEqual({ visibility: restored.visibility, grants: restored.grants }, access);
    const again = await cli(['import', '--server', target.url, '--token', targetToken, dir]);
    assert.equal(again.stdout, '1 file: 0 created, 0 updated, 1 unchanged, 0 skipped, 0 refused\n');
  });

  test('a changed file replaces its document (no duplicate); refusals name the file and the reason, and exit 1', async () => {
    const token = target.adminToken();
    const dir = join(work, 'mixed');
    const original = catalogJson().replace(
      '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1',
      'a2c4e6f8-1b3d-4f5a-8c7e-9d0b1a2c3e4f',
    );
    mkdirSync(dir);
    const file = join(dir, 'catalog.json');
    writeFileSync(file, original);
    const one = await cli(['import', '--server', target.url, file], { OSCAL_DEPOT_TOKEN: token });
    assert.equal(one.code, 0, one.stdout + one.stderr);
    const id = /^created +catalog (\S+)/m.exec(one.stdout)![1]!;

    writeFileSync(file, original.replace('"version": "1.0"', '"version": "1.1"'));
    writeFileSync(
      join(dir, 'invalid.json'),
      original
        .replace('a2c4e6f8-1b3d-4f5a-8c7e-9d0b1a2c3e4f', 'b2c4e6f8-1b3d-4f5a-8c7e-9d0b1a2c3e4f')
        .replace('"2024-01-01T00:00:00Z"', '"2024-01-01"'),
    );
    writeFileSync(join(dir, 'notes.json'), '{"not": "oscal"}');
    writeFileSync(join(dir, 'notes.txt'), 'not looked at');
    const run = await cli(['import', '--server', target.url, dir], { OSCAL_DEPOT_TOKEN: token });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines[0], `updated    catalog ${id}  ${file}`);
    assert.match(
      lines[1]!,
      new RegExp(`^refused    ${escape(join(dir, 'invalid.json'))}: POST /catalog: 422 invalid-oscal: .*$`),
    );
    assert.match(
      lines[2]!,
      /^ {4}line 6:\d+ \/catalog\/metadata\/last-modified last-modified is "2024-01-01"; it must be a date and time/,
    );
    assert.match(
      lines[3]!,
      new RegExp(`^refused    ${escape(join(dir, 'notes.json'))}:1:2: "not" is not an OSCAL model; .* \\(not sent\\)$`),
    );
    assert.equal(lines.at(-1), '3 files: 0 created, 1 updated, 0 unchanged, 0 skipped, 2 refused');
    const catalogs = (await getJson(target, token, '/oscal/v1/catalog'))['catalog-list'].filter(
      (c: { 'content-uuid': string }) => c['content-uuid'] === id,
    );
    assert.equal(catalogs.length, 1);
    assert.equal(catalogs[0].version, '1.1');
  });

  test('no token, an unreachable server, a missing path: one line each, exit 1', async () => {
    const file = join(work, 'alone.json');
    writeFileSync(file, catalogJson());
    const noToken = await cli(['import', '--server', target.url, file], { OSCAL_DEPOT_TOKEN: '' });
    assert.equal(noToken.code, 1);
    assert.equal(
      noToken.stderr,
      'oscal-depot: import needs a token of a user who may create documents: give --token or set OSCAL_DEPOT_TOKEN\n',
    );
    const port = await freePort(); // nothing listens there
    const unreachable = await cli(['import', '--server', `http://127.0.0.1:${port}`, '--token', 'odt_x', file]);
    assert.equal(unreachable.code, 1);
    assert.equal(unreachable.stderr, `oscal-depot: cannot reach http://127.0.0.1:${port}/oscal/v1: ECONNREFUSED\n`);
    const badToken = await cli(['import', '--server', target.url, '--token', 'odt_wrong', file]);
    assert.equal(badToken.code, 1);
    assert.match(badToken.stderr, /^oscal-depot: GET \/catalog: 401 /);
    const missing = await cli(['export', '--server', target.url, join(work, 'export-missing')], {
      OSCAL_DEPOT_TOKEN: target.adminToken(),
    });
    assert.equal(missing.code, 0, missing.stderr);
    const notEmpty = await cli(['export', '--server', target.url, join(work, 'export-missing')], {
      OSCAL_DEPOT_TOKEN: target.adminToken(),
    });
    assert.equal(notEmpty.code, 1);
    assert.match(notEmpty.stderr, /^oscal-depot: .*export-missing is not empty; export into a new or empty folder\n$/);
    assert.equal(existsSync(join(work, 'export-missing', 'export.json')), true);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the progress bar', () => {
  /** What the bar writes to standard error, with standard error taken for a terminal of `columns` or not. */
  function drawn(isTTY: boolean, columns: number, draw: (bar: ProgressBar) => void): string {
    const stderr = process.stderr as NodeJS.WriteStream & { isTTY: boolean };
    const saved = {
      isTTY: Object.getOwnPropertyDescriptor(stderr, 'isTTY'),
      columns: Object.getOwnPropertyDescriptor(stderr, 'columns'),
      write: stderr.write,
    };
    let out = '';
    Object.defineProperty(stderr, 'isTTY', { value: isTTY, configurable: true });
    Object.defineProperty(stderr, 'columns', { value: columns, configurable: true });
    stderr.write = ((chunk: string) => ((out += chunk), true)) as typeof stderr.write;
    try {
      draw(new ProgressBar('importing', 4));
    } finally {
      stderr.write = saved.write;
      for (const key of ['isTTY', 'columns'] as const) {
        if (saved[key]) Object.defineProperty(stderr, key, saved[key]!);
        else delete (stderr as unknown as Record<string, unknown>)[key];
      }
    }
    return out;
  }

  test('on a terminal: one line redrawn in place, cut to the width, cleared at the end', () => {
    const out = drawn(true, 60, (bar) => {
      bar.update(1, '1 created');
      bar.update(4, '3 created, 1 unchanged');
      bar.done();
    });
    assert.equal(
      out,
      '\rimporting [######------------------] 1/4  1 created\x1b[K' +
        '\rimporting [########################] 4/4  3 created, 1 unch\x1b[K' + // 59 characters: the last column stays free
        '\r\x1b[K',
    );
    // A pseudo-terminal without a size says 0 columns: 80 are assumed.
    assert.match(
      drawn(true, 0, (bar) => bar.update(4, 'done')),
      /4\/4  done\x1b\[K$/,
    );
  });

  test('not on a terminal: nothing at all', () => {
    assert.equal(
      drawn(false, 80, (bar) => {
        bar.update(4);
        bar.done();
      }),
      '',
    );
  });
});
