/**
 * Jobs: queued by revision writes, claimed once each, finished with a rendition or an error. Run
 * on each backend, a fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { blobOf } from '../../src/service/blobs.js';
import { assertStamp, blobText, present } from './checks.js';
import { audit, fields, hashOf, newDoc, renditionText, revision, sizeOf } from './data.js';
import { conformance } from './harness.js';

conformance('jobs', ({ withStore }) => {
  test(
    'jobs: pendingFormats become queued jobs; findJob, getJob and countJobs report them',
    withStore(async (store) => {
      const id = 'df0c0000-0000-4000-8000-000000000001';
      const t0 = Date.now();
      const { jobs } = await store.createDocument(
        newDoc(id),
        revision('jobs', fields('Jobs'), { pending: ['xml', 'yaml'] }),
        audit('document.create', id),
      );
      const t1 = Date.now();
      assert.equal(jobs.length, 2);
      assert.equal(new Set(jobs).size, 2);
      const [xmlJob, yamlJob] = [(await store.getJob(jobs[0]!))!, (await store.getJob(jobs[1]!))!];
      assert.deepEqual(
        [
          { ...xmlJob, createdAt: '', updatedAt: '' },
          { ...yamlJob, createdAt: '', updatedAt: '' },
        ].map(present),
        [
          {
            id: jobs[0],
            documentId: id,
            revision: 1,
            format: 'xml',
            status: 'queued',
            attempts: 0,
            createdAt: '',
            updatedAt: '',
          },
          {
            id: jobs[1],
            documentId: id,
            revision: 1,
            format: 'yaml',
            status: 'queued',
            attempts: 0,
            createdAt: '',
            updatedAt: '',
          },
        ],
      );
      assertStamp(xmlJob.createdAt, t0, t1, 'job createdAt');
      assertStamp(xmlJob.updatedAt, t0, t1, 'job updatedAt');
      assert.deepEqual(await store.findJob(id, 1, 'xml'), xmlJob);
      assert.deepEqual(await store.findJob(id, 1, 'yaml'), yamlJob);
      assert.equal(await store.findJob(id, 1, 'json'), undefined);
      assert.equal(await store.findJob(id, 2, 'xml'), undefined);
      assert.equal(await store.getJob('df0c0000-0000-4000-8000-00000000dead'), undefined);
      assert.deepEqual(
        [
          await store.countJobs('queued'),
          await store.countJobs('running'),
          await store.countJobs('done'),
          await store.countJobs('failed'),
        ],
        [2, 0, 0, 0],
      );
      assert.equal(await store.getRendition(id, 1, 'xml'), undefined, 'a queued job is no rendition yet');

      const next = await store.replaceDocument(
        id,
        revision('jobs2', fields('Jobs 2'), { pending: ['xml'] }),
        audit('document.replace', id),
      );
      assert.equal(next.jobs.length, 1);
      assert.deepEqual(await store.findJob(id, 2, 'xml').then((j) => j && [j.id, j.revision, j.status]), [
        next.jobs[0],
        2,
        'queued',
      ]);
      assert.equal((await store.findJob(id, 1, 'xml'))?.id, jobs[0], 'the first revision keeps its own job');
      assert.equal(await store.countJobs('queued'), 3);
    }),
  );

  test(
    'claimJob hands each job to exactly one of three concurrent claimers',
    withStore(async (store) => {
      const expected = new Set<string>();
      for (let i = 0; i < 10; i++) {
        const id = `ef0c0000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`;
        const { jobs } = await store.createDocument(
          newDoc(id),
          revision(`claim${i}`, fields(`Claim ${i}`), { pending: ['xml', 'yaml'] }),
          audit('document.create', id),
        );
        for (const job of jobs) expected.add(job);
      }
      assert.equal(expected.size, 20);

      const claimLoop = async (worker: string) => {
        const got: { id: string; status: string; attempts: number; worker: string }[] = [];
        for (let job = await store.claimJob(worker); job; job = await store.claimJob(worker)) {
          got.push({ id: job.id, status: job.status, attempts: job.attempts, worker });
          // A store handing out the same job again would keep this loop going for ever.
          if (got.length > 20) break;
        }
        return got;
      };
      const claims = (await Promise.all(['w1', 'w2', 'w3'].map(claimLoop))).flat();
      assert.equal(claims.length, 20, `20 claims in all, got ${claims.length}`);
      assert.deepEqual(new Set(claims.map((c) => c.id)), expected, 'every job claimed once');
      for (const c of claims)
        assert.deepEqual([c.status, c.attempts], ['running', 1], `job ${c.id} as claimed by ${c.worker}`);
      assert.deepEqual([await store.countJobs('queued'), await store.countJobs('running')], [0, 20]);
      assert.equal(await store.claimJob('w4'), undefined);
      assert.equal((await store.getJob(claims[0]!.id))?.status, 'running');
    }),
  );

  test(
    'finishJob: a rendition makes the job done and the rendition servable; an error makes it failed',
    withStore(async (store) => {
      const id = 'ef1c0000-0000-4000-8000-000000000001';
      await store.createDocument(newDoc(id), revision('fin', fields('Finish')), audit('document.create', id));
      const { jobs } = await store.replaceDocument(
        id,
        revision('fin2', fields('Finish 2'), { pending: ['xml', 'yaml'] }),
        audit('document.replace', id),
      );
      const first = (await store.claimJob('w1'))!;
      const second = (await store.claimJob('w1'))!;
      assert.deepEqual(new Set([first.id, second.id]), new Set(jobs));
      const made = renditionText('fin2', first.format);

      await store.finishJob(first.id, { rendition: blobOf(Buffer.from(made), true) });
      await store.finishJob(second.id, {
        error: 'XML serializer failed: unexpected end of input at /catalog/groups/3',
      });

      const done = (await store.getJob(first.id))!;
      assert.deepEqual([done.status, done.error, done.revision, done.format], ['done', undefined, 2, first.format]);
      assert.ok(done.updatedAt >= done.createdAt);
      assert.deepEqual(await store.getRendition(id, 2, first.format), { hash: hashOf(made), size: sizeOf(made) });
      assert.equal(await blobText(store, hashOf(made)), made);
      assert.equal(brotliDecompressSync((await store.getBlobEncoded(hashOf(made), 'br'))!).toString(), made);
      assert.deepEqual(await store.findJob(id, 2, first.format).then((j) => j?.status), 'done');

      const failed = (await store.getJob(second.id))!;
      assert.deepEqual(
        [failed.status, failed.error],
        ['failed', 'XML serializer failed: unexpected end of input at /catalog/groups/3'],
      );
      assert.equal(await store.getRendition(id, 2, second.format), undefined);
      assert.deepEqual(
        [
          await store.countJobs('queued'),
          await store.countJobs('running'),
          await store.countJobs('done'),
          await store.countJobs('failed'),
        ],
        [0, 0, 1, 1],
      );

      // A job whose document was deleted while it ran: finishing it is a no-op, not an error, and keeps no blob.
      const other = 'ef1c0000-0000-4000-8000-000000000002';
      await store.createDocument(
        newDoc(other),
        revision('gone', fields('Gone'), { pending: ['yaml'] }),
        audit('document.create', other),
      );
      const orphan = (await store.claimJob('w2'))!;
      assert.equal(orphan.documentId, other);
      await store.deleteDocument(other, audit('document.delete', other));
      await store.finishJob(orphan.id, { rendition: blobOf(Buffer.from('orphaned rendition'), true) });
      assert.equal(await store.getJob(orphan.id), undefined);
      assert.equal(await store.getRendition(other, 1, 'yaml'), undefined);
      assert.equal(await store.getBlob(hashOf('orphaned rendition')), undefined);
    }),
  );
});
