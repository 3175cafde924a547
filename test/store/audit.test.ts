/**
 * The audit log: what each write records, and the filters. Run on each backend, a fresh store per
 * test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertStamp } from './checks.js';
import { fields, newDoc, revision } from './data.js';
import { conformance } from './harness.js';

conformance('audit', ({ withStore }) => {
  test(
    'audit: each write is logged with actor, action, documentId and detail, newest first',
    withStore(async (store) => {
      const a = 'ff0c0000-0000-4000-8000-00000000000a';
      const b = 'ff0c0000-0000-4000-8000-00000000000b';
      const t0 = Date.now();
      await store.createDocument(newDoc(a), revision('au1', fields('Audited')), {
        actor: 'alice',
        action: 'document.create',
        documentId: a,
        detail: { model: 'catalog', format: 'json' },
      });
      await store.createDocument(newDoc(b, 'bob'), revision('au2', fields('Audited too')), {
        actor: 'system',
        action: 'document.import',
      });
      await store.replaceDocument(a, revision('au3', fields('Audited v2')), {
        actor: 'carol',
        action: 'document.replace',
        documentId: a,
        detail: { format: 'yaml', sizes: [1, 2.5, -3], nested: { ok: true, none: null }, note: 'été ✓ "q"' },
      });
      await store.setAccess(
        a,
        { visibility: 'public' },
        {
          actor: 'alice',
          action: 'access.change',
          documentId: a,
          detail: { visibility: 'public', grants: [{ principal: 'user:carol', permission: 'read' }] },
        },
      );
      await store.deleteDocument(b, {
        actor: 'bob',
        action: 'document.delete',
        documentId: b,
        detail: { model: 'catalog' },
      });
      const t1 = Date.now();

      const entries = await store.listAudit(10);
      assert.deepEqual(
        entries.map(({ id: _, at: __, ...e }) => e),
        [
          { actor: 'bob', action: 'document.delete', documentId: b, detail: { model: 'catalog' } },
          {
            actor: 'alice',
            action: 'access.change',
            documentId: a,
            detail: { visibility: 'public', grants: [{ principal: 'user:carol', permission: 'read' }] },
          },
          {
            actor: 'carol',
            action: 'document.replace',
            documentId: a,
            detail: { format: 'yaml', sizes: [1, 2.5, -3], nested: { ok: true, none: null }, note: 'été ✓ "q"' },
          },
          { actor: 'system', action: 'document.import' },
          { actor: 'alice', action: 'document.create', documentId: a, detail: { model: 'catalog', format: 'json' } },
        ],
      );
      for (const e of entries) {
        assert.equal(typeof e.id, 'number');
        assertStamp(e.at, t0, t1, 'audit at');
      }
      assert.deepEqual(
        entries.map((e) => e.id),
        [...entries.map((e) => e.id)].sort((x, y) => y - x),
        'ids fall, newest first',
      );
      assert.equal(new Set(entries.map((e) => e.id)).size, 5);
      assert.deepEqual(
        (await store.listAudit(2)).map((e) => e.action),
        ['document.delete', 'access.change'],
      );
    }),
  );

  test(
    'audit filters: before (paging), since and until, actor, action, document, combined',
    withStore(async (store) => {
      const a = 'ff0c0000-0000-4000-8000-0000000000a1';
      const b = 'ff0c0000-0000-4000-8000-0000000000b1';
      await store.createDocument(newDoc(a), revision('af1', fields('A')), {
        actor: 'alice',
        action: 'document.create',
        documentId: a,
      });
      await store.createDocument(newDoc(b, 'bob'), revision('af2', fields('B')), {
        actor: 'bob',
        action: 'document.create',
        documentId: b,
      });
      await sleep(5);
      const middle = new Date().toISOString();
      await sleep(5);
      await store.replaceDocument(a, revision('af3', fields('A2')), {
        actor: 'bob',
        action: 'document.replace',
        documentId: a,
      });
      await sleep(5);
      await store.setAccess(b, { visibility: 'public' }, { actor: 'bob', action: 'access.change', documentId: b });
      const all = await store.listAudit(10);
      const summary = (entries: { actor: string; action: string; documentId?: string }[]) =>
        entries.map((e) => `${e.actor} ${e.action} ${e.documentId === a ? 'a' : 'b'}`);
      assert.deepEqual(summary(all), [
        'bob access.change b',
        'bob document.replace a',
        'bob document.create b',
        'alice document.create a',
      ]);

      assert.deepEqual(
        summary(await store.listAudit(2, { before: all[1]!.id })),
        ['bob document.create b', 'alice document.create a'],
        'before: strictly older, newest first',
      );
      assert.deepEqual(summary(await store.listAudit(10, { since: middle })), [
        'bob access.change b',
        'bob document.replace a',
      ]);
      assert.deepEqual(summary(await store.listAudit(10, { until: middle })), [
        'bob document.create b',
        'alice document.create a',
      ]);
      assert.deepEqual(
        summary(await store.listAudit(10, { since: all[1]!.at, until: all[0]!.at })),
        ['bob document.replace a'],
        'since inclusive, until exclusive',
      );
      assert.deepEqual(summary(await store.listAudit(10, { actor: 'alice' })), ['alice document.create a']);
      assert.deepEqual(summary(await store.listAudit(10, { action: 'document.create' })), [
        'bob document.create b',
        'alice document.create a',
      ]);
      assert.deepEqual(summary(await store.listAudit(10, { documentId: a })), [
        'bob document.replace a',
        'alice document.create a',
      ]);
      assert.deepEqual(summary(await store.listAudit(10, { actor: 'bob', documentId: b, since: middle })), [
        'bob access.change b',
      ]);
      assert.deepEqual(
        await store.listAudit(10, { actor: "bob' OR '1'='1" }),
        [],
        'values are bound, never spliced into the SQL',
      );
    }),
  );
});
