import type { AuditEntry, ConstraintSetRecord } from '../types.js';

/** External constraint sets, registered by name. */
export interface ConstraintSetStore {
  /** Inserts or replaces; a replacement keeps who registered it first and when. */
  putConstraintSet(
    set: Pick<ConstraintSetRecord, 'name' | 'text' | 'hash' | 'size'>,
    audit: AuditEntry,
  ): Promise<{ created: boolean }>;
  getConstraintSet(name: string): Promise<ConstraintSetRecord | undefined>;
  /** By name, without their text. */
  listConstraintSets(): Promise<Omit<ConstraintSetRecord, 'text'>[]>;
  /** False when there is no set of that name (nothing is audited then). */
  deleteConstraintSet(name: string, audit: AuditEntry): Promise<boolean>;
}
