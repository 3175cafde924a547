import { hash } from 'node:crypto';

/** The hex SHA-256 that names blobs and stands for tokens; below every layer, since both the store's users and auth need it. */
export function sha256(bytes: Buffer | string): string {
  return hash('sha256', bytes, 'hex');
}
