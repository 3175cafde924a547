import type postgres from 'postgres';
import { attachmentOf } from '../rows.js';
import type { AttachmentStore } from '../types.js';

export function postgresAttachments(sql: postgres.Sql): AttachmentStore {
  return {
    async getAttachment(id, resourceUuid) {
      const [row] =
        await sql`SELECT a.*, b.size AS size FROM attachments a JOIN blobs b ON b.hash = a.blob_hash WHERE a.document_id = ${id} AND a.resource_uuid = ${resourceUuid}`;
      return row && attachmentOf(row);
    },

    async getAttachmentBytes(hash) {
      const [row] = await sql`SELECT gzip, plain FROM blobs WHERE hash = ${hash}`;
      return row && { data: row.gzip as Buffer, plain: row.plain as boolean };
    },
  };
}
