import type { Role } from '../store/types.js';

/** Who is asking: nobody, or a user with a role and the groups it belongs to. */
export type Identity =
  { kind: 'anonymous' } | { kind: 'user'; name: string; role: Role; groups: string[]; via: 'token' | 'oidc' };

export const ANONYMOUS: Identity = { kind: 'anonymous' };

/** The names under which grants can reach an identity: `user:<name>` and `group:<name>`. */
export function principalsOf(identity: Identity): string[] {
  if (identity.kind === 'anonymous') return [];
  return [`user:${identity.name}`, ...identity.groups.map((g) => `group:${g}`)];
}
