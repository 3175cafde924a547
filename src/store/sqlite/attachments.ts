import { attachmentOf, type Row } from '../rows.js';
import type { AttachmentStore } from '../types.js';
import type { SqliteConnection } from './connection.js';

export function sqliteAttachments(c: SqliteConnection): AttachmentStore {
  return {
    async getAttachment(id, resourceUuid) {
      const row = c
        .stmt(
          'SELECT a.*, b.size AS size FROM attachments a JOIN blobs b ON b.hash = a.blob_hash WHERE a.document_id = ? AND a.resource_uuid = ?',
        )
        .get(id, resourceUuid) as Row | undefined;
      return row && attachmentOf(row);
    },

    async getAttachmentBytes(hash) {
      const row = c.stmt('SELECT gzip, plain FROM blobs WHERE hash = ?').get(hash) as
        { gzip: Buffer; plain: number } | undefined;
      return row && { data: row.gzip, plain: row.plain === 1 };
    },
  };
}
