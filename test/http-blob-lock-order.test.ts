/**
 * Writers and deleters on PostgreSQL lock the blob rows they store or may drop in one order, by
 * hash, so that two transactions sharing blobs cannot deadlock (a 40P01 would be a 500). The test
 * plays a delete of another document holding the same files, which has locked the first of them
 * when an attachment is replaced, and takes the second once the replacement waits.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { sha256 } from '../src/digest.js';
import { catalogJson } from './support/documents.js';
import { SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { dropUnreferenced, fileUpload, serverOnOwnDatabase, whileWaiting } from './support/races.js';

describe('PostgreSQL: blob locks in one order', { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE }, () => {
  const depot = serverOnOwnDatabase();
  const call = (method: string, path: string, file?: Buffer) =>
    depot.call(method, `/oscal/v1/catalog${path}`, file ? fileUpload(file) : {});

  async function catalogWith(...files: Buffer[]): Promise<{ id: string; resources: string[] }> {
    const created = await depot.call('POST', '/oscal/v1/catalog', {
      body: catalogJson(),
      contentType: 'application/json',
    });
    assert.equal(created.status, 201, created.text);
    const id = created.json()['catalog-list'][0]['content-uuid'];
    const resources = [];
    for (const file of files) {
      const added = await call('POST', `/${id}/attachment`, file);
      assert.equal(added.status, 201, added.text);
      resources.push(added.json().uuid as string);
    }
    return { id, resources };
  }

  test('an attachment replaced while another document holding its old and new files is deleted: no deadlock', async () => {
    // The file replaced sorts first: a replacement that locked its new file before its old one would deadlock.
    const [old, replacement] = [randomBytes(3000), randomBytes(3000)].sort((a, b) =>
      sha256(a) < sha256(b) ? -1 : 1,
    ) as [Buffer, Buffer];
    const first = await catalogWith(old);
    const other = await catalogWith(old, replacement);
    const answer = await whileWaiting(
      depot.databaseUrl,
      async (tx) => {
        // What a delete of the other document commits, as far as the lock on the first of its blobs.
        await tx`DELETE FROM documents WHERE id = ${other.id}`;
        await tx`SELECT hash FROM blobs WHERE hash = ${sha256(old)} FOR UPDATE`;
      },
      () => call('PUT', `/${first.id}/attachment/${first.resources[0]}`, replacement),
      async (tx) => {
        await tx`SELECT hash FROM blobs WHERE hash = ${sha256(replacement)} FOR UPDATE`;
        await dropUnreferenced(tx, [sha256(old), sha256(replacement)]);
      },
    );
    assert.equal(answer.status, 204, answer.text);
    const file = await call('GET', `/${first.id}/attachment/${first.resources[0]}`);
    assert.equal(file.status, 200, file.text);
    assert.ok(file.body.equals(replacement), 'the new file is served');
  });
});
