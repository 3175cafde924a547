/**
 * Writes taken as the client sent them, over real HTTP against a real `oscal-depot serve` process
 * with its SQLite store (issue 18): an empty document-ids array (generic-interface 2.2 rule 6) on
 * both interfaces, the bytes of each revision exactly as received, uploads in a format the registry
 * does not take (registry-api 7, 8), and positions of a refused resource entry in the body sent.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiRequest, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { BASIC_CATALOG_JSON, CONTENT_UUID_SCHEME } from './support/marked-docs.js';
import { multipartBody } from './support/registry-docs.js';
import { TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';

let server: TestServer;
let owner: string;
let reader: string;
let admin: string;

before(async () => {
  server = await TestServer.start();
  admin = server.adminToken();
  [owner, reader] = (
    await Promise.all([makeToken(server.dataDir, 'olive', 'writer'), makeToken(server.dataDir, 'rita', 'reader')])
  ).map((t) => t.secret);
});
after(async () => {
  await stopWithin(server);
});

const call = (method: string, path: string, options: ApiRequest = {}): Promise<ApiResponse> =>
  api(server.url, method, path, options);

/** NIST's basic catalog with a fresh root uuid and title, and these metadata edits. */
function catalog(edit: (metadata: Record<string, unknown>) => void = () => undefined): {
  catalog: { uuid: string; metadata: Record<string, unknown> } & Record<string, unknown>;
} {
  const doc = JSON.parse(readFileSync(BASIC_CATALOG_JSON, 'utf8'));
  doc.catalog.uuid = randomUUID();
  doc.catalog.metadata.title = `Depot fixture ${doc.catalog.uuid}`;
  edit(doc.catalog.metadata);
  return doc;
}

async function documentIds(path: string): Promise<unknown> {
  const res = await call('GET', path, { token: admin });
  assert.equal(res.status, 200, res.text);
  return res.json().catalog.metadata['document-ids'];
}

async function postCatalog(body: string | Buffer, contentType: string): Promise<string> {
  const res = await call('POST', '/oscal/v1/catalog', { token: owner, body, contentType });
  assert.equal(res.status, 201, res.text);
  return res.json()['catalog-list'][0]['content-uuid'];
}

describe('"document-ids": [] (generic-interface 2.2 rule 6): the server adds its entry', () => {
  test('generic POST, JSON: 201, and the document holds exactly the content identifier', async () => {
    const id = await postCatalog(JSON.stringify(catalog((m) => (m['document-ids'] = []))), 'application/json');
    assert.deepEqual(await documentIds(`/oscal/v1/catalog/${id}`), [{ scheme: CONTENT_UUID_SCHEME, identifier: id }]);
  });

  test('generic POST, YAML', async () => {
    const yaml = `catalog:
  uuid: ${randomUUID()}
  metadata:
    title: Empty document-ids in YAML
    last-modified: 2024-01-01T00:00:00Z
    version: "1"
    oscal-version: 1.1.2
    document-ids: []
`;
    const id = await postCatalog(yaml, 'application/yaml');
    assert.deepEqual(await documentIds(`/oscal/v1/catalog/${id}`), [{ scheme: CONTENT_UUID_SCHEME, identifier: id }]);
  });

  test("generic PUT: 204, and the document holds the path's content identifier", async () => {
    const id = await postCatalog(JSON.stringify(catalog()), 'application/json');
    const res = await call('PUT', `/oscal/v1/catalog/${id}`, {
      token: owner,
      body: JSON.stringify(catalog((m) => (m['document-ids'] = []))),
      contentType: 'application/json',
    });
    assert.equal(res.status, 204, res.text);
    assert.deepEqual(await documentIds(`/oscal/v1/catalog/${id}`), [{ scheme: CONTENT_UUID_SCHEME, identifier: id }]);
  });

  test('beside an external identifier, only the content identifier is added', async () => {
    const external = { scheme: 'http://oscal.io/oscal/identifier/externaluuid', identifier: randomUUID() };
    const id = await postCatalog(JSON.stringify(catalog((m) => (m['document-ids'] = [external]))), 'application/json');
    assert.deepEqual(await documentIds(`/oscal/v1/catalog/${id}`), [
      { scheme: CONTENT_UUID_SCHEME, identifier: id },
      external,
    ]);
  });

  test('registry PUT and upload: created, the content-uuid taken from the root uuid', async () => {
    const put = catalog((m) => (m['document-ids'] = []));
    const res = await call('PUT', `/api/v1/catalogs/${put.catalog.uuid}`, {
      token: owner,
      body: JSON.stringify(put),
      contentType: 'application/json',
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(await documentIds(`/api/v1/catalogs/${put.catalog.uuid}`), [
      { scheme: CONTENT_UUID_SCHEME, identifier: put.catalog.uuid },
    ]);

    const uploaded = catalog((m) => (m['document-ids'] = []));
    const up = await call('POST', '/api/upload', {
      token: owner,
      body: JSON.stringify(uploaded),
      contentType: 'application/json',
    });
    assert.equal(up.status, 201, up.text);
    assert.equal(up.json()['content-uuid'], uploaded.catalog.uuid);
    assert.deepEqual(await documentIds(`/oscal/v1/catalog/${uploaded.catalog.uuid}`), [
      { scheme: CONTENT_UUID_SCHEME, identifier: uploaded.catalog.uuid },
    ]);
  });

  test('any other empty array is still invalid OSCAL (422)', async () => {
    const res = await call('POST', '/oscal/v1/catalog', {
      token: owner,
      body: JSON.stringify(catalog((m) => (m.props = []))),
      contentType: 'application/json',
    });
    const body = assertErrorBody(res, 422, /empty list/);
    assert.equal(body.errors?.[0]?.path, '/catalog/metadata/props');
  });
});

describe("GET .../original and .../revision/{n}/original: each write's bytes exactly as received", () => {
  /** A catalog in XML with what the stored form does not keep: a comment, odd layout, the declaration. */
  const xml = (title: string, uuid = randomUUID()) =>
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<!-- sent by the original-bytes test -->
<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0"   uuid="${uuid}">
    <metadata><title>${title}</title>
      <last-modified>2024-01-01T00:00:00Z</last-modified><version>1</version>
      <oscal-version>1.1.2</oscal-version></metadata>
</catalog>
`);

  test('the current revision and each earlier one, with the media type each was sent in', async () => {
    const first = xml('Original bytes');
    const id = await postCatalog(first, 'application/xml');
    const json = JSON.stringify(
      catalog((m) => (m['document-ids'] = [{ scheme: CONTENT_UUID_SCHEME, identifier: id }])),
    );
    const yaml = Buffer.from(
      (await call('GET', `/oscal/v1/catalog/${id}`, { token: owner, accept: 'application/yaml' })).text.replace(
        'Original bytes',
        'Third, in YAML',
      ),
    );
    assert.equal(
      (await call('PUT', `/oscal/v1/catalog/${id}`, { token: owner, body: json, contentType: 'application/json' }))
        .status,
      204,
    );
    assert.equal(
      (await call('PUT', `/oscal/v1/catalog/${id}`, { token: owner, body: yaml, contentType: 'application/yaml' }))
        .status,
      204,
    );

    const expected: [string, Buffer, string][] = [
      [`/oscal/v1/catalog/${id}/original`, yaml, 'application/yaml'],
      [`/oscal/v1/catalog/${id}/revision/1/original`, first, 'application/xml'],
      [`/oscal/v1/catalog/${id}/revision/2/original`, Buffer.from(json), 'application/json'],
      [`/oscal/v1/catalog/${id}/revision/3/original`, yaml, 'application/yaml'],
    ];
    for (const [path, bytes, type] of expected) {
      for (const token of [owner, admin]) {
        const res = await call('GET', path, { token });
        assert.equal(res.status, 200, `${path}: ${res.text}`);
        assert.equal(res.headers['content-type'], type, path);
        assert.ok(res.body.equals(bytes), `${path} gives the bytes as sent`);
      }
    }
  });

  test('a revision that does not exist, or a segment that is no revision number: 404', async () => {
    const id = await postCatalog(xml('One revision'), 'application/xml');
    for (const n of ['2', '0', '-1', 'x', '01', '1.0', '9999999999']) {
      assertErrorBody(await call('GET', `/oscal/v1/catalog/${id}/revision/${n}/original`, { token: owner }), 404);
    }
    assertErrorBody(await call('GET', `/oscal/v1/catalog/${randomUUID()}/original`, { token: admin }), 404);
  });

  test('a version deleted through the registry has no original any more', async () => {
    const id = await postCatalog(xml('Two versions'), 'application/xml');
    const second = JSON.stringify(
      catalog((m) => (m['document-ids'] = [{ scheme: CONTENT_UUID_SCHEME, identifier: id }])),
    );
    assert.equal(
      (await call('PUT', `/oscal/v1/catalog/${id}`, { token: owner, body: second, contentType: 'application/json' }))
        .status,
      204,
    );
    assert.equal((await call('DELETE', `/api/v1/catalogs/${id}/versions/1`, { token: owner })).status, 204);
    assertErrorBody(await call('GET', `/oscal/v1/catalog/${id}/revision/1/original`, { token: owner }), 404);
    assert.equal((await call('GET', `/oscal/v1/catalog/${id}/revision/2/original`, { token: owner })).text, second);
  });

  test('owner and admin only: a reader of a public document 403, of a private one 404, no credentials 401', async () => {
    const id = await postCatalog(xml('Who reads the original'), 'application/xml');
    assertErrorBody(await call('GET', `/oscal/v1/catalog/${id}/original`, { token: reader }), 404);
    assertErrorBody(await call('GET', `/oscal/v1/catalog/${id}/original`), 401);
    const access = await call('PUT', `/oscal/v1/catalog/${id}/access`, {
      token: owner,
      body: '{"visibility": "public"}',
      contentType: 'application/json',
    });
    assert.equal(access.status, 200, access.text);
    assert.equal(
      (await call('GET', `/oscal/v1/catalog/${id}`, { token: reader })).status,
      200,
      'the reader may read the document',
    );
    assertErrorBody(await call('GET', `/oscal/v1/catalog/${id}/original`, { token: reader }), 403, /owner or an admin/);
    assertErrorBody(await call('GET', `/oscal/v1/catalog/${id}/revision/1/original`, { token: reader }), 403);
    assertErrorBody(await call('GET', `/oscal/v1/catalog/${id}/original`), 401);
  });
});

describe('POST /api/upload of a file that is not JSON: 415 (registry-api 7: unsupported content type; 8: OSCAL JSON only)', () => {
  const upload = (content: string | Buffer, filename: string, contentType?: string) => {
    const form = multipartBody([{ name: 'file', filename, ...(contentType ? { contentType } : {}), content }]);
    return call('POST', '/api/upload', { token: owner, body: form.body, contentType: form.contentType });
  };

  test('XML and YAML files, whatever type the form gives them', async () => {
    const id = await postCatalog(JSON.stringify(catalog()), 'application/json');
    const asXml = (await call('GET', `/oscal/v1/catalog/${id}`, { token: owner, accept: 'application/xml' })).text;
    const asYaml = (await call('GET', `/oscal/v1/catalog/${id}`, { token: owner, accept: 'application/yaml' })).text;
    for (const [content, name, type] of [
      [asXml, 'c.xml', 'application/xml'],
      [asXml, 'c.xml', 'application/octet-stream'],
      [asYaml, 'c.yaml', 'application/yaml'],
      [asYaml, 'c.yaml', undefined],
    ] as const) {
      const body = assertErrorBody(await upload(content, name, type), 415, /JSON only/);
      assert.equal(body.code, 'unsupported-media-type');
    }
  });

  test('a JSON file is taken whatever type the form gives it; broken JSON stays 400', async () => {
    const doc = catalog();
    const res = await upload(JSON.stringify(doc), 'c.json', 'application/octet-stream');
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json()['content-uuid'], doc.catalog.uuid);
    const broken = assertErrorBody(await upload('{"catalog": ', 'c.json', 'application/json'), 400);
    assert.equal(broken.code, 'invalid-json');
  });
});

describe('PUT .../resource with an invalid entry: positions in the body sent', () => {
  /** The line and column where `needle` starts in `text`, 1-based. */
  function positionOf(text: string, needle: string): { line: number; column: number } {
    const offset = text.indexOf(needle);
    assert.ok(offset >= 0, `${needle} is in the body`);
    const before = text.slice(0, offset).split('\n');
    return { line: before.length, column: before.at(-1)!.length + 1 };
  }

  async function resourceOf(id: string): Promise<string> {
    const res = await call('POST', `/oscal/v1/catalog/${id}/attachment`, {
      token: owner,
      body: 'a file',
      contentType: 'text/plain',
    });
    assert.equal(res.status, 201, res.text);
    return res.json().uuid;
  }

  test('a value that breaks the schema: the line and column of that property in the body', async () => {
    const id = await postCatalog(JSON.stringify(catalog(), null, 2), 'application/json');
    const resource = await resourceOf(id);
    const body = `{\n  "uuid": "${resource}",\n  "title": "Entry",\n  "props": [\n    { "value": "x", "name": "not a token!" }\n  ]\n}\n`;
    const res = await call('PUT', `/oscal/v1/catalog/${id}/attachment/${resource}/resource`, {
      token: owner,
      body,
      contentType: 'application/json',
    });
    const error = assertErrorBody(res, 422);
    const detail = error.errors?.find((e) => e.path.endsWith('/props/0/name'));
    assert.ok(detail, JSON.stringify(error));
    assert.deepEqual({ line: detail.line, column: detail.column }, positionOf(body, '"name"'));
  });

  test('a property OSCAL does not have: its line and column in the body', async () => {
    const id = await postCatalog(JSON.stringify(catalog(), null, 2), 'application/json');
    const resource = await resourceOf(id);
    const body = `{\n  "uuid": "${resource}",\n\n\n      "colour": "red"\n}`;
    const error = assertErrorBody(
      await call('PUT', `/oscal/v1/catalog/${id}/attachment/${resource}/resource`, {
        token: owner,
        body,
        contentType: 'application/json',
      }),
      422,
      /colour/,
    );
    assert.deepEqual(
      { line: error.errors?.[0]?.line, column: error.errors?.[0]?.column },
      positionOf(body, '"colour"'),
    );
  });
});
