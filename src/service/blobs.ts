import { sha256 } from '../digest.js';
import { brotliCompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import type { BlobInput } from '../store/types.js';

/**
 * Compression favours speed: a write of the 800-53 catalog compresses about 8 MB in the request.
 * Brotli, kept only for renditions served to browsers, uses a middle quality for the same reason.
 */
const GZIP_LEVEL = 4;
const BROTLI_QUALITY = 5;

export function blobOf(bytes: Buffer, withBrotli = false): BlobInput {
  const blob: BlobInput = { hash: sha256(bytes), size: bytes.length, gzip: gzipSync(bytes, { level: GZIP_LEVEL }) };
  if (withBrotli)
    blob.br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
  return blob;
}

/** Files are sampled: gzip is kept only where it saves a tenth, else the bytes stay as they are. */
const SAMPLE = 1024 * 1024;

export function fileBlob(bytes: Buffer): BlobInput {
  const hash = sha256(bytes);
  const sample = bytes.subarray(0, SAMPLE);
  if (gzipSync(sample, { level: 1 }).length > sample.length * 0.9)
    return { hash, size: bytes.length, gzip: bytes, plain: true };
  return { hash, size: bytes.length, gzip: gzipSync(bytes, { level: GZIP_LEVEL }) };
}

export function gunzip(bytes: Buffer): Buffer {
  return gunzipSync(bytes);
}
