/**
 * The SQLite store commits the document writes of one turn of the event loop together
 * (src/store/sqlite/group-commit.ts): one transaction, so one new segment of the search index for
 * them all; and a write that fails in such a group fails alone, leaving nothing of itself, while
 * the others are kept once each.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { SearchEntry } from '../../src/oscal/search/extract.js';
import { sqlitePath } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { audit, fields, newDoc, revision } from './data.js';
import { openThrough } from './harness.js';

const uuid = (n: number) => `6c0a0000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const words = (n: number): SearchEntry[] => [{ path: '/catalog', kind: 'catalog', text: `word${n}`, controlIds: [] }];
const create = (store: Store, n: number) =>
  store.createDocument(
    newDoc(uuid(n)),
    { ...revision(`content ${n}`, fields(`Doc ${n}`)), search: words(n) },
    audit('document.create', uuid(n)),
  );
const foundIn = async (store: Store, text: string) =>
  (await store.searchEntries({ text, limit: 10 })).map((h) => h.documentId);

describe('SQLite: document writes of one turn share a commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oscal-depot-sqlite-group-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('writes sent together make one segment of the search index; writes awaited in turn make one each', async () => {
    const dataDir = join(dir, 'segments');
    const store = await openThrough({ dataDir }, 'sqlite');
    const file = new Database(sqlitePath({ dataDir }), { readonly: true });
    const segments = () =>
      (file.prepare('SELECT count(DISTINCT segid) AS n FROM search_fts_idx').get() as { n: number }).n;
    try {
      await Promise.all([1, 2, 3].map((n) => create(store, n)));
      assert.equal(segments(), 1);
      await create(store, 4);
      await create(store, 5);
      assert.equal(segments(), 3);
      // The first of a group indexes its entries in one statement, those after it one by one.
      for (const n of [1, 2, 3, 5]) assert.deepEqual(await foundIn(store, `word${n}`), [uuid(n)]);
    } finally {
      file.close();
      await store.close();
    }
  });

  test('a write that fails among others fails alone: nothing of it is kept, the others are kept once', async () => {
    const dataDir = join(dir, 'failures');
    const store = await openThrough({ dataDir }, 'sqlite');
    const file = new Database(sqlitePath({ dataDir }));
    try {
      await create(store, 1);
      // Fails after the document's row and blobs are written, so the group has changes to undo.
      file.exec(
        `CREATE TRIGGER refuse_for_test BEFORE INSERT ON revisions WHEN NEW.document_id = '${uuid(3)}'
         BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
      );
      const outcomes = await Promise.allSettled([
        create(store, 2),
        create(store, 1),
        create(store, 3),
        create(store, 4),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
      );
      const [, duplicate, refused] = outcomes as PromiseRejectedResult[];
      assert.equal((duplicate!.reason as { reason?: string }).reason, 'exists');
      assert.match(String(refused!.reason), /refused for the test/);
      const count = (sql: string, id: string) => (file.prepare(sql).get(id) as { n: number }).n;
      for (const [n, kept] of [
        [1, 1],
        [2, 1],
        [3, 0],
        [4, 1],
      ] as const) {
        assert.equal(count('SELECT count(*) AS n FROM documents WHERE id = ?', uuid(n)), kept, `document ${n}`);
        assert.equal(
          count('SELECT count(*) AS n FROM revisions WHERE document_id = ?', uuid(n)),
          kept,
          `revision ${n}`,
        );
        assert.equal(count('SELECT count(*) AS n FROM search_entries WHERE document_id = ?', uuid(n)), kept);
        assert.equal(
          count("SELECT count(*) AS n FROM audit_log WHERE document_id = ? AND action = 'document.create'", uuid(n)),
          kept,
          `audit entries of ${n}`,
        );
      }
      assert.deepEqual(await foundIn(store, 'word3'), []);
      assert.deepEqual(await foundIn(store, 'word4'), [uuid(4)]);
    } finally {
      file.close();
      await store.close();
    }
  });
});
