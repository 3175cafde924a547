/**
 * Blobs: the stored bytes by hash, gzip and brotli. Run on each backend, a fresh store per test,
 * by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { blobOf } from '../../src/service/blobs.js';
import { audit, canonicalText, fields, hashOf, newDoc, originalText, renditionText, revision } from './data.js';
import { conformance } from './harness.js';

conformance('blobs', ({ withStore }) => {
  test(
    'getBlob and getBlobEncoded: gzip always, br only when given',
    withStore(async (store) => {
      const id = 'cf0c0000-0000-4000-8000-000000000001';
      const input = revision('blobs', fields('Blobs'), { renditions: ['json', 'yaml'] });
      await store.createDocument(newDoc(id), input, audit('document.create', id));
      const canonical = canonicalText('blobs');
      const original = originalText('blobs');

      assert.deepEqual(
        await store.getBlob(input.canonical.hash),
        input.canonical.gzip,
        'the stored gzip bytes, as given',
      );
      assert.deepEqual(await store.getBlobEncoded(input.canonical.hash, 'gzip'), input.canonical.gzip);
      assert.equal(
        brotliDecompressSync((await store.getBlobEncoded(input.canonical.hash, 'br'))!).toString(),
        canonical,
      );
      assert.equal(gunzipSync((await store.getBlobEncoded(input.original.hash, 'gzip'))!).toString(), original);
      assert.equal(
        await store.getBlobEncoded(input.original.hash, 'br'),
        undefined,
        'no brotli copy was given for the original',
      );
      const yaml = renditionText('blobs', 'yaml');
      assert.equal(brotliDecompressSync((await store.getBlobEncoded(hashOf(yaml), 'br'))!).toString(), yaml);
      const missing = hashOf('never stored');
      assert.equal(await store.getBlob(missing), undefined);
      assert.equal(await store.getBlobEncoded(missing, 'gzip'), undefined);
      assert.equal(await store.getBlobEncoded(missing, 'br'), undefined);

      // The original's bytes come back as a rendition with a brotli copy: that copy is kept.
      await store.putRendition(id, 1, 'xml', blobOf(Buffer.from(original), true));
      assert.equal(brotliDecompressSync((await store.getBlobEncoded(input.original.hash, 'br'))!).toString(), original);
      assert.equal(gunzipSync((await store.getBlob(input.original.hash))!).toString(), original);
    }),
  );
});
