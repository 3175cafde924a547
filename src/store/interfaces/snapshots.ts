import type { AuditEntry, BlobInput, SnapshotKind, SnapshotNotes, SnapshotRecord } from '../types.js';

/** Content and resolved snapshots of a document (D8), each with its own copy of the content. */
export interface SnapshotStore {
  createSnapshot(
    snapshot: Omit<SnapshotRecord, 'updatedAt' | 'canonicalHash'>,
    blob: BlobInput,
    audit: AuditEntry,
  ): Promise<void>;
  /** Oldest first. */
  listSnapshots(id: string, kind: SnapshotKind): Promise<SnapshotRecord[]>;
  getSnapshot(id: string, kind: SnapshotKind, snapshotId: string): Promise<SnapshotRecord | undefined>;
  updateSnapshot(
    id: string,
    kind: SnapshotKind,
    snapshotId: string,
    notes: SnapshotNotes,
    blob: BlobInput,
    audit: AuditEntry,
  ): Promise<void>;
  /** Refuses under the document's legal hold. */
  deleteSnapshot(id: string, kind: SnapshotKind, snapshotId: string, audit: AuditEntry): Promise<void>;
}
