/**
 * Access: owner, visibility, legal hold and grants. Run on each backend, a fresh store per test,
 * by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byPrincipal, rejectsWith } from './checks.js';
import { audit, fields, newDoc, revision } from './data.js';
import { conformance } from './harness.js';

conformance('access', ({ withStore }) => {
  test(
    'getAccess, setAccess (each part alone) and grantsFor',
    withStore(async (store) => {
      const id = 'af0c0000-0000-4000-8000-000000000001';
      const other = 'af0c0000-0000-4000-8000-000000000002';
      await store.createDocument(
        newDoc(id, 'alice', 'private'),
        revision('acc', fields('Access')),
        audit('document.create', id),
      );
      await store.createDocument(
        newDoc(other, 'alice', 'private'),
        revision('acc2', fields('Other')),
        audit('document.create', other),
      );
      assert.deepEqual(await store.getAccess(id), {
        owner: 'alice',
        visibility: 'private',
        legalHold: false,
        grants: [],
      });
      assert.equal(await store.getAccess('af0c0000-0000-4000-8000-000000000009'), undefined);

      const grants = [
        { principal: 'user:carol', permission: 'read' as const },
        { principal: 'group:auditors', permission: 'write' as const },
      ];
      await store.setAccess(id, { grants }, audit('access.change', id, 'alice', { grants }));
      let access = (await store.getAccess(id))!;
      assert.deepEqual(
        { ...access, grants: byPrincipal(access.grants) },
        { owner: 'alice', visibility: 'private', legalHold: false, grants: byPrincipal(grants) },
      );

      await store.setAccess(
        id,
        { visibility: 'public' },
        audit('access.change', id, 'alice', { visibility: 'public' }),
      );
      access = (await store.getAccess(id))!;
      assert.deepEqual(
        { ...access, grants: byPrincipal(access.grants) },
        { owner: 'alice', visibility: 'public', legalHold: false, grants: byPrincipal(grants) },
        'grants survive a visibility change',
      );
      await store.setAccess(id, { legalHold: true }, audit('access.change', id, 'root', { legalHold: true }));
      access = (await store.getAccess(id))!;
      assert.deepEqual(
        { ...access, grants: byPrincipal(access.grants) },
        { owner: 'alice', visibility: 'public', legalHold: true, grants: byPrincipal(grants) },
      );
      const doc = (await store.getDocument(id))!;
      assert.deepEqual([doc.visibility, doc.legalHold], ['public', true]);

      assert.deepEqual(await store.grantsFor(id, ['user:carol']), [{ principal: 'user:carol', permission: 'read' }]);
      assert.deepEqual(
        byPrincipal(await store.grantsFor(id, ['user:carol', 'group:auditors', 'group:none'])),
        byPrincipal(grants),
      );
      assert.deepEqual(await store.grantsFor(id, ['user:dave', 'carol', 'auditors']), []);
      assert.deepEqual(await store.grantsFor(id, []), []);
      assert.deepEqual(
        await store.grantsFor(other, ['user:carol', 'group:auditors']),
        [],
        'grants belong to one document',
      );

      // Grants are replaced as a whole.
      await store.setAccess(
        id,
        { grants: [{ principal: 'user:dave', permission: 'write' }], visibility: 'private', legalHold: false },
        audit('access.change', id),
      );
      assert.deepEqual(await store.getAccess(id), {
        owner: 'alice',
        visibility: 'private',
        legalHold: false,
        grants: [{ principal: 'user:dave', permission: 'write' }],
      });
      assert.deepEqual(await store.grantsFor(id, ['user:carol', 'group:auditors']), []);
      await store.setAccess(id, { grants: [] }, audit('access.change', id));
      assert.deepEqual((await store.getAccess(id))?.grants, []);

      await rejectsWith(
        store.setAccess('af0c0000-0000-4000-8000-000000000009', { visibility: 'public' }, audit('access.change', 'x')),
        'not-found',
      );
      assert.deepEqual(
        (await store.listAudit(4)).map((e) => [e.action, e.actor, e.detail]),
        [
          ['access.change', 'alice', { model: 'catalog' }],
          ['access.change', 'alice', { model: 'catalog' }],
          ['access.change', 'root', { legalHold: true }],
          ['access.change', 'alice', { visibility: 'public' }],
        ],
      );
    }),
  );
});
