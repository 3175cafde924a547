import { refuse } from '../errors.js';
import type { Role } from '../store/types.js';
import type { Identity } from './identity.js';
import type { SignInSettings } from './oidc-settings.js';

export type UserIdentity = Extract<Identity, { kind: 'user' }>;

/**
 * Names from the provider are kept apart from local user names, so that no account at the provider
 * can become the owner of what a local token's user created just by carrying the same name.
 */
export const OIDC_NAME_PREFIX = 'oidc:';

const RANK: Record<Role, number> = { reader: 0, writer: 1, admin: 2 };

/** The identity a provider's claims stand for, mapped as local users are: name, highest role, groups. */
export function identityFromClaims(
  claims: Record<string, unknown>,
  settings: Pick<SignInSettings, 'usernameClaim' | 'rolesClaim' | 'groupsClaim'>,
): UserIdentity {
  const name = claim(claims, settings.usernameClaim);
  if (typeof name !== 'string' || name === '') {
    throw refuse(
      'unauthenticated',
      `the provider's token carries no "${settings.usernameClaim}" claim to name its user`,
    );
  }
  return {
    kind: 'user',
    name: OIDC_NAME_PREFIX + name,
    role: highestRole(claim(claims, settings.rolesClaim)),
    groups: groupsOf(claim(claims, settings.groupsClaim)),
    via: 'oidc',
  };
}

/**
 * A claim by its name, else by a dotted path into nested claims (Keycloak's `realm_access.roles`).
 * The name is tried first because claim names may hold dots themselves (`https://example.com/roles`).
 */
function claim(claims: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const key of name.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** An array of role names or one space-separated string; names other than the three roles are ignored. */
function highestRole(claim: unknown): Role {
  const values: unknown[] = typeof claim === 'string' ? claim.split(/\s+/) : Array.isArray(claim) ? claim : [];
  let role: Role = 'reader';
  for (const value of values) {
    if (typeof value === 'string' && Object.hasOwn(RANK, value) && RANK[value as Role] > RANK[role])
      role = value as Role;
  }
  return role;
}

/** Group names may hold spaces ("Domain Users"), so a string is one group, never a list. */
function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim === '' ? [] : [claim];
  return Array.isArray(claim) ? claim.filter((g): g is string => typeof g === 'string' && g !== '') : [];
}
