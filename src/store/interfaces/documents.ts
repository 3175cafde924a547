import type { AuditEntry, DocumentRecord, ListQuery, RevisionInput, Visibility } from '../types.js';

/**
 * Documents: each held with its current list fields, written a whole revision at a time. A
 * revision's write carries its blobs, renditions, attachments, aliases and jobs, all in the one
 * transaction that writes the revision.
 */
export interface DocumentStore {
  createDocument(
    doc: { id: string; model: string; owner: string; visibility: Visibility },
    revision: RevisionInput,
    audit: AuditEntry,
  ): Promise<{ jobs: string[] }>;
  /**
   * Adds the next revision; numbering is gapless. With `ifRevision`, refuses ('stale') unless
   * that is still the current revision: read-modify-write callers lose no concurrent change.
   */
  replaceDocument(
    id: string,
    revision: RevisionInput,
    audit: AuditEntry,
    ifRevision?: number,
  ): Promise<{ revision: number; jobs: string[] }>;
  getDocument(id: string): Promise<DocumentRecord | undefined>;
  /** Those of `ids` that exist, in any order: one read where a page of results names several documents. */
  getDocuments(ids: readonly string[]): Promise<DocumentRecord[]>;
  listDocuments(query: ListQuery): Promise<DocumentRecord[]>;
  /** Removes the document and everything hanging off it; refuses under a legal hold. */
  deleteDocument(id: string, audit: AuditEntry): Promise<void>;
  countDocuments(): Promise<number>;
}
