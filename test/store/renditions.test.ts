/**
 * Renditions: put and get, and none for a deleted document. Run on each backend, a fresh store per
 * test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blobOf } from '../../src/service/blobs.js';
import { blobText } from './checks.js';
import { audit, fields, hashOf, newDoc, renditionText, revision, sizeOf } from './data.js';
import { conformance } from './harness.js';

conformance('renditions', ({ withStore }) => {
  test(
    'putRendition and finishJob for a deleted document do nothing and leave no blob behind',
    withStore(async (store) => {
      const a = '8f5c0000-0000-4000-8000-00000000000a';
      const { jobs } = await store.createDocument(
        newDoc(a),
        revision('a1', fields('Gone soon'), { pending: ['xml'] }),
        audit('document.create', a),
      );
      const claimed = (await store.claimJob('worker'))!;
      assert.equal(claimed.id, jobs[0]);
      await store.deleteDocument(a, audit('document.delete', a));
      const late = blobOf(Buffer.from('rendition made too late'), true);
      await store.putRendition(a, 1, 'yaml', late);
      await store.finishJob(claimed.id, { rendition: late });
      assert.equal(await store.getRendition(a, 1, 'yaml'), undefined);
      assert.equal(await store.getBlob(late.hash), undefined);
    }),
  );

  test(
    'putRendition is idempotent; getRendition gives hash and size per revision and format',
    withStore(async (store) => {
      const id = 'bf0c0000-0000-4000-8000-000000000001';
      await store.createDocument(newDoc(id), revision('rend', fields('Renditions')), audit('document.create', id));
      const xml = renditionText('rend', 'xml');
      await store.putRendition(id, 1, 'xml', blobOf(Buffer.from(xml), true));
      await store.putRendition(id, 1, 'xml', blobOf(Buffer.from(xml), true));
      const got = await store.getRendition(id, 1, 'xml');
      assert.deepEqual(got, { hash: hashOf(xml), size: sizeOf(xml) });
      assert.equal(typeof got!.size, 'number');
      assert.equal(await blobText(store, hashOf(xml)), xml);
      assert.equal(await store.getRendition(id, 1, 'yaml'), undefined);

      await store.replaceDocument(id, revision('rend2', fields('Renditions 2')), audit('document.replace', id));
      assert.equal(await store.getRendition(id, 2, 'xml'), undefined, 'renditions belong to one revision');
      await store.putRendition(id, 2, 'xml', blobOf(Buffer.from(xml), true));
      assert.deepEqual(
        await store.getRendition(id, 2, 'xml'),
        { hash: hashOf(xml), size: sizeOf(xml) },
        'one blob may serve two revisions',
      );
      assert.deepEqual(await store.getRendition(id, 1, 'xml'), { hash: hashOf(xml), size: sizeOf(xml) });
      assert.equal(await store.getRendition(id, 3, 'xml'), undefined);
      assert.equal(await store.getRendition('bf0c0000-0000-4000-8000-000000000009', 1, 'json'), undefined);
    }),
  );
});
