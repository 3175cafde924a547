/**
 * Snapshots: content and resolved, with their own copies and the legal hold. Run on each backend,
 * a fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blobOf } from '../../src/service/blobs.js';
import { blobText, rejectsWith } from './checks.js';
import { audit, canonicalText, fields, newDoc, revision } from './data.js';
import { conformance } from './harness.js';

conformance('snapshots', ({ withStore }) => {
  test(
    'snapshots: create, list by kind, get, update (old copy collected), delete; legal hold; gone with the document',
    withStore(async (store) => {
      const a = '8f4c0000-0000-4000-8000-00000000000a';
      const [s1, s2, s3] = [
        '8f4c0000-0000-4000-8000-0000000000s1',
        '8f4c0000-0000-4000-8000-0000000000s2',
        '8f4c0000-0000-4000-8000-0000000000s3',
      ];
      await store.createDocument(newDoc(a), revision('a1', fields('Snapped')), audit('document.create', a));
      const copy = (text: string) => blobOf(Buffer.from(canonicalText(text)));
      const base = { documentId: a, revision: 1, author: 'alice' };
      await store.createSnapshot(
        { ...base, id: s1, kind: 'content', labels: ['v1'], types: [], createdAt: '2024-06-01T00:00:00.000Z' },
        copy('snap 1'),
        audit('snapshot.create', a),
      );
      await store.createSnapshot(
        {
          ...base,
          id: s2,
          kind: 'content',
          description: 'second',
          labels: [],
          types: ['audit'],
          createdAt: '2024-06-02T00:00:00.000Z',
        },
        copy('snap 2'),
        audit('snapshot.create', a),
      );
      await store.createSnapshot(
        {
          ...base,
          id: s3,
          kind: 'resolved',
          labels: [],
          types: ['resolved-profile'],
          createdAt: '2024-06-03T00:00:00.000Z',
        },
        copy('resolved 1'),
        audit('resolved-snapshot.create', a),
      );
      await rejectsWith(
        store.createSnapshot(
          {
            ...base,
            documentId: 'no-such-document',
            id: 'x',
            kind: 'content',
            labels: [],
            types: [],
            createdAt: '2024-06-01T00:00:00.000Z',
          },
          copy('orphan'),
          audit('snapshot.create', a),
        ),
        'not-found',
      );

      assert.deepEqual(
        (await store.listSnapshots(a, 'content')).map((s) => [s.id, s.description, s.labels, s.types, s.canonicalHash]),
        [
          [s1, undefined, ['v1'], [], copy('snap 1').hash],
          [s2, 'second', [], ['audit'], copy('snap 2').hash],
        ],
      );
      assert.deepEqual(
        (await store.listSnapshots(a, 'resolved')).map((s) => s.id),
        [s3],
      );
      assert.equal(await store.getSnapshot(a, 'resolved', s1), undefined, 'a content snapshot is not a resolved one');
      const got = (await store.getSnapshot(a, 'content', s1))!;
      assert.equal(got.createdAt, '2024-06-01T00:00:00.000Z');
      assert.equal(got.revision, 1);

      await store.updateSnapshot(
        a,
        'content',
        s1,
        { description: 'now described', labels: ['v1', 'final'], types: ['x'] },
        copy('snap 1 annotated'),
        audit('snapshot.update', a),
      );
      const updated = (await store.getSnapshot(a, 'content', s1))!;
      assert.deepEqual(
        [updated.description, updated.labels, updated.types, updated.createdAt],
        ['now described', ['v1', 'final'], ['x'], '2024-06-01T00:00:00.000Z'],
      );
      assert.equal(await blobText(store, updated.canonicalHash), canonicalText('snap 1 annotated'));
      assert.equal(await store.getBlob(copy('snap 1').hash), undefined, 'the replaced copy is collected');
      await rejectsWith(
        store.updateSnapshot(a, 'content', 'nope', { labels: [], types: [] }, copy('n'), audit('snapshot.update', a)),
        'not-found',
      );

      await store.setAccess(a, { legalHold: true }, audit('access.change', a));
      await rejectsWith(store.deleteSnapshot(a, 'content', s2, audit('snapshot.delete', a)), 'legal-hold');
      await store.setAccess(a, { legalHold: false }, audit('access.change', a));
      await store.deleteSnapshot(a, 'content', s2, audit('snapshot.delete', a));
      assert.equal(await store.getSnapshot(a, 'content', s2), undefined);
      assert.equal(await store.getBlob(copy('snap 2').hash), undefined);
      await rejectsWith(store.deleteSnapshot(a, 'content', s2, audit('snapshot.delete', a)), 'not-found');

      await store.deleteDocument(a, audit('document.delete', a));
      assert.deepEqual(await store.listSnapshots(a, 'content'), []);
      assert.deepEqual(await store.listSnapshots(a, 'resolved'), []);
      assert.equal(await store.getBlob(updated.canonicalHash), undefined);
      assert.equal(await store.getBlob(copy('resolved 1').hash), undefined);
    }),
  );
});
