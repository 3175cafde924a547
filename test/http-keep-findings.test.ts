/**
 * Drafts kept with their findings (?keep-findings=true), over real HTTP, on SQLite and on
 * PostgreSQL, through both interfaces: a schema-valid SSP whose constraint findings reach the
 * reject level is refused with a hint, stored when the writer asks, marked not valid in the
 * lists, the version list and the validation report, and found by ?valid=; readers may not,
 * schema errors are refused still, and a valid revision on top makes the document valid again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertErrorBody } from './support/error-body.js';
import { BROKEN_CONSTRAINTS, ssp } from './support/draft-ssp.js';
import { api, type ApiRequest, type ApiResponse } from './support/http.js';
import { freshDatabase, SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { multipartBody } from './support/registry-docs.js';
import { createTokenFor, TestServer } from './support/server.js';

type Json = Record<string, any>;
const MODEL = 'system-security-plan';
const HINT = /to store it anyway as a draft with its findings, send the request again with \?keep-findings=true/;

function suite(backend: string, serverArgs: () => Promise<{ args: string[]; cleanup: () => Promise<void> }>) {
  describe(
    `keep-findings, ${backend}`,
    { skip: backend === 'PostgreSQL' && !TEST_DATABASE_URL ? SKIP_MESSAGE : false },
    () => {
      let server: TestServer;
      let cleanup: () => Promise<void>;
      let writer: string;
      let reader: string;
      before(async () => {
        const setup = await serverArgs();
        cleanup = setup.cleanup;
        server = await TestServer.start({ args: setup.args });
        // The token command names the store as the server does.
        writer = createTokenFor(server.dataDir, 'wren', 'writer', setup.args);
        reader = createTokenFor(server.dataDir, 'rory', 'reader', setup.args);
      });
      after(async () => {
        await server?.stop();
        await cleanup?.();
      });

      const call = (method: string, path: string, options: ApiRequest = {}) => api(server.url, method, path, options);
      const write = (method: string, path: string, body: string, token: string | null = writer) =>
        call(method, path, { ...(token ? { token } : {}), body, contentType: 'application/json' });
      const listed = async (query = '') => {
        const res = await call('GET', `/oscal/v1/${MODEL}?limit=1000${query}`, { token: writer });
        assert.equal(res.status, 200, res.text);
        return res.json()[`${MODEL}-list`] as Json[];
      };
      const registryListed = async (query = '') => {
        const res = await call('GET', `/api/v1/system-security-plans?limit=1000${query}`, { token: writer });
        assert.equal(res.status, 200, res.text);
        return (res.json() as Json[]).map((i) => i['content-uuid'] as string);
      };
      const versions = async (id: string) => {
        const res = await call('GET', `/api/v1/system-security-plans/${id}/versions`, { token: writer });
        assert.equal(res.status, 200, res.text);
        return res.json() as Json[];
      };
      const constraintIds = (findings: Json[]) => [...new Set(findings.map((f) => f['constraint-id']))].sort();
      const assertNotStored = async (id: string) =>
        assert.equal((await call('GET', `/oscal/v1/${MODEL}/${id}`, { token: writer })).status, 404);

      /** The 422 of an ordinary write of the draft: its findings, and the hint. */
      function assertRefusedWithHint(res: ApiResponse): void {
        const body = assertErrorBody(res, 422, HINT);
        assert.equal(body.code, 'invalid-oscal');
        assert.deepEqual(constraintIds(body.errors ?? []), [...BROKEN_CONSTRAINTS].sort());
      }

      test('generic interface: refused with the hint; stored with ?keep-findings=true, marked, listed, filtered, its findings readable', async () => {
        const draft = ssp('findings');
        assertRefusedWithHint(await write('POST', `/oscal/v1/${MODEL}`, draft.body));
        await assertNotStored(draft.id);

        const created = await write('POST', `/oscal/v1/${MODEL}?keep-findings=true`, draft.body);
        assert.equal(created.status, 201, created.text);
        const item = created.json()[`${MODEL}-list`][0];
        assert.equal(item['content-uuid'], draft.id);
        assert.equal(item.valid, false);
        const errors = (created.json().findings as Json[]).filter((f) => f.level === 'ERROR');
        assert.deepEqual(constraintIds(errors), [...BROKEN_CONSTRAINTS].sort(), 'the 201 gives the findings it kept');

        const clean = ssp('valid');
        assert.equal((await write('POST', `/oscal/v1/${MODEL}?keep-findings=false`, clean.body)).status, 201);

        const all = await listed();
        assert.equal(all.find((i) => i['content-uuid'] === draft.id)?.valid, false);
        assert.equal(all.find((i) => i['content-uuid'] === clean.id)?.valid, true);
        assert.deepEqual(
          (await listed('&valid=false')).map((i) => i['content-uuid']),
          [draft.id],
        );
        const valid = (await listed('&valid=true')).map((i) => i['content-uuid']);
        assert.ok(valid.includes(clean.id) && !valid.includes(draft.id), JSON.stringify(valid));
        assertErrorBody(await call('GET', `/oscal/v1/${MODEL}?valid=perhaps`, { token: writer }), 400);

        const report = await call('GET', `/oscal/v1/${MODEL}/${draft.id}/validation`, { token: writer });
        assert.equal(report.status, 200, report.text);
        const r = report.json();
        assert.equal(r['valid-when-stored'], false);
        assert.equal(r.valid, false, 'checked again now, it still fails');
        assert.deepEqual(
          constraintIds((r['findings-when-stored'] as Json[]).filter((f) => f.level === 'ERROR')),
          [...BROKEN_CONSTRAINTS].sort(),
        );
        const cleanReport = (await call('GET', `/oscal/v1/${MODEL}/${clean.id}/validation`, { token: writer })).json();
        assert.equal(cleanReport['valid-when-stored'], true);

        // A valid revision on top makes the document valid; keeping findings again marks it again.
        const fixed = ssp('valid', draft.id, draft.title);
        assertRefusedWithHint(await write('PUT', `/oscal/v1/${MODEL}/${draft.id}`, draft.body));
        assert.equal((await write('PUT', `/oscal/v1/${MODEL}/${draft.id}`, fixed.body)).status, 204);
        assert.equal((await listed()).find((i) => i['content-uuid'] === draft.id)?.valid, true);
        assert.deepEqual(await listed('&valid=false'), []);
        const again = await write('PUT', `/oscal/v1/${MODEL}/${draft.id}?keep-findings=true`, draft.body);
        assert.equal(again.status, 204, again.text);
        assert.deepEqual(
          (await versions(draft.id)).map((v) => [v.version, v.valid]),
          [
            [3, false],
            [2, true],
            [1, false],
          ],
        );
        assert.deepEqual(
          (await listed('&valid=false')).map((i) => i['content-uuid']),
          [draft.id],
        );
      });

      test('schema errors are refused still, a reader may not keep findings, and the option takes true or false only', async () => {
        const broken = ssp('schema-invalid');
        const refused = assertErrorBody(await write('POST', `/oscal/v1/${MODEL}?keep-findings=true`, broken.body), 422);
        assert.equal(refused.code, 'invalid-oscal');
        assert.doesNotMatch(refused.message, /keep-findings/, 'no hint where keeping findings would not help');
        await assertNotStored(broken.id);
        const plain = assertErrorBody(await write('POST', `/oscal/v1/${MODEL}`, broken.body), 422);
        assert.doesNotMatch(plain.message, /keep-findings/);

        const draft = ssp('findings');
        assertErrorBody(await write('POST', `/oscal/v1/${MODEL}?keep-findings=true`, draft.body, reader), 403);
        assertErrorBody(await write('POST', `/oscal/v1/${MODEL}?keep-findings=true`, draft.body, null), 401);
        assertErrorBody(
          await write('PUT', `/api/v1/system-security-plans/${draft.id}?keep-findings=true`, draft.body, reader),
          403,
        );
        assertErrorBody(await write('POST', `/oscal/v1/${MODEL}?keep-findings=yes`, draft.body), 400, /keep-findings/);
        assertErrorBody(
          await write('POST', `/oscal/v1/${MODEL}?keep-findings=true&keep-findings=false`, draft.body),
          400,
          /keep-findings/,
        );
        await assertNotStored(draft.id);
      });

      test('registry interface: PUT and upload (JSON, and multipart by query or form field) keep findings when asked', async () => {
        const put = ssp('findings');
        const path = `/api/v1/system-security-plans/${put.id}`;
        assertRefusedWithHint(await write('PUT', path, put.body));
        await assertNotStored(put.id);
        assert.equal((await write('PUT', `${path}?keep-findings=true`, put.body)).status, 201);
        assert.deepEqual(
          (await versions(put.id)).map((v) => [v.version, v.valid]),
          [[1, false]],
        );
        assert.deepEqual(
          constraintIds(((await versions(put.id))[0]!.findings as Json[]).filter((f) => f.level === 'ERROR')),
          [...BROKEN_CONSTRAINTS].sort(),
        );
        assert.ok((await registryListed('&valid=false')).includes(put.id));
        assert.ok(!(await registryListed('&valid=true')).includes(put.id));

        const uploaded = ssp('findings');
        assertRefusedWithHint(await write('POST', '/api/upload', uploaded.body));
        const upload = await write('POST', '/api/upload?keep-findings=true', uploaded.body);
        assert.equal(upload.status, 201, upload.text);
        assert.equal((await versions(uploaded.id))[0]!.valid, false);

        const form = (doc: string, fields: { name: string; content: string }[] = []) =>
          multipartBody([
            ...fields,
            { name: 'file', filename: 'draft-ssp.json', contentType: 'application/json', content: doc },
          ]);
        const multipart = ssp('findings');
        const plain = form(multipart.body);
        assertRefusedWithHint(
          await call('POST', '/api/upload', { token: writer, body: plain.body, contentType: plain.contentType }),
        );
        const byField = form(multipart.body, [{ name: 'keep-findings', content: 'true' }]);
        const stored = await call('POST', '/api/upload', {
          token: writer,
          body: byField.body,
          contentType: byField.contentType,
        });
        assert.equal(stored.status, 201, stored.text);
        assert.equal((await versions(multipart.id))[0]!.valid, false);
        const byQuery = form(ssp('findings', multipart.id, multipart.title).body);
        const updated = await call('POST', '/api/upload?keep-findings=true', {
          token: writer,
          body: byQuery.body,
          contentType: byQuery.contentType,
        });
        assert.equal(updated.status, 200, updated.text);
        assert.deepEqual(
          (await versions(multipart.id)).map((v) => [v.version, v.valid]),
          [
            [2, false],
            [1, false],
          ],
        );
        const bad = form(multipart.body, [{ name: 'keep-findings', content: 'on' }]);
        assertErrorBody(
          await call('POST', '/api/upload', { token: writer, body: bad.body, contentType: bad.contentType }),
          400,
          /keep-findings/,
        );
      });
    },
  );
}

suite('SQLite', async () => ({ args: [], cleanup: async () => {} }));
suite('PostgreSQL', async () => {
  const database = await freshDatabase();
  return { args: ['--database-url', database.url], cleanup: database.drop };
});
