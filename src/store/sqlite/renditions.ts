import type { RenditionStore } from '../types.js';
import type { SqliteConnection } from './connection.js';

export function sqliteRenditions(c: SqliteConnection): RenditionStore {
  return {
    async getRendition(id, revision, format) {
      const row = c
        .stmt(
          'SELECT r.blob_hash AS hash, b.size AS size FROM renditions r JOIN blobs b ON b.hash = r.blob_hash WHERE r.document_id = ? AND r.revision = ? AND r.format = ?',
        )
        .get(id, revision, format) as { hash: string; size: number } | undefined;
      return row;
    },

    async putRendition(id, revision, format, blob) {
      c.transaction(() => {
        // The document may have been deleted while its rendition was being made.
        if (!c.hasDocument(id)) return;
        c.putBlob(blob);
        c.stmt(
          'INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        ).run(id, revision, format, blob.hash);
      });
    },
  };
}
