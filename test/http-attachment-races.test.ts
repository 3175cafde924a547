/**
 * An attachment POST reads the document, then its current revision, then writes the next one.
 * Another process on the same PostgreSQL database may delete the document, or that revision, in
 * between: the POST must then answer 404, or build on the revision that is current now, and never
 * 500 (the crash test met the 500 under load). The test plays the other process, so the timing is
 * certain.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { catalogJson } from './support/documents.js';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { freshDatabase, SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { TestServer } from './support/server.js';

describe('PostgreSQL: an attachment POST racing another process', { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE }, () => {
  let database: { url: string; drop: () => Promise<void> };
  let server: TestServer;
  let token: string;

  before(async () => {
    database = await freshDatabase();
    server = await TestServer.start({ args: ['--database-url', database.url] });
    token = server.adminToken();
  });
  after(async () => {
    await stopWithin(server);
    await database?.drop();
  });

  const call = (method: string, path: string, file?: Buffer) => api(server.url, method, `/oscal/v1/catalog${path}`, {
    token, ...(file ? { body: file, contentType: 'application/octet-stream', headers: { 'content-disposition': 'attachment; filename="f.bin"' } } : {}),
  });

  async function catalog(): Promise<string> {
    const created = await api(server.url, 'POST', '/oscal/v1/catalog', { token, body: catalogJson(), contentType: 'application/json' });
    assert.equal(created.status, 201, created.text);
    return created.json()['catalog-list'][0]['content-uuid'];
  }

  /**
   * Holds the revisions table while `request` runs, until it waits there (past its read of the
   * document and the caller's rights), then commits `change` and releases it.
   */
  async function betweenReads(request: () => Promise<ApiResponse>, change: (tx: postgres.TransactionSql) => Promise<unknown>): Promise<ApiResponse> {
    const other = postgres(database.url, { max: 2, onnotice: () => {} });
    let answer: Promise<ApiResponse> | undefined;
    try {
      await other.begin(async (tx) => {
        await tx`LOCK TABLE revisions IN ACCESS EXCLUSIVE MODE`;
        answer = request();
        const deadline = Date.now() + 30_000;
        while ((await other`SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n === 0) {
          assert.ok(Date.now() < deadline, 'the request never waited for the revisions');
          await sleep(20);
        }
        await change(tx);
      });
    } finally {
      await other.end();
    }
    return answer!;
  }

  test('the document deleted between its reads: 404 with the error object', async () => {
    const id = await catalog();
    const answer = await betweenReads(() => call('POST', `/${id}/attachment`, randomBytes(2000)), (tx) => tx`DELETE FROM documents WHERE id = ${id}`);
    assert.equal(assertErrorBody(answer, 404).code, 'not-found');
  });

  test('its current version deleted between its reads: the file is added to the version current now', async () => {
    const id = await catalog();
    const first = await call('POST', `/${id}/attachment`, randomBytes(2000));
    assert.equal(first.status, 201, first.text);
    // What a DELETE of version 2 through the registry commits.
    const answer = await betweenReads(() => call('POST', `/${id}/attachment`, randomBytes(3000)), async (tx) => {
      await tx`DELETE FROM renditions WHERE document_id = ${id} AND revision = 2`;
      await tx`DELETE FROM jobs WHERE document_id = ${id} AND revision = 2`;
      await tx`DELETE FROM revisions WHERE document_id = ${id} AND number = 2`;
      await tx`UPDATE documents SET revision = 1 WHERE id = ${id}`;
    });
    assert.equal(answer.status, 201, answer.text);
    const listed = await call('GET', `/${id}/attachment`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.json()['attachment-list'].map((r: { uuid: string }) => r.uuid), [answer.json().uuid], 'built on version 1, which had no file');
  });
});
