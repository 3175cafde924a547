/**
 * Documents: create, read back, replace (numbering, concurrency, ifRevision). Run on each backend,
 * a fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DocumentFields } from '../../src/store/types.js';
import { assertStamp, blobText, present, rejectsWith, withoutIdOrStamp, withoutStamps } from './checks.js';
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

conformance('documents', ({ withStore }) => {
  test(
    'createDocument then getDocument and listDocuments give back every list field as written',
    withStore(async (store) => {
      const full: DocumentFields = {
        title: 'NIST SP 800-53 Rev 5 — Security & Privacy Controls',
        version: '5.1.1+u2',
        oscalVersion: '1.1.2',
        published: '2020-09-23T00:00:00.000000-04:00',
        lastModified: '2023-12-04T17:56:31.533-05:00',
        documentIds: [
          { scheme: 'http://www.doi.org/', identifier: '10.6028/NIST.SP.800-53r5' },
          { scheme: 'https://www.ietf.org/rfc/rfc4122', identifier: '9a7f0b4c-2d1e-4f5a-8b6c-7d8e9f0a1b2c' },
        ],
        markings: ['TLP:CLEAR', 'CUI//SP-PRVCY', 'TLP:CLEAR'],
        remarks: 'Converted from NIST\'s **catalog**; été ✓ — "quoted", back\\slash\nsecond line',
      };
      const bare: DocumentFields = {
        title: 'Bare profile',
        version: '',
        oscalVersion: '1.0.0',
        lastModified: '2024-01-01T00:00:00Z',
        documentIds: [],
        markings: [],
      };
      const fullId = '1f0c0000-0000-4000-8000-000000000001';
      const bareId = '1f0c0000-0000-4000-8000-000000000002';
      const fullInput = revision('full', full, { renditions: ['json', 'xml', 'yaml'], originalFormat: 'xml' });
      const bareInput = revision('bare', bare, {
        author: 'bob',
        originalFormat: 'yaml',
        original: 'profile:\n  uuid: bare\n',
      });

      const t0 = Date.now();
      assert.deepEqual(
        await store.createDocument(
          newDoc(fullId, 'alice', 'private'),
          fullInput,
          audit('document.create', fullId, 'alice', { model: 'catalog', format: 'xml' }),
        ),
        { jobs: [] },
      );
      assert.deepEqual(
        await store.createDocument(
          newDoc(bareId, 'bob', 'public', 'profile'),
          bareInput,
          audit('document.create', bareId, 'bob', { model: 'profile', format: 'yaml' }),
        ),
        { jobs: [] },
      );
      const t1 = Date.now();

      const doc = await store.getDocument(fullId);
      assert.deepEqual(withoutStamps(doc), {
        id: fullId,
        model: 'catalog',
        owner: 'alice',
        visibility: 'private',
        legalHold: false,
        revision: 1,
        valid: true,
        ...full,
      });
      assertStamp(doc!.createdAt, t0, t1, 'createdAt');
      assertStamp(doc!.updatedAt, t0, t1, 'updatedAt');
      const bareDoc = await store.getDocument(bareId);
      assert.deepEqual(withoutStamps(bareDoc), {
        id: bareId,
        model: 'profile',
        owner: 'bob',
        visibility: 'public',
        legalHold: false,
        revision: 1,
        valid: true,
        ...bare,
      });
      assert.equal(bareDoc!.published, undefined);
      assert.equal(bareDoc!.remarks, undefined);
      assert.equal(await store.getDocument('1f0c0000-0000-4000-8000-000000000003'), undefined);
      // Several at once, as a page of search results asks: each that exists once, the missing left out.
      const several = await store.getDocuments([bareId, '1f0c0000-0000-4000-8000-000000000003', fullId, bareId]);
      assert.deepEqual(several.sort((a, b) => a.id.localeCompare(b.id)).map(present), [
        present(doc!),
        present(bareDoc!),
      ]);
      assert.deepEqual(await store.getDocuments([]), []);

      assert.deepEqual((await store.listDocuments(listQuery())).map(present), [present(doc!)]);
      assert.deepEqual((await store.listDocuments(listQuery({ model: 'profile' }))).map(present), [present(bareDoc!)]);
      assert.equal(await store.countDocuments(), 2);

      const revisions = await store.listRevisions(fullId);
      assert.deepEqual(revisions.map(withoutIdOrStamp), [
        {
          documentId: fullId,
          number: 1,
          fields: full,
          size: sizeOf(canonicalText('full')),
          canonicalHash: hashOf(canonicalText('full')),
          originalHash: hashOf(originalText('full')),
          originalFormat: 'xml',
          author: 'alice',
          findings: [],
          valid: true,
        },
      ]);
      assertStamp(revisions[0]!.createdAt, t0, t1, 'revision createdAt');
      assert.deepEqual(await store.getRevision(fullId, 1), revisions[0]);
      assert.equal(await store.getRevision(fullId, 2), undefined);
      const bareRevision = (await store.getRevision(bareId, 1))!;
      assert.deepEqual(withoutIdOrStamp(bareRevision), {
        documentId: bareId,
        number: 1,
        fields: bare,
        size: sizeOf(canonicalText('bare')),
        canonicalHash: hashOf(canonicalText('bare')),
        originalHash: hashOf('profile:\n  uuid: bare\n'),
        originalFormat: 'yaml',
        author: 'bob',
        findings: [],
        valid: true,
      });
      assert.ok(
        Number.isSafeInteger(revisions[0]!.recordId) && Number.isSafeInteger(bareRevision.recordId),
        'record ids are integers',
      );
      assert.notEqual(revisions[0]!.recordId, bareRevision.recordId, 'record ids are unique across documents');

      assert.equal(await blobText(store, hashOf(canonicalText('full'))), canonicalText('full'));
      assert.equal(await blobText(store, hashOf(originalText('full'))), originalText('full'));
      assert.equal(await blobText(store, hashOf('profile:\n  uuid: bare\n')), 'profile:\n  uuid: bare\n');
      for (const format of ['json', 'xml', 'yaml'] as const) {
        assert.deepEqual(
          await store.getRendition(fullId, 1, format),
          { hash: hashOf(renditionText('full', format)), size: sizeOf(renditionText('full', format)) },
          format,
        );
        assert.equal(await blobText(store, hashOf(renditionText('full', format))), renditionText('full', format));
      }
      assert.deepEqual(await store.getRendition(bareId, 1, 'json'), {
        hash: hashOf(canonicalText('bare')),
        size: sizeOf(canonicalText('bare')),
      });
      assert.equal(await store.getRendition(bareId, 1, 'xml'), undefined);

      assert.deepEqual(
        (await store.listAudit(10)).map(({ id: _, at: __, ...e }) => e),
        [
          { actor: 'bob', action: 'document.create', documentId: bareId, detail: { model: 'profile', format: 'yaml' } },
          {
            actor: 'alice',
            action: 'document.create',
            documentId: fullId,
            detail: { model: 'catalog', format: 'xml' },
          },
        ],
      );
    }),
  );

  test(
    'createDocument of an existing id is refused with reason exists and changes nothing',
    withStore(async (store) => {
      const id = '2f0c0000-0000-4000-8000-000000000001';
      await store.createDocument(
        newDoc(id, 'alice', 'private'),
        revision('first', fields('First title'), { renditions: ['json', 'xml'] }),
        audit('document.create', id),
      );
      const before = await store.getDocument(id);

      await rejectsWith(
        store.createDocument(
          newDoc(id, 'mallory', 'public', 'profile'),
          revision('second', fields('Second title', { published: '2024-01-01T00:00:00Z' }), {
            renditions: ['json', 'yaml'],
            pending: ['xml'],
          }),
          audit('document.create', id, 'mallory'),
        ),
        'exists',
      );

      assert.deepEqual(await store.getDocument(id), before);
      assert.deepEqual(
        (await store.listRevisions(id)).map((r) => r.canonicalHash),
        [hashOf(canonicalText('first'))],
      );
      assert.equal(
        await store.getBlob(hashOf(canonicalText('second'))),
        undefined,
        "the refused revision's blobs are not kept",
      );
      assert.equal(await store.getBlob(hashOf(originalText('second'))), undefined);
      assert.equal(await store.getRendition(id, 1, 'yaml'), undefined);
      assert.deepEqual(await store.getRendition(id, 1, 'xml'), {
        hash: hashOf(renditionText('first', 'xml')),
        size: sizeOf(renditionText('first', 'xml')),
      });
      assert.equal(await store.countJobs('queued'), 0);
      assert.equal(await store.countDocuments(), 1);
      assert.deepEqual(
        (await store.listAudit(10)).map((e) => e.actor),
        ['alice'],
      );
    }),
  );

  test(
    'concurrent creates of one id: exactly one wins, the others are refused with reason exists',
    withStore(async (store) => {
      const id = '2f0c0000-0000-4000-8000-000000000002';
      const outcomes = await Promise.allSettled(
        ['w0', 'w1', 'w2', 'w3', 'w4', 'w5'].map((c) =>
          store.createDocument(
            newDoc(id, c),
            revision(c, fields(`Title ${c}`), { pending: ['xml'] }),
            audit('document.create', id, c),
          ),
        ),
      );
      const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [`w${i}`] : []));
      assert.equal(
        won.length,
        1,
        `exactly one create succeeds; outcomes: ${outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok')).join(' | ')}`,
      );
      for (const o of outcomes) {
        if (o.status === 'rejected') await rejectsWith(Promise.reject(o.reason), 'exists');
      }
      const winner = won[0]!;
      const doc = await store.getDocument(id);
      assert.equal(doc?.owner, winner);
      assert.equal(doc?.title, `Title ${winner}`);
      assert.deepEqual(
        (await store.listRevisions(id)).map((r) => [r.number, r.canonicalHash]),
        [[1, hashOf(canonicalText(winner))]],
      );
      assert.equal(await store.countJobs('queued'), 1);
      assert.deepEqual(
        (await store.listAudit(10)).map((e) => e.actor),
        [winner],
      );
    }),
  );

  test(
    'replaceDocument numbers revisions 2, 3, … and the document takes the newest fields; access is kept',
    withStore(async (store) => {
      const id = '3f0c0000-0000-4000-8000-000000000001';
      const t0 = Date.now();
      const f1 = fields('Draft', { published: '2024-01-01T00:00:00Z', remarks: 'first cut', markings: ['TLP:AMBER'] });
      const f2 = fields('Second', { version: '2.0', lastModified: '2024-06-01T00:00:00-04:00', remarks: 'second cut' });
      const f3 = fields('Final', {
        version: '3.0',
        documentIds: [{ scheme: 'http://www.doi.org/', identifier: '10.1/x' }],
      });
      await store.createDocument(newDoc(id, 'alice', 'private'), revision('r1', f1), audit('document.create', id));
      await store.setAccess(
        id,
        { grants: [{ principal: 'user:carol', permission: 'write' }] },
        audit('access.change', id),
      );
      const created = (await store.getDocument(id))!;
      await sleep(5);

      const r2 = await store.replaceDocument(
        id,
        revision('r2', f2, { author: 'carol', originalFormat: 'json' }),
        audit('document.replace', id, 'carol', { format: 'json' }),
      );
      assert.deepEqual(r2, { revision: 2, jobs: [] });
      const r3 = await store.replaceDocument(
        id,
        revision('r3', f3, { author: 'alice', originalFormat: 'yaml' }),
        audit('document.replace', id, 'alice', { format: 'yaml' }),
      );
      assert.deepEqual(r3, { revision: 3, jobs: [] });
      const t1 = Date.now();

      const doc = (await store.getDocument(id))!;
      // published and remarks were dropped by the newest revision: the document must not keep the old values.
      assert.deepEqual(withoutStamps(doc), {
        id,
        model: 'catalog',
        owner: 'alice',
        visibility: 'private',
        legalHold: false,
        revision: 3,
        valid: true,
        ...f3,
      });
      assert.equal(doc.createdAt, created.createdAt);
      assertStamp(doc.updatedAt, t0, t1, 'updatedAt');
      assert.ok(
        Date.parse(doc.updatedAt) > Date.parse(created.updatedAt),
        `updatedAt moves on a replace: ${created.updatedAt} → ${doc.updatedAt}`,
      );

      // Each revision keeps the list fields it had, published and remarks included.
      assert.deepEqual((await store.listRevisions(id)).map(withoutIdOrStamp), [
        {
          documentId: id,
          number: 3,
          fields: f3,
          size: sizeOf(canonicalText('r3')),
          canonicalHash: hashOf(canonicalText('r3')),
          originalHash: hashOf(originalText('r3')),
          originalFormat: 'yaml',
          author: 'alice',
          findings: [],
          valid: true,
        },
        {
          documentId: id,
          number: 2,
          fields: f2,
          size: sizeOf(canonicalText('r2')),
          canonicalHash: hashOf(canonicalText('r2')),
          originalHash: hashOf(originalText('r2')),
          originalFormat: 'json',
          author: 'carol',
          findings: [],
          valid: true,
        },
        {
          documentId: id,
          number: 1,
          fields: f1,
          size: sizeOf(canonicalText('r1')),
          canonicalHash: hashOf(canonicalText('r1')),
          originalHash: hashOf(originalText('r1')),
          originalFormat: 'xml',
          author: 'alice',
          findings: [],
          valid: true,
        },
      ]);
      assert.equal((await store.getRevision(id, 2))?.author, 'carol');
      assert.equal(await store.getRevision(id, 4), undefined);
      assert.deepEqual(await store.getRendition(id, 1, 'json'), {
        hash: hashOf(canonicalText('r1')),
        size: sizeOf(canonicalText('r1')),
      });
      assert.deepEqual(await store.getRendition(id, 3, 'json'), {
        hash: hashOf(canonicalText('r3')),
        size: sizeOf(canonicalText('r3')),
      });
      assert.deepEqual(await store.getAccess(id), {
        owner: 'alice',
        visibility: 'private',
        legalHold: false,
        grants: [{ principal: 'user:carol', permission: 'write' }],
      });
      assert.equal(await store.countDocuments(), 1);
      assert.deepEqual(
        (await store.listAudit(10)).map((e) => [e.action, e.actor, e.detail]),
        [
          ['document.replace', 'alice', { format: 'yaml' }],
          ['document.replace', 'carol', { format: 'json' }],
          ['access.change', 'alice', { model: 'catalog' }],
          ['document.create', 'alice', { model: 'catalog' }],
        ],
      );

      await rejectsWith(
        store.replaceDocument(
          '3f0c0000-0000-4000-8000-000000000009',
          revision('r9', fields('Nobody')),
          audit('document.replace', 'x'),
        ),
        'not-found',
      );
      assert.equal(await store.getBlob(hashOf(canonicalText('r9'))), undefined);
      assert.equal((await store.listAudit(10)).length, 4, 'a refused replace is not audited');
    }),
  );

  test(
    '30 concurrent replaces of one document give revisions 2..31 with no gap or duplicate',
    withStore(async (store) => {
      const id = '4f0c0000-0000-4000-8000-000000000001';
      await store.createDocument(newDoc(id), revision('c0', fields('Concurrent 0')), audit('document.create', id));
      const contents = Array.from({ length: 30 }, (_, i) => `c${i + 1}`);
      const results = await Promise.all(
        contents.map((c) =>
          store.replaceDocument(
            id,
            revision(c, fields(`Concurrent ${c}`), { author: c, pending: ['yaml'] }),
            audit('document.replace', id, c),
          ),
        ),
      );

      const numbers = results.map((r) => r.revision);
      assert.deepEqual(
        [...numbers].sort((a, b) => a - b),
        Array.from({ length: 30 }, (_, i) => i + 2),
      );
      const listed = await store.listRevisions(id);
      assert.deepEqual(
        listed.map((r) => r.number),
        Array.from({ length: 31 }, (_, i) => 31 - i),
      );
      // Each replace got the number of the revision holding its own bytes and author.
      for (const [i, c] of contents.entries()) {
        const rev = listed.find((r) => r.number === numbers[i]);
        assert.deepEqual(
          [rev?.canonicalHash, rev?.author, rev?.fields.title],
          [hashOf(canonicalText(c)), c, `Concurrent ${c}`],
          `replace ${c} → revision ${numbers[i]}`,
        );
        assert.deepEqual((await store.findJob(id, numbers[i]!, 'yaml'))?.id, results[i]!.jobs[0]);
      }
      // The document row shows the revision numbered last, not whichever write committed last.
      const newest = contents[numbers.indexOf(31)]!;
      const doc = (await store.getDocument(id))!;
      assert.deepEqual([doc.revision, doc.title], [31, `Concurrent ${newest}`]);
      assert.equal(await store.countJobs('queued'), 30);
      assert.equal(new Set(listed.map((r) => r.recordId)).size, 31, 'one record id per revision');
      assert.equal((await store.listAudit(100)).length, 31);
    }),
  );

  test(
    'replaceDocument with ifRevision: refused as stale once another revision is current, and nothing changes',
    withStore(async (store) => {
      const a = '8f3c0000-0000-4000-8000-00000000000a';
      await store.createDocument(newDoc(a), revision('a1', fields('Guarded')), audit('document.create', a));
      assert.equal(
        (await store.replaceDocument(a, revision('a2', fields('Guarded 2')), audit('document.replace', a), 1)).revision,
        2,
      );
      await rejectsWith(
        store.replaceDocument(a, revision('a3', fields('Lost')), audit('document.replace', a), 1),
        'stale',
      );
      assert.equal((await store.getDocument(a))!.title, 'Guarded 2');
      assert.deepEqual(
        (await store.listRevisions(a)).map((r) => r.number),
        [2, 1],
      );
      // Of many writers holding revision 2, exactly one gets in.
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          store.replaceDocument(a, revision(`race ${i}`, fields(`Race ${i}`)), audit('document.replace', a), 2),
        ),
      );
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      assert.deepEqual(
        (await store.listRevisions(a)).map((r) => r.number),
        [3, 2, 1],
      );
    }),
  );
});
