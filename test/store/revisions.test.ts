/**
 * Revisions: deleting one, record ids, and the findings kept with each. Run on each backend, a
 * fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredFinding } from '../../src/store/types.js';
import { blobText, rejectsWith, withoutStamps } from './checks.js';
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
} from './data.js';
import { conformance } from './harness.js';

conformance('revisions', ({ withStore }) => {
  test(
    'deleteRevision removes one revision with its renditions, jobs and unshared blobs; the newest left becomes current',
    withStore(async (store) => {
      const id = '9f1c0000-0000-4000-8000-000000000001';
      const shared = originalText('kept by revision 1');
      const f1 = fields('First', { published: '2024-01-01T00:00:00Z', remarks: 'one', markings: ['TLP:GREEN'] });
      const f3 = fields('Third', { version: '3' });
      await store.createDocument(newDoc(id), revision('v1', f1, { original: shared }), audit('document.create', id));
      const { jobs } = await store.replaceDocument(
        id,
        revision('v2', fields('Second'), { renditions: ['json', 'xml'], pending: ['yaml'] }),
        audit('document.replace', id),
      );
      await store.replaceDocument(id, revision('v3', f3, { original: shared }), audit('document.replace', id));
      const before = await store.listRevisions(id);

      await store.deleteRevision(id, 2, audit('version.delete', id, 'alice', { version: 2 }));
      assert.deepEqual(
        await store.listRevisions(id),
        before.filter((r) => r.number !== 2),
        'the others are untouched',
      );
      assert.equal(await store.getRevision(id, 2), undefined);
      assert.equal(await store.getRendition(id, 2, 'json'), undefined);
      assert.equal(await store.getRendition(id, 2, 'xml'), undefined);
      assert.equal(await store.getJob(jobs[0]!), undefined);
      assert.equal(await store.findJob(id, 2, 'yaml'), undefined);
      for (const gone of [canonicalText('v2'), originalText('v2'), renditionText('v2', 'xml')])
        assert.equal(await store.getBlob(hashOf(gone)), undefined);
      assert.deepEqual(withoutStamps(await store.getDocument(id)), {
        id,
        model: 'catalog',
        owner: 'alice',
        visibility: 'private',
        legalHold: false,
        revision: 3,
        valid: true,
        ...f3,
      });
      assert.deepEqual(
        (await store.listAudit(1)).map(({ id: _, at: __, ...e }) => e),
        [{ actor: 'alice', action: 'version.delete', documentId: id, detail: { version: 2 } }],
      );

      // Deleting the current revision brings back the newest remaining one, list fields and all.
      await store.deleteRevision(id, 3, audit('version.delete', id, 'alice', { version: 3 }));
      assert.deepEqual(withoutStamps(await store.getDocument(id)), {
        id,
        model: 'catalog',
        owner: 'alice',
        visibility: 'private',
        legalHold: false,
        revision: 1,
        valid: true,
        ...f1,
      });
      assert.deepEqual(
        (await store.listDocuments(listQuery({ q: 'first' }))).map((d) => d.id),
        [id],
        'the title search sees the restored title',
      );
      assert.deepEqual(await store.listDocuments(listQuery({ q: 'third' })), []);
      assert.equal(await store.getBlob(hashOf(canonicalText('v3'))), undefined);
      assert.equal(await blobText(store, hashOf(shared)), shared, 'the original revision 1 still holds is kept');
      assert.deepEqual(
        (await store.listRevisions(id)).map((r) => r.number),
        [1],
      );

      await rejectsWith(store.deleteRevision(id, 1, audit('version.delete', id)), 'last-version');
      await rejectsWith(store.deleteRevision(id, 2, audit('version.delete', id)), 'not-found');
      await rejectsWith(
        store.deleteRevision('9f1c0000-0000-4000-8000-000000000009', 1, audit('version.delete', 'x')),
        'not-found',
      );
      assert.deepEqual(withoutStamps(await store.getDocument(id)), {
        id,
        model: 'catalog',
        owner: 'alice',
        visibility: 'private',
        legalHold: false,
        revision: 1,
        valid: true,
        ...f1,
      });
      assert.equal(await blobText(store, hashOf(canonicalText('v1'))), canonicalText('v1'));
      assert.deepEqual(
        (await store.listAudit(10)).map((e) => e.action),
        ['version.delete', 'version.delete', 'document.replace', 'document.replace', 'document.create'],
        'refusals are not audited',
      );

      // A number, once given, names one content: the next revision after deleting 2 and 3 is 4.
      assert.deepEqual(
        await store.replaceDocument(id, revision('v4', fields('Fourth')), audit('document.replace', id)),
        { revision: 4, jobs: [] },
      );
      assert.deepEqual(
        (await store.listRevisions(id)).map((r) => r.number),
        [4, 1],
      );
      assert.equal((await store.getDocument(id))?.revision, 4);
    }),
  );

  test(
    'a record id, once given to a revision, is never given to another',
    withStore(async (store) => {
      const a = '9f2c0000-0000-4000-8000-00000000000a';
      const b = '9f2c0000-0000-4000-8000-00000000000b';
      const c = '9f2c0000-0000-4000-8000-00000000000c';
      await store.createDocument(newDoc(a), revision('id-a1', fields('A')), audit('document.create', a));
      await store.replaceDocument(a, revision('id-a2', fields('A')), audit('document.replace', a));
      const seen = new Set((await store.listRevisions(a)).map((r) => r.recordId));
      // The newest revision of the store goes, by itself and with its document: its id must not come back.
      await store.deleteRevision(a, 2, audit('version.delete', a));
      await store.createDocument(newDoc(b), revision('id-b1', fields('B')), audit('document.create', b));
      const [b1] = await store.listRevisions(b);
      assert.ok(
        !seen.has(b1!.recordId),
        `revision 1 of B got record id ${b1!.recordId}, already given to a deleted revision of A`,
      );
      seen.add(b1!.recordId);
      await store.deleteDocument(b, audit('document.delete', b));
      await store.createDocument(newDoc(c), revision('id-c1', fields('C')), audit('document.create', c));
      const [c1] = await store.listRevisions(c);
      assert.ok(
        !seen.has(c1!.recordId),
        `revision 1 of C got record id ${c1!.recordId}, already given to the deleted document B`,
      );
    }),
  );

  test(
    'findings: kept with the revision they were found on, each field as written; none when none were given',
    withStore(async (store) => {
      const id = 'f1d0c000-0000-4000-8000-000000000001';
      const warning: StoredFinding = {
        code: 'constraint',
        level: 'WARNING',
        message: 'port-range start "0" — below 1',
        path: '/component-definition/components/0/protocols/0/port-ranges/0',
        constraintId: 'oscal-port-range-start',
        metapath: '/component-definition[1]/component[1]/protocol[1]/port-range[1]/@start',
        line: 12,
        column: 7,
        source: 'oscal-component-definition',
      };
      const bare: StoredFinding = { code: 'constraint', level: 'INFORMATIONAL', message: 'note', path: '' };
      await store.createDocument(
        newDoc(id),
        { ...revision('found1', fields('Found')), findings: [warning, bare] },
        audit('document.create', id),
      );
      await store.replaceDocument(id, revision('found2', fields('Found v2')), audit('document.replace', id));
      assert.deepEqual(
        (await store.listRevisions(id)).map((r) => [r.number, r.findings]),
        [
          [2, []],
          [1, [warning, bare]],
        ],
      );
      assert.deepEqual((await store.getRevision(id, 1))!.findings, [warning, bare]);
    }),
  );

  test(
    'valid: a revision written not valid is marked so, the document follows its current revision, and lists filter on it',
    withStore(async (store) => {
      const draft = 'f1d0c000-0000-4000-8000-0000000000d1';
      const clean = 'f1d0c000-0000-4000-8000-0000000000c1';
      const error: StoredFinding = { code: 'constraint', level: 'ERROR', message: 'missing prop', path: '/catalog' };
      await store.createDocument(
        newDoc(draft),
        { ...revision('draft1', fields('Draft')), findings: [error], valid: false },
        audit('document.create', draft),
      );
      await store.createDocument(newDoc(clean), revision('clean1', fields('Clean')), audit('document.create', clean));
      const ids = async (valid?: boolean) =>
        (await store.listDocuments(listQuery(valid === undefined ? {} : { valid }))).map((d) => d.id);

      assert.equal((await store.getDocument(draft))!.valid, false);
      assert.equal((await store.getDocument(clean))!.valid, true, 'a revision input that says nothing is valid');
      assert.deepEqual(await ids(false), [draft]);
      assert.deepEqual(await ids(true), [clean]);
      assert.deepEqual(await ids(), [clean, draft]);

      // A valid revision on top makes the document valid; the draft stays marked in the history.
      await store.replaceDocument(draft, revision('draft2', fields('Draft')), audit('document.replace', draft));
      assert.deepEqual(
        (await store.listRevisions(draft)).map((r) => [r.number, r.valid, r.findings]),
        [
          [2, true, []],
          [1, false, [error]],
        ],
      );
      assert.equal((await store.getDocument(draft))!.valid, true);
      assert.deepEqual(await ids(false), []);
      assert.deepEqual(await ids(true), [clean, draft]);

      // Deleting it brings back the draft as current, and its mark with it.
      await store.deleteRevision(draft, 2, audit('version.delete', draft));
      assert.equal((await store.getDocument(draft))!.valid, false);
      assert.equal((await store.getRevision(draft, 1))!.valid, false);
      assert.deepEqual(await ids(false), [draft]);

      // And a not-valid revision over a valid one marks the document.
      await store.replaceDocument(
        clean,
        { ...revision('clean2', fields('Clean')), findings: [error], valid: false },
        audit('document.replace', clean),
      );
      assert.deepEqual(await ids(false), [clean, draft]);
      assert.deepEqual(await ids(true), []);
    }),
  );
});
