/**
 * The SQLite store keeps document records between writes (src/store/sqlite/documents.ts): a
 * write through any connection to the file must still be seen, at once through this one and
 * within milliseconds through another.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { audit, fields, newDoc, revision } from './data.js';
import { openThrough } from './harness.js';

describe('SQLite: document records kept between writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oscal-depot-sqlite-shared-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const id = '9a0c0000-0000-4000-8000-000000000001';

  test('a write through this connection is read at once, one through another within milliseconds', async () => {
    const here = await openThrough({ dataDir: dir }, 'sqlite');
    const other = await openThrough({ dataDir: dir }, 'sqlite');
    try {
      await here.createDocument(newDoc(id), revision('one', fields('One')), audit('document.create', id));
      assert.equal((await here.getDocument(id))!.visibility, 'private');
      // Another process (or a worker thread's connection) writes: the record kept here is dropped.
      await other.setAccess(id, { visibility: 'public' }, audit('access.change', id));
      await sleep(5);
      assert.equal((await here.getDocument(id))!.visibility, 'public');
      await here.setAccess(id, { visibility: 'private', legalHold: true }, audit('access.change', id));
      assert.deepEqual(
        [(await here.getDocument(id))!.visibility, (await here.getDocument(id))!.legalHold],
        ['private', true],
      );
      await here.setAccess(id, { legalHold: false }, audit('access.change', id));
      await other.replaceDocument(id, revision('two', fields('Two')), audit('document.replace', id));
      await sleep(5);
      const replaced = (await here.getDocument(id))!;
      assert.deepEqual([replaced.revision, replaced.title], [2, 'Two']);
      assert.throws(
        () => {
          (replaced as { title: string }).title = 'changed by a caller';
        },
        TypeError,
        'a kept record is shared by every caller, so it cannot be changed',
      );
      await other.deleteDocument(id, audit('document.delete', id));
      await sleep(5);
      assert.equal(await here.getDocument(id), undefined);
    } finally {
      await here.close();
      await other.close();
    }
  });
});
