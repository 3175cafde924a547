import type { AuditFilter, AuditRecord } from '../types.js';

/** The audit log, written by every audited operation within its own transaction. */
export interface AuditStore {
  /** Newest first. */
  listAudit(limit: number, filter?: AuditFilter): Promise<AuditRecord[]>;
}
