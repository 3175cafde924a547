import type { AuditEntry, RevisionRecord } from '../types.js';

/** The revisions of a document, as written by DocumentStore's createDocument and replaceDocument. */
export interface RevisionStore {
  /** Newest first. */
  listRevisions(id: string): Promise<RevisionRecord[]>;
  getRevision(id: string, number: number): Promise<RevisionRecord | undefined>;
  /** Removes one revision (never the only one); the newest remaining becomes current. */
  deleteRevision(id: string, number: number, audit: AuditEntry): Promise<void>;
}
