import type { AccessRecord, Grant } from '../store/types.js';
import type { Identity } from './identity.js';

/** What an identity may do with one document (D7): owner and admin hold every right. */
export interface Rights {
  read: boolean;
  write: boolean;
  /** Delete, and read or change access settings. */
  manage: boolean;
}

export function rightsOver(
  identity: Identity,
  access: Pick<AccessRecord, 'owner' | 'visibility'>,
  grants: Grant[],
): Rights {
  if (identity.kind === 'user' && (identity.role === 'admin' || identity.name === access.owner))
    return { read: true, write: true, manage: true };
  const write = identity.kind === 'user' && grants.some((g) => g.permission === 'write');
  const read = write || access.visibility === 'public' || (identity.kind === 'user' && grants.length > 0);
  return { read, write, manage: false };
}

/** Whether grants could change the answer of rightsOver: not for admins, owners or anonymous callers. */
export function grantsMatter(identity: Identity, access: Pick<AccessRecord, 'owner'>): boolean {
  return identity.kind === 'user' && identity.role !== 'admin' && identity.name !== access.owner;
}

export function mayCreate(identity: Identity): boolean {
  return identity.kind === 'user' && (identity.role === 'admin' || identity.role === 'writer');
}

const isAdmin = (identity: Identity): boolean => identity.kind === 'user' && identity.role === 'admin';

/** Registering and deleting constraint sets changes what every write is checked against. */
export const mayManageConstraintSets = isAdmin;

/** A legal hold keeps a document from deletion whatever its owner wants: only an admin sets or lifts it. */
export const mayHoldLegally = isAdmin;

/** The audit log names every user and document: admins only. */
export const mayReadAudit = isAdmin;

/** Whether a list shows every document, or only those the caller may read. */
export const seesEveryDocument = isAdmin;
