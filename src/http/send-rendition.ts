import type { FastifyReply, FastifyRequest } from 'fastify';
import { gunzip } from '../service/blobs.js';
import type { Store } from '../store/types.js';

/**
 * Stored bytes by hash and coding: the hash makes entries immutable, so the cache can only be
 * stale by being absent, and a hit spares a store read (or a gunzip) per request.
 */
class ByteCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly limit: number) {}

  get(hash: string): Buffer | undefined {
    const hit = this.entries.get(hash);
    if (hit) {
      this.entries.delete(hash);
      this.entries.set(hash, hit);
    }
    return hit;
  }

  set(hash: string, value: Buffer): void {
    if (value.length > this.limit / 4) return;
    const old = this.entries.get(hash);
    if (old) this.bytes -= old.length;
    this.entries.set(hash, value);
    this.bytes += value.length;
    for (const [key, old] of this.entries) {
      if (this.bytes <= this.limit) break;
      this.entries.delete(key);
      this.bytes -= old.length;
    }
  }
}

const cache = new ByteCache(256 * 1024 * 1024);

/** Blobs kept without a brotli copy are remembered as such (an empty entry), so as not to ask again. */
const NONE = Buffer.alloc(0);

async function encoded(store: Store, hash: string, coding: 'br' | 'gzip'): Promise<Buffer | undefined> {
  const key = `${hash}:${coding}`;
  let bytes = cache.get(key);
  if (!bytes) {
    bytes = (await store.getBlobEncoded(hash, coding)) ?? NONE;
    cache.set(key, bytes);
  }
  return bytes.length ? bytes : undefined;
}

export function accepts(header: string | undefined, coding: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    return (name === coding || name === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * Sends stored bytes as they are kept: brotli or gzip straight from the store when the client
 * takes it, with a weak ETag (the same content in any coding) and 304 on If-None-Match.
 */
export async function sendStored(store: Store, request: FastifyRequest, reply: FastifyReply, hash: string, contentType: string): Promise<FastifyReply> {
  const etag = `W/"${hash}"`;
  reply.header('ETag', etag).header('Vary', 'Accept, Accept-Encoding').header('Cache-Control', 'private, no-cache').type(contentType);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === `"${hash}"` || t.trim() === '*')) {
    return reply.code(304).send();
  }
  const acceptEncoding = request.headers['accept-encoding'];
  if (accepts(acceptEncoding, 'br')) {
    const br = await encoded(store, hash, 'br');
    if (br) return reply.header('Content-Encoding', 'br').send(br);
  }
  const gz = await encoded(store, hash, 'gzip');
  if (gz && accepts(acceptEncoding, 'gzip')) return reply.header('Content-Encoding', 'gzip').send(gz);
  let plain = cache.get(hash);
  if (!plain) {
    plain = gunzip(gz!);
    cache.set(hash, plain);
  }
  return reply.send(plain);
}
