/**
 * doc-available() on the server, over real HTTP: an attachment of a stored document (an image,
 * not OSCAL) is available, as metaschema-java's FnDocumentAvailable.java has any resource it can
 * read, while doc() of it is a finding; a stored document is available; a missing attachment, a
 * document the caller may not read and a host no loader reaches are not.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { webCatalog } from './support/constraint-web.js';
import { pngImage } from './support/files.js';
import { api, type ApiRequest } from './support/http.js';
import { createTokenFor, TestServer } from './support/server.js';

type Json = Record<string, any>;

const STORED = '6a1f0e2d-3c4b-4a59-8e7d-1f2a3b4c5d6e';
const PRIVATE = '7b2e1f3c-4d5a-4b6c-9f8e-2a3b4c5d6e7f';
const CHECKED = '8c3f2a4d-5e6b-4c7d-8a9f-3b4c5d6e7f80';

let server: TestServer;
let admin: string;
let writer: string;
let other: string;

before(async () => {
  server = await TestServer.start();
  admin = createTokenFor(server.dataDir, 'ada', 'admin');
  writer = createTokenFor(server.dataDir, 'wes', 'writer');
  other = createTokenFor(server.dataDir, 'wil', 'writer');
});

after(async () => {
  await server.stop();
});

const gen = (method: string, path: string, options: ApiRequest = {}) =>
  api(server.url, method, `/oscal/v1${path}`, options);

/** New documents are private: only their owner (and admins) may read them. */
async function store(doc: Json, token: string): Promise<void> {
  const res = await gen('POST', '/catalog', {
    token,
    body: JSON.stringify(doc),
    contentType: 'application/json',
  });
  assert.equal(res.status, 201, res.text);
}

test('doc-available() reaches stored attachments and documents as the caller may read them', async () => {
  await store(webCatalog(STORED), writer);
  await store(webCatalog(PRIVATE), other);
  const attached = await gen('POST', `/catalog/${STORED}/attachment`, {
    token: writer,
    body: pngImage(),
    contentType: 'image/png',
    headers: { 'content-disposition': 'attachment; filename="diagram.png"' },
  });
  assert.equal(attached.status, 201, attached.text);
  const image: string = attached.json().rlinks[0].href;
  assert.match(image, new RegExp(`/oscal/v1/catalog/${STORED}/attachment/`));

  const expectations: [id: string, test: string][] = [
    ['image-available', `doc-available('${image}')`],
    ['document-available', `doc-available('${server.url}/oscal/v1/catalog/${STORED}')`],
    ['missing-not-available', `not(doc-available('${image.replace(/[0-9a-f]{12}$/, '000000000000')}'))`],
    ['private-not-available', `not(doc-available('${server.url}/oscal/v1/catalog/${PRIVATE}'))`],
    ['elsewhere-not-available', `not(doc-available('https://example.com/diagram.png'))`],
    ['image-not-a-document', `exists(doc('${image}'))`],
  ];
  const set = `<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0">
    <context><metapath target="/catalog"/><constraints>
      ${expectations.map(([id, t]) => `<expect id="${id}" target="." test="${t}" level="ERROR"/>`).join('\n      ')}
    </constraints></context></metaschema-meta-constraints>`;
  const put = await gen('PUT', '/constraint-set/availability', {
    token: admin,
    body: set,
    contentType: 'application/xml',
  });
  assert.equal(put.status, 201, put.text);

  const res = await gen('POST', '/validate?constraints=availability', {
    token: writer,
    body: JSON.stringify(webCatalog(CHECKED)),
    contentType: 'application/json',
  });
  assert.equal(res.status, 200, res.text);
  const findings = (res.json().findings as Json[]).filter((f) => /-available|-document$/.test(f['constraint-id']));
  // Only doc() of the image fails: it is there, but it is not an OSCAL document.
  assert.deepEqual(
    findings.map((f) => f['constraint-id']),
    ['image-not-a-document'],
    JSON.stringify(findings, null, 1),
  );
  assert.match(findings[0]!.message, /not readable OSCAL|cannot be retrieved/);
});
