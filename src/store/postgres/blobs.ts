import type postgres from 'postgres';
import type { BlobStore } from '../types.js';

export function postgresBlobs(sql: postgres.Sql): BlobStore {
  return {
    async getBlob(hash) {
      const [row] = await sql`SELECT gzip FROM blobs WHERE hash = ${hash}`;
      return row?.gzip as Buffer | undefined;
    },

    async getBlobEncoded(hash, encoding) {
      const [row] =
        encoding === 'br'
          ? await sql`SELECT br AS data FROM blobs WHERE hash = ${hash}`
          : await sql`SELECT gzip AS data FROM blobs WHERE hash = ${hash}`;
      return (row?.data as Buffer | null) ?? undefined;
    },
  };
}
