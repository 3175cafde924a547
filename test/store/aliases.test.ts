/**
 * Aliases: given and metadata names of documents, and finding documents by them. Run on each
 * backend, a fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rejectsWith } from './checks.js';
import { audit, fields, newDoc, revision } from './data.js';
import { conformance } from './harness.js';

conformance('aliases', ({ withStore }) => {
  test(
    'aliases: given ones replaced as a set; metadata ones follow the current revision, also when it is deleted; found by key; gone with the document',
    withStore(async (store) => {
      const a = 'a11a5000-0000-4000-8000-000000000001';
      const b = 'a11a5000-0000-4000-8000-000000000002';
      const entry = (alias: string, key: string) => ({ alias, key });
      await store.createDocument(
        newDoc(a),
        revision(
          'alias a1',
          fields('A', {
            aliases: [
              entry('https://x.org/a.json', 'url:https://x.org/a.json'),
              entry('https://x.org/a.json', 'name:a'),
            ],
          }),
        ),
        audit('document.create', a),
      );
      await store.createDocument(newDoc(b), revision('alias b1', fields('B')), audit('document.create', b));
      await store.setAliases(b, [entry('a.xml', 'name:a'), entry('b.yaml', 'name:b')], audit('document.aliases', b));
      assert.deepEqual(await store.findAliases(['name:a']), [
        { documentId: a, key: 'name:a' },
        { documentId: b, key: 'name:a' },
      ]);
      assert.deepEqual(await store.findAliases(['url:https://x.org/a.json', 'name:b', 'name:none']), [
        { documentId: a, key: 'url:https://x.org/a.json' },
        { documentId: b, key: 'name:b' },
      ]);
      assert.deepEqual(await store.listAliases(b), [
        { source: 'given', alias: 'a.xml', key: 'name:a' },
        { source: 'given', alias: 'b.yaml', key: 'name:b' },
      ]);
      await store.setAliases(b, [entry('c.json', 'name:c')], audit('document.aliases', b));
      assert.deepEqual(
        (await store.listAliases(b)).map((r) => r.alias),
        ['c.json'],
      );
      assert.equal((await store.listAudit(10, { action: 'document.aliases' })).length, 2);
      await rejectsWith(
        store.setAliases('a11a5000-0000-4000-8000-00000000dead', [], audit('document.aliases', b)),
        'not-found',
      );

      await store.replaceDocument(
        a,
        revision('alias a2', fields('A v2', { aliases: [entry('urn:x:a', 'name:urn:x:a')] })),
        audit('document.replace', a),
      );
      assert.deepEqual(
        (await store.listAliases(a)).map((r) => [r.source, r.alias]),
        [['metadata', 'urn:x:a']],
      );
      await store.deleteRevision(a, 2, audit('revision.delete', a));
      assert.deepEqual(
        [...new Set((await store.listAliases(a)).map((r) => r.alias))],
        ['https://x.org/a.json'],
        "back to revision 1's metadata",
      );

      await store.deleteDocument(a, audit('document.delete', a));
      assert.deepEqual(await store.listAliases(a), []);
      assert.deepEqual(await store.findAliases(['name:a', 'url:https://x.org/a.json']), []);
    }),
  );
});
