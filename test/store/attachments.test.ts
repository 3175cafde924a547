/**
 * Attachments: the files behind back-matter resources, written with revisions. Run on each
 * backend, a fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { blobOf } from '../../src/service/blobs.js';
import type { BlobInput } from '../../src/store/types.js';
import { audit, fields, newDoc, revision } from './data.js';
import { conformance } from './harness.js';

conformance('attachments', ({ withStore }) => {
  test(
    'attachments: stored with a revision, replaced, dropped with their resource, kept under a legal hold, gone with the document',
    withStore(async (store) => {
      const a = '8f2c0000-0000-4000-8000-00000000000a';
      const [r1, r2] = ['8f2c0000-0000-4000-8000-0000000000r1', '8f2c0000-0000-4000-8000-0000000000r2'];
      const png = Buffer.from('\x89PNG not really, but bytes that do not shrink: ' + 'x'.repeat(10));
      const plain: BlobInput = { hash: blobOf(png).hash, size: png.length, gzip: png, plain: true };
      const text = Buffer.from('policy text '.repeat(500));
      const gzipped = blobOf(text);
      await store.createDocument(newDoc(a), revision('a1', fields('With files')), audit('document.create', a));
      await store.replaceDocument(
        a,
        {
          ...revision('a2', fields('With files')),
          resources: [r1, r2],
          attachments: [
            { resourceUuid: r1, blob: plain, mediaType: 'image/png', filename: 'diagram é.png' },
            { resourceUuid: r2, blob: gzipped, mediaType: 'text/plain', filename: 'policy.txt' },
          ],
        },
        audit('attachment.create', a),
      );
      const one = (await store.getAttachment(a, r1))!;
      assert.deepEqual(
        { ...one, createdAt: undefined },
        {
          resourceUuid: r1,
          hash: plain.hash,
          size: png.length,
          mediaType: 'image/png',
          filename: 'diagram é.png',
          createdAt: undefined,
        },
      );
      assert.deepEqual(await store.getAttachmentBytes(plain.hash), { data: png, plain: true });
      const two = (await store.getAttachmentBytes(gzipped.hash))!;
      assert.equal(two.plain, false);
      assert.deepEqual(gunzipSync(two.data), text);
      assert.equal(await store.getAttachment(a, 'no-such-resource'), undefined);

      // The same bytes written again as gzip (a content blob, say) become gzip for every reader.
      await store.putRendition(a, 2, 'xml', blobOf(png));
      assert.deepEqual(gunzipSync((await store.getBlob(plain.hash))!), png);
      assert.deepEqual(gunzipSync((await store.getAttachmentBytes(plain.hash))!.data), png);

      // Without `resources`, every file stays; a revision without r2 drops r2's file and blob.
      await store.replaceDocument(a, revision('a3', fields('With files')), audit('document.replace', a));
      assert.ok(await store.getAttachment(a, r2));
      await store.replaceDocument(
        a,
        { ...revision('a4', fields('With files')), resources: [r1] },
        audit('document.replace', a),
      );
      assert.equal(await store.getAttachment(a, r2), undefined);
      assert.equal(await store.getAttachmentBytes(gzipped.hash), undefined, 'the unshared blob is collected');

      // Under a legal hold a revision without the resource keeps its file.
      await store.setAccess(a, { legalHold: true }, audit('access.change', a));
      await store.replaceDocument(
        a,
        { ...revision('a5', fields('With files')), resources: [] },
        audit('document.replace', a),
      );
      assert.ok(await store.getAttachment(a, r1));
      await store.setAccess(a, { legalHold: false }, audit('access.change', a));

      // Replacing a file collects the old bytes.
      const newer = blobOf(Buffer.from('second drawing '.repeat(100)));
      await store.replaceDocument(
        a,
        {
          ...revision('a6', fields('With files')),
          resources: [r1],
          attachments: [{ resourceUuid: r1, blob: newer, mediaType: 'image/svg+xml', filename: 'd.svg' }],
        },
        audit('attachment.replace', a),
      );
      assert.equal((await store.getAttachment(a, r1))!.hash, newer.hash);
      assert.equal((await store.getAttachment(a, r1))!.mediaType, 'image/svg+xml');
      assert.ok(
        await store.getAttachmentBytes(plain.hash),
        'the old bytes stay while revision 2 has them as a rendition',
      );

      await store.deleteDocument(a, audit('document.delete', a));
      assert.equal(await store.getAttachment(a, r1), undefined);
      assert.equal(await store.getAttachmentBytes(newer.hash), undefined);
    }),
  );
});
