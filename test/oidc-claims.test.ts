/** How a provider's claims become an identity: the name, the highest role, the groups. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identityFromClaims } from '../src/auth/oidc-claims.js';
import { ServiceError } from '../src/errors.js';

const settings = { usernameClaim: 'sub', rolesClaim: 'roles', groupsClaim: 'groups' };

test('names carry the oidc: prefix; a missing name claim is 401', () => {
  assert.deepEqual(identityFromClaims({ sub: 'u1' }, settings), {
    kind: 'user',
    name: 'oidc:u1',
    role: 'reader',
    groups: [],
    via: 'oidc',
  });
  for (const sub of [undefined, '', 42]) {
    assert.throws(
      () => identityFromClaims({ sub }, settings),
      (e: unknown) => e instanceof ServiceError && e.status === 401 && /"sub"/.test(e.message),
    );
  }
});

test('the highest known role wins, from an array or a space-separated string; reader by default', () => {
  const role = (roles: unknown) => identityFromClaims({ sub: 'u', roles }, settings).role;
  assert.equal(role(['reader', 'admin', 'writer']), 'admin');
  assert.equal(role('reader writer'), 'writer');
  assert.equal(role(['superuser', 'Admin', 'toString', '__proto__', 7]), 'reader');
  assert.equal(role({ admin: true }), 'reader');
  assert.equal(role(undefined), 'reader');
});

test('groups: an array of names, or one name (which may hold spaces)', () => {
  const groups = (value: unknown) => identityFromClaims({ sub: 'u', groups: value }, settings).groups;
  assert.deepEqual(groups(['a', '', 3, 'b']), ['a', 'b']);
  assert.deepEqual(groups('Domain Users'), ['Domain Users']);
  assert.deepEqual(groups(''), []);
  assert.deepEqual(groups(null), []);
});

test('a claim is found by its exact name first, else by a dotted path into nested claims', () => {
  const nested = { ...settings, rolesClaim: 'realm_access.roles', usernameClaim: 'https://example.com/login' };
  const identity = identityFromClaims(
    { 'https://example.com/login': 'kim', realm_access: { roles: ['writer'] } },
    nested,
  );
  assert.equal(identity.name, 'oidc:kim');
  assert.equal(identity.role, 'writer');
  assert.equal(
    identityFromClaims({ sub: 'u', realm_access: {} }, { ...settings, groupsClaim: 'realm_access.constructor' }).groups
      .length,
    0,
    'inherited members are no claims',
  );
});
