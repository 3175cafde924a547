import type { BlobStore } from '../types.js';
import type { SqliteConnection } from './connection.js';

export function sqliteBlobs(c: SqliteConnection): BlobStore {
  return {
    async getBlob(hash) {
      const row = c.stmt('SELECT gzip FROM blobs WHERE hash = ?').get(hash) as { gzip: Buffer } | undefined;
      return row?.gzip;
    },

    async getBlobEncoded(hash, encoding) {
      const row = c.stmt(`SELECT ${encoding === 'br' ? 'br' : 'gzip'} AS data FROM blobs WHERE hash = ?`).get(hash) as
        { data: Buffer | null } | undefined;
      return row?.data ?? undefined;
    },
  };
}
