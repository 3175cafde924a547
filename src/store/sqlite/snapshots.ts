import { snapshotColumns, snapshotOf, type Row } from '../rows.js';
import { type SnapshotStore } from '../types.js';
import { now, type SqliteConnection } from './connection.js';
import { StoreConflictError } from '../../errors.js';

export function sqliteSnapshots(c: SqliteConnection): SnapshotStore {
  return {
    async createSnapshot(snapshot, blob, audit) {
      c.transaction(() => {
        if (!c.hasDocument(snapshot.documentId))
          throw new StoreConflictError('not-found', `no document ${snapshot.documentId}`);
        c.putBlob(blob);
        c.stmt(
          `INSERT INTO snapshots (id, document_id, kind, revision, canonical_hash, description, labels, types, warnings, author, created_at, updated_at)
          VALUES (@id, @document_id, @kind, @revision, @canonical_hash, @description, @labels, @types, @warnings, @author, @created_at, @created_at)`,
        ).run(snapshotColumns({ ...snapshot, canonicalHash: blob.hash }));
        c.audit(audit);
      });
    },

    async listSnapshots(id, kind) {
      return (
        c
          .stmt('SELECT * FROM snapshots WHERE document_id = ? AND kind = ? ORDER BY created_at, id')
          .all(id, kind) as Row[]
      ).map(snapshotOf);
    },

    async getSnapshot(id, kind, snapshotId) {
      const row = c
        .stmt('SELECT * FROM snapshots WHERE document_id = ? AND kind = ? AND id = ?')
        .get(id, kind, snapshotId) as Row | undefined;
      return row && snapshotOf(row);
    },

    async updateSnapshot(id, kind, snapshotId, notes, blob, audit) {
      c.transaction(() => {
        const old = c
          .stmt('SELECT canonical_hash FROM snapshots WHERE document_id = ? AND kind = ? AND id = ?')
          .get(id, kind, snapshotId) as { canonical_hash: string } | undefined;
        if (!old) throw new StoreConflictError('not-found', `no snapshot ${snapshotId}`);
        c.putBlob(blob);
        c.stmt(
          'UPDATE snapshots SET canonical_hash = ?, description = ?, labels = ?, types = ?, updated_at = ? WHERE id = ?',
        ).run(
          blob.hash,
          notes.description ?? null,
          JSON.stringify(notes.labels),
          JSON.stringify(notes.types),
          now(),
          snapshotId,
        );
        c.dropUnreferenced([old.canonical_hash]);
        c.audit(audit);
      });
    },

    async deleteSnapshot(id, kind, snapshotId, audit) {
      c.transaction(() => {
        const row = c
          .stmt(
            'SELECT s.canonical_hash, d.legal_hold FROM snapshots s JOIN documents d ON d.id = s.document_id WHERE s.document_id = ? AND s.kind = ? AND s.id = ?',
          )
          .get(id, kind, snapshotId) as { canonical_hash: string; legal_hold: number } | undefined;
        if (!row) throw new StoreConflictError('not-found', `no snapshot ${snapshotId}`);
        if (row.legal_hold === 1)
          throw new StoreConflictError(
            'legal-hold',
            'the document is under a legal hold: none of its snapshots can be deleted',
          );
        c.stmt('DELETE FROM snapshots WHERE id = ?').run(snapshotId);
        c.dropUnreferenced([row.canonical_hash]);
        c.audit(audit);
      });
    },
  };
}
