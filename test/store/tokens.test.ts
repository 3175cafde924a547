/**
 * Users and tokens. Run on each backend, a fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertStamp } from './checks.js';
import { conformance } from './harness.js';

conformance('tokens', ({ withStore }) => {
  test(
    'users and tokens: ensureUser, createToken, findToken only for live tokens, listTokens, revokeToken, countTokens',
    withStore(async (store) => {
      const t0 = Date.now();
      const alice = await store.ensureUser('alice');
      const t1 = Date.now();
      assert.equal(alice.name, 'alice');
      assertStamp(alice.createdAt, t0, t1, 'user createdAt');
      assert.deepEqual(await store.ensureUser('alice'), alice, 'ensureUser is idempotent');
      const bobs = await Promise.all(Array.from({ length: 5 }, () => store.ensureUser('bob')));
      assert.equal(new Set(bobs.map((b) => b.id)).size, 1, 'concurrent ensureUser of one name make one user');
      assert.notEqual(bobs[0]!.id, alice.id);
      const carol = await store.ensureUser('carol');

      const now = new Date();
      const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
      const tokenAudit = (token: string) => ({ actor: 'cli:root', action: 'token.create', detail: { token } });
      await store.createToken(
        { id: 'tok-alice', userId: alice.id, hash: 'h-alice', role: 'reader' },
        tokenAudit('tok-alice'),
      );
      await store.createToken(
        { id: 'tok-bob', userId: bobs[0]!.id, hash: 'h-bob', role: 'admin', expiresAt: iso(3_600_000) },
        tokenAudit('tok-bob'),
      );
      await store.createToken(
        { id: 'tok-carol', userId: carol.id, hash: 'h-carol', role: 'writer', expiresAt: iso(-1000) },
        tokenAudit('tok-carol'),
      );
      const t2 = Date.now();
      assert.equal(await store.countTokens(), 3);

      const found = (await store.findToken('h-alice', iso(0)))!;
      assert.deepEqual(
        { ...found, createdAt: '' },
        { id: 'tok-alice', userId: alice.id, userName: 'alice', role: 'reader', createdAt: '' },
      );
      assertStamp(found.createdAt, t1, t2, 'token createdAt');
      const bob = (await store.findToken('h-bob', iso(0)))!;
      assert.deepEqual([bob.id, bob.userName, bob.role, bob.expiresAt], ['tok-bob', 'bob', 'admin', iso(3_600_000)]);
      assert.equal(await store.findToken('h-carol', iso(0)), undefined, 'expired');
      assert.equal(
        (await store.findToken('h-carol', iso(-2000)))?.id,
        'tok-carol',
        'expiry is judged at the time given',
      );
      assert.equal(await store.findToken('h-bob', iso(3_600_000)), undefined, 'a token is dead at its expiry instant');
      assert.equal(await store.findToken('h-nobody', iso(0)), undefined);

      // Use is recorded, at most once a minute.
      const touched = async (id: string) => (await store.listTokens()).find((t) => t.id === id)?.lastUsedAt;
      assert.equal(await touched('tok-alice'), iso(0));
      await store.findToken('h-alice', iso(30_000));
      assert.equal(await touched('tok-alice'), iso(0));
      await store.findToken('h-alice', iso(90_000));
      assert.equal(await touched('tok-alice'), iso(90_000));

      const revokeAudit = (token: string) => ({ actor: 'cli:root', action: 'token.revoke', detail: { token } });
      assert.equal(await store.revokeToken('tok-alice', revokeAudit('tok-alice')), true);
      assert.equal(await store.revokeToken('tok-alice', revokeAudit('tok-alice')), false);
      assert.equal(await store.revokeToken('tok-nobody', revokeAudit('tok-nobody')), false);
      assert.deepEqual(
        (await store.listAudit(10)).map((e) => [e.action, e.detail]),
        [
          ['token.revoke', { token: 'tok-alice' }],
          ['token.create', { token: 'tok-carol' }],
          ['token.create', { token: 'tok-bob' }],
          ['token.create', { token: 'tok-alice' }],
        ],
        'each token made and each revocation is audited; a revocation that changed nothing is not',
      );
      assert.equal(await store.findToken('h-alice', iso(100_000)), undefined, 'revoked');
      assert.equal(
        (await store.findToken('h-bob', iso(100_000)))?.id,
        'tok-bob',
        'revoking one token leaves the others',
      );

      const listed = [...(await store.listTokens())].sort((a, b) => (a.id < b.id ? -1 : 1));
      assert.deepEqual(
        listed.map((t) => [t.id, t.userId, t.userName, t.role, t.expiresAt, t.revokedAt !== undefined]),
        [
          ['tok-alice', alice.id, 'alice', 'reader', undefined, true],
          ['tok-bob', bobs[0]!.id, 'bob', 'admin', iso(3_600_000), false],
          ['tok-carol', carol.id, 'carol', 'writer', iso(-1000), false],
        ],
      );
      assertStamp(listed[0]!.revokedAt, t2, Date.now(), 'revokedAt');
      assert.equal(await store.countTokens(), 3, 'revoked and expired tokens are still counted');
    }),
  );
});
