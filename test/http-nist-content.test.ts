/**
 * Every NIST document in ../shared/content is stored by a server at the default reject level
 * (ERROR): NIST's own published content, resolved baselines included, is never refused. The
 * three formats of a document share its uuid, so the first is created and the others are new
 * revisions of it; each write is validated alike.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { parseOscal } from '../src/oscal/formats/index.js';
import { api } from './support/http.js';
import { TestServer } from './support/server.js';
import { CONTENT, filesUnder, shortName } from './support/shared.js';

const MEDIA = { json: 'application/json', xml: 'application/xml', yaml: 'application/yaml' } as const;
const files = (['json', 'xml', 'yaml'] as const).flatMap((format) =>
  filesUnder(CONTENT, `.${format}`).map((file) => ({ file, format })),
);

describe('NIST content is stored at the default reject level', () => {
  let server: TestServer;
  let token: string;
  /** A document's uuid to the content-uuid the server gave it (D2: its own, or a new one if not v4/v5). */
  const stored = new Map<string, string>();

  before(async () => {
    server = await TestServer.start();
    token = server.adminToken();
  });
  after(() => server.stop());

  test(`found the published documents (${files.length})`, () => assert.ok(files.length >= 80));
  for (const { file, format } of files) {
    test(shortName(file), async () => {
      const body = readFileSync(file);
      const doc = parseOscal(body.toString('utf8'), format);
      const uuid = (doc.content[doc.model] as { uuid: string }).uuid;
      const id = stored.get(uuid);
      const res = await api(server.url, id ? 'PUT' : 'POST', `/oscal/v1/${doc.model}${id ? `/${id}` : ''}`, {
        token,
        body,
        contentType: MEDIA[format],
      });
      assert.equal(res.status, id ? 204 : 201, res.text.slice(0, 2000));
      if (!id) {
        const answer = res.json();
        const list = answer[Object.keys(answer).find((k) => k.endsWith('-list'))!];
        stored.set(uuid, list[0]['content-uuid']);
      }
    });
  }
});
