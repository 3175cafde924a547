import type { AccessRecord, AuditEntry, Grant } from '../types.js';

/** Who may do what with a document: its owner, visibility, legal hold and grants. */
export interface AccessStore {
  getAccess(id: string): Promise<AccessRecord | undefined>;
  setAccess(
    id: string,
    access: Partial<Pick<AccessRecord, 'visibility' | 'legalHold' | 'grants'>>,
    audit: AuditEntry,
  ): Promise<void>;
  /** The grants on a document held by any of these principals. */
  grantsFor(id: string, principals: string[]): Promise<Grant[]>;
}
