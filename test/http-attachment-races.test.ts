/**
 * An attachment POST reads the document, then its current revision, then writes the next one; a
 * GET of the file reads the content, then the file's record, then its bytes. Another process on
 * the same PostgreSQL database may delete the document, or that revision, in between: the answer
 * must then be 404, or build on (or serve) what is current now, and never 500 (the crash test met
 * the 500 under load). The test plays the other process, so the timing is certain.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { catalogJson } from './support/documents.js';
import { assertErrorBody } from './support/error-body.js';
import type { ApiResponse } from './support/http.js';
import { SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import {
  deleteCurrentVersion,
  deleteDocument,
  fileUpload,
  holdTable,
  serverOnOwnDatabase,
  whileWaiting,
  type Tx,
} from './support/races.js';

describe('PostgreSQL: attachments racing another process', { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE }, () => {
  const depot = serverOnOwnDatabase();
  const call = (method: string, path: string, file?: Buffer) =>
    depot.call(method, `/oscal/v1/catalog${path}`, file ? fileUpload(file) : {});

  async function catalog(): Promise<string> {
    const created = await depot.call('POST', '/oscal/v1/catalog', {
      body: catalogJson(),
      contentType: 'application/json',
    });
    assert.equal(created.status, 201, created.text);
    return created.json()['catalog-list'][0]['content-uuid'];
  }

  /** Holds the revisions table while `request` runs: it waits there, past its read of the document and the caller's rights. */
  const betweenReads = (request: () => Promise<ApiResponse>, change: (tx: Tx) => Promise<unknown>) =>
    whileWaiting(depot.databaseUrl, holdTable('revisions'), request, change);

  test('GET of the file, the document deleted between the read of its content and of the file: 404 naming the document', async () => {
    const id = await catalog();
    const added = await call('POST', `/${id}/attachment`, randomBytes(2000));
    assert.equal(added.status, 201, added.text);
    const answer = await whileWaiting(
      depot.databaseUrl,
      holdTable('attachments'),
      () => call('GET', `/${id}/attachment/${added.json().uuid}`),
      (tx) => deleteDocument(tx, id),
    );
    assertErrorBody(answer, 404, /no such document/);
  });

  test('POST, the document deleted between its reads: 404 with the error object', async () => {
    const id = await catalog();
    const answer = await betweenReads(
      () => call('POST', `/${id}/attachment`, randomBytes(2000)),
      (tx) => deleteDocument(tx, id),
    );
    assert.equal(assertErrorBody(answer, 404).code, 'not-found');
  });

  test('POST, its current version deleted between its reads: the file is added to the version current now', async () => {
    const id = await catalog();
    const first = await call('POST', `/${id}/attachment`, randomBytes(2000));
    assert.equal(first.status, 201, first.text);
    const answer = await betweenReads(
      () => call('POST', `/${id}/attachment`, randomBytes(3000)),
      (tx) => deleteCurrentVersion(tx, id, 2, 1),
    );
    assert.equal(answer.status, 201, answer.text);
    const listed = await call('GET', `/${id}/attachment`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.json()['attachment-list'].map((r: { uuid: string }) => r.uuid),
      [answer.json().uuid],
      'built on version 1, which had no file',
    );
  });
});
