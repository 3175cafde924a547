/**
 * Deleting documents: everything hanging off them goes, shared blobs stay, legal holds refuse. Run
 * on each backend, a fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blobOf } from '../../src/service/blobs.js';
import { blobText, rejectsWith } from './checks.js';
import {
  audit,
  canonicalText,
  fields,
  hashOf,
  listQuery,
  newDoc,
  originalText,
  renditionText,
  revision,
  sizeOf,
} from './data.js';
import { conformance } from './harness.js';

conformance('document-deletion', ({ withStore }) => {
  test(
    'deleteDocument removes the document, its revisions, renditions, grants, jobs and unshared blobs',
    withStore(async (store) => {
      const a = '8f0c0000-0000-4000-8000-00000000000a';
      const b = '8f0c0000-0000-4000-8000-00000000000b';
      const shared = originalText('shared original');
      const a1 = await store.createDocument(
        newDoc(a),
        revision('a1', fields('Doc A'), { renditions: ['json', 'xml'], pending: ['yaml'], original: shared }),
        audit('document.create', a),
      );
      await store.createDocument(
        newDoc(b, 'bob'),
        revision('b1', fields('Doc B'), { original: shared }),
        audit('document.create', b, 'bob'),
      );
      const a2 = await store.replaceDocument(
        a,
        revision('a2', fields('Doc A v2'), { pending: ['xml', 'yaml'] }),
        audit('document.replace', a),
      );
      // B's YAML rendition has the same bytes as A's second canonical form.
      await store.putRendition(b, 1, 'yaml', blobOf(Buffer.from(canonicalText('a2')), true));
      await store.putRendition(a, 2, 'json', blobOf(Buffer.from(canonicalText('a2')), true));
      await store.setAccess(
        a,
        {
          grants: [
            { principal: 'user:carol', permission: 'read' },
            { principal: 'group:auditors', permission: 'write' },
          ],
        },
        audit('access.change', a),
      );
      await store.setAccess(
        b,
        { grants: [{ principal: 'user:carol', permission: 'read' }] },
        audit('access.change', b, 'bob'),
      );
      const claimed = (await store.claimJob('worker-1'))!;
      const madeByJob = `made by job ${claimed.id}`;
      await store.finishJob(claimed.id, { rendition: blobOf(Buffer.from(madeByJob), true) });
      assert.deepEqual(await store.getRendition(a, claimed.revision, claimed.format), {
        hash: hashOf(madeByJob),
        size: sizeOf(madeByJob),
      });
      const bBefore = await store.getDocument(b);
      const aJobs = [...a1.jobs, ...a2.jobs];
      assert.equal(aJobs.length, 3);

      await store.deleteDocument(a, audit('document.delete', a, 'alice', { model: 'catalog', reason: 'test' }));

      assert.equal(await store.getDocument(a), undefined);
      assert.deepEqual(await store.listRevisions(a), []);
      assert.equal(await store.getRevision(a, 1), undefined);
      assert.equal(await store.getRevision(a, 2), undefined);
      for (const [rev, format] of [
        [1, 'json'],
        [1, 'xml'],
        [2, 'json'],
        [claimed.revision, claimed.format],
      ] as const) {
        assert.equal(await store.getRendition(a, rev, format), undefined, `rendition ${rev}/${format}`);
      }
      assert.equal(await store.getAccess(a), undefined);
      assert.deepEqual(await store.grantsFor(a, ['user:carol', 'group:auditors']), []);
      for (const job of aJobs) assert.equal(await store.getJob(job), undefined, `job ${job}`);
      assert.equal(await store.findJob(a, 2, 'yaml'), undefined);
      assert.equal(await store.countJobs('queued'), 0);
      assert.equal(await store.countJobs('done'), 0);
      assert.equal(await store.claimJob('worker-2'), undefined);

      for (const gone of [canonicalText('a1'), originalText('a2'), renditionText('a1', 'xml'), madeByJob]) {
        assert.equal(
          await store.getBlob(hashOf(gone)),
          undefined,
          `unshared blob ${JSON.stringify(gone.slice(0, 40))} is removed`,
        );
        assert.equal(await store.getBlobEncoded(hashOf(gone), 'br'), undefined);
      }
      assert.equal(await blobText(store, hashOf(shared)), shared, 'the original shared with B is kept');
      assert.equal(
        await blobText(store, hashOf(canonicalText('a2'))),
        canonicalText('a2'),
        "the blob that is also B's rendition is kept",
      );
      assert.equal(await blobText(store, hashOf(canonicalText('b1'))), canonicalText('b1'));

      assert.deepEqual(await store.getDocument(b), bBefore);
      assert.deepEqual(await store.getRendition(b, 1, 'yaml'), {
        hash: hashOf(canonicalText('a2')),
        size: sizeOf(canonicalText('a2')),
      });
      assert.deepEqual(await store.getAccess(b), {
        owner: 'bob',
        visibility: 'private',
        legalHold: false,
        grants: [{ principal: 'user:carol', permission: 'read' }],
      });
      assert.deepEqual(
        (await store.listDocuments(listQuery())).map((d) => d.id),
        [b],
      );
      assert.equal(await store.countDocuments(), 1);
      assert.deepEqual(
        (await store.listAudit(1)).map(({ id: _, at: __, ...e }) => e),
        [{ actor: 'alice', action: 'document.delete', documentId: a, detail: { model: 'catalog', reason: 'test' } }],
      );

      await rejectsWith(store.deleteDocument(a, audit('document.delete', a)), 'not-found');
      assert.equal(
        (await store.listAudit(10)).filter((e) => e.action === 'document.delete').length,
        1,
        'a refused delete is not audited',
      );
      // A new document may take the deleted one's id, starting again at revision 1.
      await store.createDocument(newDoc(a), revision('a3', fields('Doc A again')), audit('document.create', a));
      assert.deepEqual(
        (await store.listRevisions(a)).map((r) => r.number),
        [1],
      );
    }),
  );

  test(
    'a delete racing writes that reuse its blobs: every operation succeeds and the reused blobs stay',
    withStore(async (store) => {
      const n = (prefix: string, i: number) => `8f1c0000-0000-4000-8000-${prefix}${String(i).padStart(8, '0')}`;
      const rounds = Array.from({ length: 16 }, (_, i) => ({
        a: n('0000', i),
        c: n('0001', i),
        v: n('0002', i),
        w: n('0003', i),
        shared: originalText(`reused ${i}`),
        sharedV: originalText(`reused version ${i}`),
      }));
      for (const r of rounds) {
        await store.createDocument(
          newDoc(r.a),
          revision(r.a, fields('Deleted'), { original: r.shared }),
          audit('document.create', r.a),
        );
        await store.createDocument(newDoc(r.v), revision(r.v, fields('Versioned')), audit('document.create', r.v));
        await store.replaceDocument(
          r.v,
          revision(`${r.v} 2`, fields('Versioned'), { original: r.sharedV }),
          audit('document.replace', r.v),
        );
      }

      const outcomes = await Promise.allSettled(
        rounds.flatMap((r) => [
          store.deleteDocument(r.a, audit('document.delete', r.a)),
          store.createDocument(
            newDoc(r.c),
            revision(r.c, fields('Reusing'), { original: r.shared }),
            audit('document.create', r.c),
          ),
          store.deleteRevision(r.v, 2, audit('version.delete', r.v)),
          store.createDocument(
            newDoc(r.w),
            revision(r.w, fields('Reusing'), { original: r.sharedV }),
            audit('document.create', r.w),
          ),
        ]),
      );
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
      assert.deepEqual([...new Set(failures)], [], `${failures.length} of ${outcomes.length} operations failed`);
      for (const r of rounds) {
        assert.equal(await store.getDocument(r.a), undefined);
        assert.equal((await store.getDocument(r.c))?.title, 'Reusing');
        assert.equal(await blobText(store, hashOf(r.shared)), r.shared, 'the blob the new document refers to');
        assert.deepEqual(
          (await store.listRevisions(r.v)).map((v) => v.number),
          [1],
        );
        assert.equal(await blobText(store, hashOf(r.sharedV)), r.sharedV, 'the blob the other new document refers to');
      }
    }),
  );

  test(
    'concurrent deletes of documents sharing a blob leave no unreferenced blob behind',
    withStore(async (store) => {
      const rounds = Array.from({ length: 16 }, (_, i) => ({
        p: `8f2c0000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`,
        q: `8f2c0000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
        shared: originalText(`pair ${i}`),
      }));
      for (const r of rounds) {
        await store.createDocument(
          newDoc(r.p),
          revision(r.p, fields('P'), { original: r.shared }),
          audit('document.create', r.p),
        );
        await store.createDocument(
          newDoc(r.q),
          revision(r.q, fields('Q'), { original: r.shared }),
          audit('document.create', r.q),
        );
      }
      await Promise.all(
        rounds.flatMap((r) => [
          store.deleteDocument(r.p, audit('document.delete', r.p)),
          store.deleteDocument(r.q, audit('document.delete', r.q)),
        ]),
      );
      assert.equal(await store.countDocuments(), 0);
      const kept: number[] = [];
      for (const [i, r] of rounds.entries()) if (await store.getBlob(hashOf(r.shared))) kept.push(i);
      assert.deepEqual(kept, [], `the blobs of ${kept.length} of ${rounds.length} pairs outlived both documents`);
    }),
  );

  test(
    'deleteDocument under a legal hold is refused with reason legal-hold and deletes nothing',
    withStore(async (store) => {
      const id = '9f0c0000-0000-4000-8000-000000000001';
      const { jobs } = await store.createDocument(
        newDoc(id),
        revision('held', fields('Held'), { renditions: ['json', 'xml'], pending: ['yaml'] }),
        audit('document.create', id),
      );
      await store.setAccess(
        id,
        { legalHold: true, grants: [{ principal: 'user:carol', permission: 'read' }] },
        audit('access.change', id, 'admin', { legalHold: true }),
      );
      const before = await store.getDocument(id);
      assert.equal(before?.legalHold, true);

      await rejectsWith(store.deleteDocument(id, audit('document.delete', id)), 'legal-hold');

      assert.deepEqual(await store.getDocument(id), before);
      assert.deepEqual(
        (await store.listRevisions(id)).map((r) => r.number),
        [1],
      );
      assert.deepEqual(await store.getRendition(id, 1, 'xml'), {
        hash: hashOf(renditionText('held', 'xml')),
        size: sizeOf(renditionText('held', 'xml')),
      });
      assert.equal(await blobText(store, hashOf(originalText('held'))), originalText('held'));
      assert.deepEqual(await store.grantsFor(id, ['user:carol']), [{ principal: 'user:carol', permission: 'read' }]);
      assert.equal((await store.getJob(jobs[0]!))?.status, 'queued');
      assert.equal(await store.countDocuments(), 1);
      assert.deepEqual(
        (await store.listAudit(10)).map((e) => e.action),
        ['access.change', 'document.create'],
      );

      await store.setAccess(id, { legalHold: false }, audit('access.change', id, 'admin', { legalHold: false }));
      await store.deleteDocument(id, audit('document.delete', id));
      assert.equal(await store.getDocument(id), undefined);
      assert.equal(await store.countDocuments(), 0);
    }),
  );
});
