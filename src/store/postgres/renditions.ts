import type postgres from 'postgres';
import type { RenditionStore } from '../types.js';
import { holdDocument, putBlob } from './connection.js';

export function postgresRenditions(sql: postgres.Sql): RenditionStore {
  return {
    async getRendition(id, revision, format) {
      const [row] =
        await sql`SELECT r.blob_hash AS hash, b.size AS size FROM renditions r JOIN blobs b ON b.hash = r.blob_hash
        WHERE r.document_id = ${id} AND r.revision = ${revision} AND r.format = ${format}`;
      return row && { hash: row.hash as string, size: Number(row.size) };
    },

    async putRendition(id, revision, format, blob) {
      await sql.begin(async (tx) => {
        if (!(await holdDocument(tx, id))) return;
        await putBlob(tx, blob);
        await tx`INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (${id}, ${revision}, ${format}, ${blob.hash}) ON CONFLICT DO NOTHING`;
      });
    },
  };
}
