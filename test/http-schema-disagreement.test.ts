/**
 * Content that NIST's own schemas of a release disagree on (an empty markup-line from 1.1.0 on:
 * valid to the XSD, not to the JSON Schema's pattern) is stored over both interfaces, and the
 * warning that names the disagreement is visible: in the 201 of a POST, in the findings kept
 * with the revision, in the registry's version list. Content valid to both of its release's
 * schemas (an empty title in 1.0.4) has no finding.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiRequest, type ApiResponse } from './support/http.js';
import { createTokenFor, TestServer } from './support/server.js';

type Json = Record<string, any>;

let server: TestServer;
let writer: string;

before(async () => {
  server = await TestServer.start();
  writer = createTokenFor(server.dataDir, 'wes', 'writer');
});
after(() => server.stop());

function catalog(version: string, uuid: string): Json {
  return {
    catalog: {
      uuid,
      metadata: { title: '', 'last-modified': '2026-01-01T00:00:00Z', version: '1', 'oscal-version': version },
      controls: [{ id: 'c-1', title: 'A control', parts: [{ id: 'c-1_smt', name: 'statement', prose: 'Do it.' }] }],
    },
  };
}

const asXml = (doc: Json) => serializeOscal(parseOscal(JSON.stringify(doc), 'json'), 'xml');
const send = (method: string, path: string, body: string, contentType: string, extra: ApiRequest = {}) =>
  api(server.url, method, path, { token: writer, body, contentType, ...extra });

/** The path of a created document, from its Location. */
const idOf = (created: ApiResponse) => new URL(String(created.headers.location)).pathname;
const disagreements = (findings: Json[] | undefined) =>
  (findings ?? []).filter((f) => f.code === 'schema-disagreement');

describe('an empty markup-line over HTTP', () => {
  test('1.1.2 XML with <title/>: 201, the warning in the response and kept with the revision', async () => {
    const xml = asXml(catalog('1.1.2', 'b1a7c3d2-5e6f-4a8b-9c0d-1e2f3a4b5c6d'));
    assert.match(xml, /<title\/>/);
    const r = await send('POST', '/oscal/v1/catalog', xml, 'application/xml');
    assert.equal(r.status, 201, r.text);
    const [warning, ...rest] = disagreements(r.json().findings);
    assert.deepEqual(rest, []);
    assert.equal(warning.level, 'WARNING');
    assert.equal(warning.path, '/catalog/metadata/title');
    assert.match(warning.message, /1\.1\.2 XML Schema accepts an empty markup-line, its JSON Schema does not/);
    assert.equal(warning.line, xml.split('\n').findIndex((l) => l.includes('<title/>')) + 1);

    const report = await api(server.url, 'GET', `${idOf(r)}/validation`, { token: writer });
    assert.equal(report.status, 200, report.text);
    assert.equal(report.json().valid, true);
    assert.equal(disagreements(report.json()['findings-when-stored']).length, 1);
    assert.equal(disagreements(report.json().findings).length, 1, 'the check made now says the same');
  });

  test('1.0.4 XML, JSON and YAML with an empty title: 201 and no finding', async () => {
    const doc = catalog('1.0.4', 'c2b8d4e3-6f70-4b9c-8d1e-2f3a4b5c6d7e');
    const r = await send('POST', '/oscal/v1/catalog', asXml(doc), 'application/xml');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().findings, undefined);
    const id = idOf(r);
    for (const [format, type] of [
      ['json', 'application/json'],
      ['yaml', 'application/yaml'],
    ] as const) {
      const text = serializeOscal(parseOscal(JSON.stringify(doc), 'json'), format);
      const put = await send('PUT', id, text, type);
      assert.equal(put.status, 204, put.text);
    }
  });

  test('1.2.2 JSON through a PUT (204): the warning is kept with the revision', async () => {
    const doc = catalog('1.2.2', 'd3c9e5f4-7081-4cad-9e2f-3a4b5c6d7e8f');
    doc.catalog.metadata.title = 'Titled';
    const created = await send('POST', '/oscal/v1/catalog', JSON.stringify(doc), 'application/json');
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json().findings, undefined);
    doc.catalog.controls[0].title = '';
    const put = await send('PUT', idOf(created), JSON.stringify(doc), 'application/json');
    assert.equal(put.status, 204, put.text);
    const report = await api(server.url, 'GET', `${idOf(created)}/validation`, { token: writer });
    assert.deepEqual(
      disagreements(report.json()['findings-when-stored']).map((f) => f.path),
      ['/catalog/controls/0/title'],
    );
  });

  test('the registry: a 1.1.2 upload is stored and its version lists the warning', async () => {
    const doc = catalog('1.1.2', 'e4dafa05-8192-4dbe-8f30-4b5c6d7e8f90');
    const r = await send('POST', '/api/upload', JSON.stringify(doc), 'application/json');
    assert.equal(r.status, 201, r.text);
    const versions = await api(server.url, 'GET', `/api/v1/catalogs/${doc.catalog.uuid}/versions`, { token: writer });
    assert.equal(versions.status, 200, versions.text);
    const [version] = versions.json() as Json[];
    assert.deepEqual(
      disagreements(version!.findings).map((f) => [f.level, f.path]),
      [['WARNING', '/catalog/metadata/title']],
      versions.text,
    );
  });

  test('with --reject-level WARNING the disagreement refuses the write, and nothing is stored', async () => {
    const strict = await TestServer.start({ args: ['--reject-level', 'WARNING'] });
    try {
      const token = createTokenFor(strict.dataDir, 'wes', 'writer');
      const doc = catalog('1.1.2', 'f5ebab16-92a3-4ecf-9041-5c6d7e8f90a1');
      const r = await api(strict.url, 'POST', '/oscal/v1/catalog', {
        token,
        body: asXml(doc),
        contentType: 'application/xml',
      });
      assertErrorBody(r, 422, /empty markup-line/);
      assert.equal((await api(strict.url, 'GET', `/oscal/v1/catalog/${doc.catalog.uuid}`, { token })).status, 404);
    } finally {
      await strict.stop();
    }
  });
});
