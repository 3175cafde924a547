import type postgres from 'postgres';
import { snapshotColumns, snapshotOf } from '../rows.js';
import { type SnapshotStore } from '../types.js';
import { audit, dropUnreferenced, lockBlobs, now, putBlob } from './connection.js';
import { StoreConflictError } from '../../errors.js';

export function postgresSnapshots(sql: postgres.Sql): SnapshotStore {
  return {
    async createSnapshot(snapshot, blob, entry) {
      await sql.begin(async (tx) => {
        const [doc] = await tx`SELECT 1 FROM documents WHERE id = ${snapshot.documentId} FOR SHARE`;
        if (!doc) throw new StoreConflictError('not-found', `no document ${snapshot.documentId}`);
        await putBlob(tx, blob);
        const columns = snapshotColumns({ ...snapshot, canonicalHash: blob.hash });
        await tx`INSERT INTO snapshots ${tx({ ...columns, updated_at: columns.created_at })}`;
        await audit(tx, entry);
      });
    },

    async listSnapshots(id, kind) {
      return (
        await sql`SELECT * FROM snapshots WHERE document_id = ${id} AND kind = ${kind} ORDER BY created_at, id`
      ).map(snapshotOf);
    },

    async getSnapshot(id, kind, snapshotId) {
      const [row] =
        await sql`SELECT * FROM snapshots WHERE document_id = ${id} AND kind = ${kind} AND id = ${snapshotId}`;
      return row && snapshotOf(row);
    },

    async updateSnapshot(id, kind, snapshotId, notes, blob, entry) {
      await sql.begin(async (tx) => {
        const [old] =
          await tx`SELECT canonical_hash FROM snapshots WHERE document_id = ${id} AND kind = ${kind} AND id = ${snapshotId} FOR UPDATE`;
        if (!old) throw new StoreConflictError('not-found', `no snapshot ${snapshotId}`);
        await lockBlobs(tx, [blob], [old.canonical_hash as string]);
        await tx`UPDATE snapshots SET canonical_hash = ${blob.hash}, description = ${notes.description ?? null}, labels = ${JSON.stringify(notes.labels)},
          types = ${JSON.stringify(notes.types)}, updated_at = ${now()} WHERE id = ${snapshotId}`;
        await dropUnreferenced(tx, [old.canonical_hash as string]);
        await audit(tx, entry);
      });
    },

    async deleteSnapshot(id, kind, snapshotId, entry) {
      await sql.begin(async (tx) => {
        const [row] =
          await tx`SELECT s.canonical_hash, d.legal_hold FROM snapshots s JOIN documents d ON d.id = s.document_id
          WHERE s.document_id = ${id} AND s.kind = ${kind} AND s.id = ${snapshotId} FOR UPDATE`;
        if (!row) throw new StoreConflictError('not-found', `no snapshot ${snapshotId}`);
        if (row.legal_hold)
          throw new StoreConflictError(
            'legal-hold',
            'the document is under a legal hold: none of its snapshots can be deleted',
          );
        await tx`DELETE FROM snapshots WHERE id = ${snapshotId}`;
        await dropUnreferenced(tx, [row.canonical_hash as string]);
        await audit(tx, entry);
      });
    },
  };
}
