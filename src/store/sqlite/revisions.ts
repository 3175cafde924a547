import { fieldColumns, revisionOf, type Row } from '../rows.js';
import { type RevisionStore } from '../types.js';
import { now, type SqliteConnection } from './connection.js';
import { writeMetadataAliases } from './revision-writes.js';
import { StoreConflictError } from '../../errors.js';

const REVISIONS = 'SELECT r.*, b.size AS size FROM revisions r JOIN blobs b ON b.hash = r.canonical_hash';

export function sqliteRevisions(c: SqliteConnection): RevisionStore {
  return {
    async listRevisions(id) {
      return (c.stmt(`${REVISIONS} WHERE r.document_id = ? ORDER BY r.number DESC`).all(id) as Row[]).map(revisionOf);
    },

    async getRevision(id, number) {
      const row = c.stmt(`${REVISIONS} WHERE r.document_id = ? AND r.number = ?`).get(id, number) as Row | undefined;
      return row && revisionOf(row);
    },

    async deleteRevision(id, number, audit) {
      c.transaction(() => {
        const doc = c.stmt('SELECT revision, legal_hold FROM documents WHERE id = ?').get(id) as
          { revision: number; legal_hold: number } | undefined;
        const target = c
          .stmt('SELECT canonical_hash, original_hash FROM revisions WHERE document_id = ? AND number = ?')
          .get(id, number) as Row | undefined;
        if (!doc || !target) throw new StoreConflictError('not-found', `no version ${number} of ${id}`);
        if (doc.legal_hold === 1)
          throw new StoreConflictError(
            'legal-hold',
            'the document is under a legal hold: none of its versions can be deleted',
          );
        const { n } = c.stmt('SELECT COUNT(*) AS n FROM revisions WHERE document_id = ?').get(id) as { n: number };
        if (n === 1)
          throw new StoreConflictError(
            'last-version',
            'the only version of a document cannot be deleted; delete the document instead',
          );
        const hashes = [
          target.canonical_hash as string,
          target.original_hash as string,
          ...(
            c.stmt('SELECT blob_hash AS h FROM renditions WHERE document_id = ? AND revision = ?').all(id, number) as {
              h: string;
            }[]
          ).map((r) => r.h),
        ];
        c.stmt('DELETE FROM renditions WHERE document_id = ? AND revision = ?').run(id, number);
        c.stmt('DELETE FROM jobs WHERE document_id = ? AND revision = ?').run(id, number);
        c.stmt('DELETE FROM revisions WHERE document_id = ? AND number = ?').run(id, number);
        if (doc.revision === number) {
          // The newest remaining revision becomes current: its list fields, validity and metadata aliases with it.
          const newest = c
            .stmt('SELECT number, fields, valid FROM revisions WHERE document_id = ? ORDER BY number DESC LIMIT 1')
            .get(id) as { number: number; fields: string; valid: number };
          c.stmt(
            `UPDATE documents SET revision = @number, valid = @valid, title = @title, title_lower = @title_lower, version = @version, oscal_version = @oscal_version,
            published = @published, last_modified = @last_modified, document_ids = @document_ids, markings = @markings, remarks = @remarks, updated_at = @at WHERE id = @id`,
          ).run({
            id,
            number: newest.number,
            valid: newest.valid,
            ...fieldColumns(JSON.parse(newest.fields)),
            at: now(),
          });
          writeMetadataAliases(c, id, JSON.parse(newest.fields));
        }
        c.dropUnreferenced(hashes);
        c.audit(audit);
      });
    },
  };
}
