/**
 * Constraint sets registered by name. Run on each backend, a fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertStamp } from './checks.js';
import { hashOf, sizeOf } from './data.js';
import { conformance } from './harness.js';

conformance('constraint-sets', ({ withStore }) => {
  test(
    'constraint sets: put creates then replaces (keeping who and when first), get, list without text, delete',
    withStore(async (store) => {
      const text = (n: number) =>
        `<METASCHEMA-CONSTRAINTS xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0"><!-- ${n} --></METASCHEMA-CONSTRAINTS>`;
      const set = (name: string, n: number) => ({ name, text: text(n), hash: hashOf(text(n)), size: sizeOf(text(n)) });
      assert.deepEqual(await store.listConstraintSets(), []);
      assert.equal(await store.getConstraintSet('fedramp'), undefined);
      const t0 = Date.now();
      assert.deepEqual(
        await store.putConstraintSet(set('fedramp', 1), {
          actor: 'admin',
          action: 'constraint-set.put',
          detail: { name: 'fedramp' },
        }),
        { created: true },
      );
      assert.deepEqual(
        await store.putConstraintSet(set('agency-rules', 2), {
          actor: 'root',
          action: 'constraint-set.put',
          detail: { name: 'agency-rules' },
        }),
        { created: true },
      );
      const t1 = Date.now();
      const first = (await store.getConstraintSet('fedramp'))!;
      assert.deepEqual(
        { ...first, createdAt: '', updatedAt: '' },
        { ...set('fedramp', 1), createdBy: 'admin', createdAt: '', updatedAt: '' },
      );
      assertStamp(first.createdAt, t0, t1, 'createdAt');
      await sleep(20);
      assert.deepEqual(
        await store.putConstraintSet(set('fedramp', 3), {
          actor: 'root',
          action: 'constraint-set.put',
          detail: { name: 'fedramp' },
        }),
        { created: false },
      );
      const replaced = (await store.getConstraintSet('fedramp'))!;
      assert.deepEqual(
        [replaced.text, replaced.hash, replaced.createdBy, replaced.createdAt],
        [text(3), hashOf(text(3)), 'admin', first.createdAt],
      );
      assert.ok(Date.parse(replaced.updatedAt) > Date.parse(first.updatedAt), 'a replacement moves updatedAt');
      assert.deepEqual(
        (await store.listConstraintSets()).map((s) => [s.name, s.size, 'text' in s]),
        [
          ['agency-rules', sizeOf(text(2)), false],
          ['fedramp', sizeOf(text(3)), false],
        ],
      );
      assert.equal(
        await store.deleteConstraintSet('fedramp', {
          actor: 'root',
          action: 'constraint-set.delete',
          detail: { name: 'fedramp' },
        }),
        true,
      );
      assert.equal(
        await store.deleteConstraintSet('fedramp', {
          actor: 'root',
          action: 'constraint-set.delete',
          detail: { name: 'fedramp' },
        }),
        false,
      );
      assert.equal(await store.getConstraintSet('fedramp'), undefined);
      assert.deepEqual(
        (await store.listAudit(10)).map((e) => [e.actor, e.action, e.detail]),
        [
          ['root', 'constraint-set.delete', { name: 'fedramp' }],
          ['root', 'constraint-set.put', { name: 'fedramp' }],
          ['root', 'constraint-set.put', { name: 'agency-rules' }],
          ['admin', 'constraint-set.put', { name: 'fedramp' }],
        ],
        'a delete of a missing set is not audited',
      );
    }),
  );
});
