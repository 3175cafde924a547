/** Stored bytes by content hash (see BlobInput); written only with what refers to them. */
export interface BlobStore {
  /** The bytes gzip-compressed. */
  getBlob(hash: string): Promise<Buffer | undefined>;
  getBlobEncoded(hash: string, encoding: 'gzip' | 'br'): Promise<Buffer | undefined>;
}
