import type postgres from 'postgres';
import { fieldColumns, revisionOf } from '../rows.js';
import { type RevisionStore } from '../types.js';
import { audit, dropUnreferenced, now } from './connection.js';
import { writeMetadataAliases } from './revision-writes.js';
import { StoreConflictError } from '../../errors.js';

export function postgresRevisions(sql: postgres.Sql): RevisionStore {
  return {
    async listRevisions(id) {
      return (
        await sql`SELECT r.*, b.size FROM revisions r JOIN blobs b ON b.hash = r.canonical_hash WHERE r.document_id = ${id} ORDER BY r.number DESC`
      ).map(revisionOf);
    },

    async getRevision(id, number) {
      const [row] =
        await sql`SELECT r.*, b.size FROM revisions r JOIN blobs b ON b.hash = r.canonical_hash WHERE r.document_id = ${id} AND r.number = ${number}`;
      return row && revisionOf(row);
    },

    async deleteRevision(id, number, entry) {
      await sql.begin(async (tx) => {
        const [doc] = await tx`SELECT revision, legal_hold FROM documents WHERE id = ${id} FOR UPDATE`;
        const [target] =
          await tx`SELECT canonical_hash, original_hash FROM revisions WHERE document_id = ${id} AND number = ${number}`;
        if (!doc || !target) throw new StoreConflictError('not-found', `no version ${number} of ${id}`);
        if (doc.legal_hold)
          throw new StoreConflictError(
            'legal-hold',
            'the document is under a legal hold: none of its versions can be deleted',
          );
        const [{ n }] = (await tx`SELECT COUNT(*) AS n FROM revisions WHERE document_id = ${id}`) as unknown as [
          { n: string },
        ];
        if (Number(n) === 1)
          throw new StoreConflictError(
            'last-version',
            'the only version of a document cannot be deleted; delete the document instead',
          );
        const hashes = [
          target.canonical_hash as string,
          target.original_hash as string,
          ...(await tx`SELECT blob_hash AS h FROM renditions WHERE document_id = ${id} AND revision = ${number}`).map(
            (r) => r.h as string,
          ),
        ];
        await tx`DELETE FROM renditions WHERE document_id = ${id} AND revision = ${number}`;
        await tx`DELETE FROM jobs WHERE document_id = ${id} AND revision = ${number}`;
        await tx`DELETE FROM revisions WHERE document_id = ${id} AND number = ${number}`;
        if (doc.revision === number) {
          // The newest remaining revision becomes current: its list fields, validity and metadata aliases with it.
          const [newest] =
            await tx`SELECT number, fields, valid FROM revisions WHERE document_id = ${id} ORDER BY number DESC LIMIT 1`;
          await tx`UPDATE documents SET ${tx({ ...fieldColumns(JSON.parse(newest!.fields as string)), revision: newest!.number as number, valid: newest!.valid as boolean, updated_at: now() })} WHERE id = ${id}`;
          await writeMetadataAliases(tx, id, JSON.parse(newest!.fields as string));
        }
        await dropUnreferenced(tx, hashes);
        await audit(tx, entry);
      });
    },
  };
}
