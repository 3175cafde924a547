import { refuse } from '../errors.js';
import type { Grant, Visibility } from '../store/types.js';

/** A change of a document's access settings; what is left out stays as it is. */
export interface AccessChange {
  visibility?: Visibility;
  grants?: Grant[];
  legalHold?: boolean;
}

const PRINCIPAL = /^(user|group):[^\s]{1,200}$/;

/** Grants a document may carry; more is a mistake rather than a sharing list. */
export const MAX_GRANTS = 1000;

const bad = (message: string) => refuse('bad-request', message);

/** One grant as a client wrote it: the API's JSON object or the web form's fields. */
export function checkedGrant(principal: unknown, permission: unknown): Grant {
  if (typeof principal !== 'string' || !PRINCIPAL.test(principal))
    throw bad('each grant needs a principal "user:<name>" or "group:<name>"');
  if (permission !== 'read' && permission !== 'write') throw bad('each grant needs a permission "read" or "write"');
  return { principal, permission };
}

export function checkedVisibility(visibility: unknown): Visibility {
  if (visibility !== 'public' && visibility !== 'private') throw bad('visibility must be "public" or "private"');
  return visibility;
}

/** The access body: `{"visibility": "public", "grants": [{"principal": "user:alice", "permission": "read"}], "legal-hold": true}`. */
export function accessChangeOf(body: unknown): AccessChange {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('the body must be an object with visibility, grants and/or legal-hold');
  const { visibility, grants, 'legal-hold': legalHold, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length)
    throw bad(`unknown properties: ${Object.keys(rest).join(', ')}; allowed: visibility, grants, legal-hold`);
  const change: AccessChange = {};
  if (visibility !== undefined) change.visibility = checkedVisibility(visibility);
  if (grants !== undefined) {
    if (!Array.isArray(grants) || grants.length > MAX_GRANTS)
      throw bad(`grants must be an array (at most ${MAX_GRANTS})`);
    change.grants = grants.map((g) => {
      const { principal, permission } = (g ?? {}) as Record<string, unknown>;
      return checkedGrant(principal, permission);
    });
  }
  if (legalHold !== undefined) {
    if (typeof legalHold !== 'boolean') throw bad('legal-hold must be true or false');
    change.legalHold = legalHold;
  }
  return change;
}
