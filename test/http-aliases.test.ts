/**
 * Document aliases over real HTTP: NIST's published baseline profiles, stored unchanged after
 * their catalog, resolve on the server as they do on the command line, whether they name the
 * catalog by a relative file name (a849dbc), through a back-matter resource whose rlinks are
 * relative paths (88bb8de) or by a public URL; a document's metadata links and document-ids are
 * aliases too; an import that finds nothing says what was tried and how to fix it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { multipartBody } from './support/registry-docs.js';
import { scrub } from './support/resolve.js';
import { createTokenFor, TestServer } from './support/server.js';
import { CONTENT, REV5_A849 } from './support/shared.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

type Json = Record<string, any>;

const REV5_88BB = join(CONTENT, 'oscal-content@88bb8de', 'nist.gov', 'SP800-53', 'rev5');
const CATALOG_XML = join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_catalog.xml');
const RAW_URL =
  'https://raw.githubusercontent.com/usnistgov/oscal-content/main/nist.gov/SP800-53/rev5/json/NIST_SP-800-53_rev5_catalog.json';

let server: TestServer;
let owner: string;
let other: string;

before(async () => {
  server = await TestServer.start();
  owner = createTokenFor(server.dataDir, 'olga', 'writer');
  other = createTokenFor(server.dataDir, 'otto', 'writer');
});
after(() => server.stop());

const call = (method: string, path: string, token: string, body?: string, contentType?: string) =>
  api(server.url, method, `/oscal/v1${path}`, {
    token,
    ...(body === undefined ? {} : { body, contentType: contentType ?? 'application/json' }),
  });

/** Stores a file as it is; the path of the new document, from its Location. */
async function store(model: string, file: string, token = owner, query = ''): Promise<string> {
  const r = await call(
    'POST',
    `/${model}${query}`,
    token,
    readFileSync(file, 'utf8'),
    file.endsWith('.xml') ? 'application/xml' : 'application/json',
  );
  assert.equal(r.status, 201, r.text);
  return new URL(String(r.headers.location)).pathname.replace('/oscal/v1', '');
}

async function storeJson(model: string, doc: Json, token = owner): Promise<string> {
  const r = await call('POST', `/${model}`, token, JSON.stringify(doc));
  assert.equal(r.status, 201, r.text);
  return new URL(String(r.headers.location)).pathname.replace('/oscal/v1', '');
}

const resolvedOf = (profilePath: string, token = owner): Promise<ApiResponse> =>
  call('GET', `${profilePath}/resolved-catalog`, token);

/** The CLI's resolution of a profile file, the catalog mapped to NIST's a849dbc file where it is not beside the profile. */
function cliResolution(profileFile: string, hrefs: string[] = []): Json {
  const maps = hrefs.flatMap((href) => ['--map', `${href}=${CATALOG_XML}`]);
  const r = spawnSync(process.execPath, [BIN, 'resolve', profileFile, '--to', 'json', ...maps], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe("NIST's published profiles, stored unchanged, resolve through their catalog's alias", () => {
  const lowA849 = join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_LOW-baseline_profile.xml');
  let lowPath: string;

  test('before the catalog is stored, the 422 names the import and both fixes', async () => {
    lowPath = await store('profile', lowA849);
    const r = assertErrorBody(await resolvedOf(lowPath), 422);
    assert.equal(r.code, 'import-not-found');
    assert.match(r.message, /NIST_SP-800-53_rev5_catalog\.xml/);
    assert.match(r.message, /\?alias=/);
    assert.match(r.message, /PUT \/oscal\/v1\/\{model\}\/\{id\}\/aliases/);
    assert.match(r.message, /--resolve-map/);
  });

  test('the catalog stored with ?alias=<its file name>: the a849dbc LOW baseline resolves, as the CLI resolves it', async () => {
    const catalogPath = await store('catalog', CATALOG_XML, owner, '?alias=NIST_SP-800-53_rev5_catalog.xml');
    const aliases = await call('GET', `${catalogPath}/aliases`, owner);
    assert.equal(aliases.status, 200, aliases.text);
    assert.deepEqual(aliases.json().aliases, ['NIST_SP-800-53_rev5_catalog.xml']);
    const r = await resolvedOf(lowPath);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(scrub(r.json()), scrub(cliResolution(lowA849)));
  });

  for (const level of ['MODERATE', 'HIGH', 'PRIVACY']) {
    test(`a849dbc ${level} (XML, importing "NIST_SP-800-53_rev5_catalog.xml"), as the CLI resolves it`, async () => {
      const file = join(REV5_A849, 'xml', `NIST_SP-800-53_rev5_${level}-baseline_profile.xml`);
      const r = await resolvedOf(await store('profile', file));
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(scrub(r.json()), scrub(cliResolution(file)));
    });
  }

  for (const level of ['LOW', 'MODERATE', 'HIGH', 'PRIVACY']) {
    test(`88bb8de ${level}: the import is a #uuid resource whose rlinks are relative paths`, async () => {
      const file = join(REV5_88BB, 'json', `NIST_SP-800-53_rev5_${level}-baseline_profile.json`);
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      assert.match(doc.profile.imports[0].href, /^#/);
      const path = await store('profile', file);
      const r = await resolvedOf(path);
      assert.equal(r.status, 200, r.text);
      const rlinks = doc.profile['back-matter'].resources.flatMap((res: Json) =>
        (res.rlinks ?? []).map((l: Json) => l.href),
      );
      assert.deepEqual(scrub(r.json()), scrub(cliResolution(file, rlinks)));
    });
  }

  test("a profile importing the catalog by NIST's public URL: found by the file name the URL ends in, and by the URL once given", async () => {
    const doc = JSON.parse(
      readFileSync(join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_MODERATE-baseline_profile.json'), 'utf8'),
    );
    doc.profile.uuid = randomUUID();
    doc.profile.imports[0].href = RAW_URL;
    const path = await storeJson('profile', doc);
    const r = await resolvedOf(path);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.json().catalog.groups.length > 10);
  });
});

describe('aliases from metadata, access, ambiguity, and the aliases endpoint', () => {
  const small = (title: string, metadataExtra: Json = {}): Json => ({
    catalog: {
      uuid: randomUUID(),
      metadata: {
        title,
        'last-modified': '2026-01-01T00:00:00Z',
        version: '1',
        'oscal-version': '1.1.2',
        ...metadataExtra,
      },
      controls: [
        {
          id: `${title.toLowerCase()}-1`,
          title: 'One',
          parts: [{ id: `${title.toLowerCase()}-1_smt`, name: 'statement', prose: 'Do it.' }],
        },
      ],
    },
  });
  const importing = (href: string): Json => ({
    profile: {
      uuid: randomUUID(),
      metadata: { title: 'P', 'last-modified': '2026-01-01T00:00:00Z', version: '1', 'oscal-version': '1.1.2' },
      imports: [{ href, 'include-all': {} }],
    },
  });

  test("a catalog's canonical link and document-id are aliases without anything given; they follow its current revision", async () => {
    const catalog = small('Linked', {
      links: [{ href: 'https://example.org/catalogs/linked.json', rel: 'canonical' }],
      'document-ids': [{ scheme: 'https://example.org/ids', identifier: 'urn:example:catalog:linked' }],
    });
    const catalogPath = await storeJson('catalog', catalog);
    for (const href of [
      'https://example.org/catalogs/linked.json',
      'urn:example:catalog:linked',
      '../elsewhere/linked.xml',
    ]) {
      const r = await resolvedOf(await storeJson('profile', importing(href)));
      assert.equal(r.status, 200, `${href}: ${r.text}`);
      assert.deepEqual(
        r.json().catalog.controls.map((c: Json) => c.id),
        ['linked-1'],
      );
    }
    const aliases = (await call('GET', `${catalogPath}/aliases`, owner)).json();
    assert.deepEqual(aliases, {
      aliases: [],
      'from-metadata': ['https://example.org/catalogs/linked.json', 'urn:example:catalog:linked'],
    });
    delete catalog.catalog.metadata.links;
    assert.equal((await call('PUT', catalogPath, owner, JSON.stringify(catalog))).status, 204);
    assert.equal(
      (await resolvedOf(await storeJson('profile', importing('https://example.org/catalogs/linked.json')))).status,
      422,
      'the link is gone with the revision that had it',
    );
  });

  test('a document the caller may not read is not found by its alias; its owner finds it', async () => {
    const catalog = small('Secret');
    const catalogPath = await storeJson('catalog', catalog, other);
    assert.equal(
      (await call('PUT', `${catalogPath}/aliases`, other, JSON.stringify({ aliases: ['secret-catalog.json'] }))).status,
      200,
    );
    assertErrorBody(
      await resolvedOf(await storeJson('profile', importing('secret-catalog.json'))),
      422,
      /secret-catalog\.json/,
    );
    assert.equal(
      (await resolvedOf(await storeJson('profile', importing('secret-catalog.json'), other), other)).status,
      200,
    );
  });

  test('two readable documents under one alias: 422 naming both; the more specific alias (the full URL) settles it', async () => {
    const a = await storeJson('catalog', small('Twin'));
    const b = await storeJson('catalog', small('Twin'));
    for (const path of [a, b])
      assert.equal(
        (await call('PUT', `${path}/aliases`, owner, JSON.stringify({ aliases: ['twin.xml'] }))).status,
        200,
      );
    const r = assertErrorBody(
      await resolvedOf(await storeJson('profile', importing('https://example.org/x/twin.json'))),
      422,
    );
    assert.match(
      r.message,
      new RegExp(`${a.split('/').pop()}.*${b.split('/').pop()}|${b.split('/').pop()}.*${a.split('/').pop()}`),
    );
    assert.equal(
      (
        await call(
          'PUT',
          `${a}/aliases`,
          owner,
          JSON.stringify({ aliases: ['twin.xml', 'https://example.org/x/twin.json'] }),
        )
      ).status,
      200,
    );
    assert.equal(
      (await resolvedOf(await storeJson('profile', importing('https://example.org/x/twin.json')))).status,
      200,
    );
  });

  test("a registry upload's file name is an alias: a profile importing that name (in another format, from a URL) finds it", async () => {
    const catalog = small('Uploaded');
    const form = multipartBody([
      {
        name: 'file',
        filename: 'uploaded-catalog.json',
        contentType: 'application/json',
        content: JSON.stringify(catalog),
      },
    ]);
    const up = await api(server.url, 'POST', '/api/upload', {
      token: owner,
      body: form.body,
      contentType: form.contentType,
    });
    assert.equal(up.status, 201, up.text);
    assert.deepEqual((await call('GET', `/catalog/${up.json()['content-uuid']}/aliases`, owner)).json().aliases, [
      'uploaded-catalog.json',
    ]);
    const r = await resolvedOf(
      await storeJson('profile', importing('https://example.org/published/uploaded-catalog.xml')),
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.json().catalog.controls.map((c: Json) => c.id),
      ['uploaded-1'],
    );
  });

  test("PUT .../aliases: JSON only, a list of one-line texts, the writer's right; GET for any reader", async () => {
    const path = await storeJson('catalog', small('Rules'));
    const put = (body: string, token = owner, type = 'application/json') =>
      call('PUT', `${path}/aliases`, token, body, type);
    assertErrorBody(await put('{"aliases": ["a"]}', owner, 'text/plain'), 415);
    assertErrorBody(await put('{"aliases": "a"}'), 400, /list of aliases/);
    assertErrorBody(await put('{"aliases": ["two\\nlines"]}'), 400);
    assertErrorBody(await put('{"names": ["a"]}'), 400);
    assertErrorBody(await put('{"aliases": ["a"]}', other), 404);
    const ok = await put('{"aliases": ["b.json", "a.xml", "b.json"]}');
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.json().aliases, ['a.xml', 'b.json'], 'once each, sorted');
    assertErrorBody(await call('GET', `${path}/aliases`, other), 404);
  });
});
