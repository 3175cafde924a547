import type { FastifyReply, FastifyRequest } from 'fastify';
import { gunzip } from '../service/blobs.js';
import { ContentGone } from '../service/content.js';
import { memoizeText } from '../service/text-memo.js';
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

export function accepts(header: string | undefined, coding: 'br' | 'gzip'): boolean {
  return header ? acceptedCodings(header)[coding] : false;
}

const acceptedCodings = memoizeText((header: string): { br: boolean; gzip: boolean } => {
  const taken = (coding: string) =>
    header.split(',').some((part) => {
      const [name, ...params] = part
        .trim()
        .toLowerCase()
        .split(';')
        .map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      return (name === coding || name === '*') && (q === undefined || Number(q.slice(2)) > 0);
    });
  return { br: taken('br'), gzip: taken('gzip') };
});

/** A stored rendition's answer, apart from the framework that writes it. */
export interface StoredReply {
  status: 200 | 304;
  headers: Record<string, string>;
  body?: Buffer;
  /** Set when the bytes are sent uncoded although the client takes a coding: the compression plugin may code them. */
  compressible: boolean;
}

/**
 * Stored bytes as they are kept: brotli or gzip straight from the store when the client takes
 * it, with a weak ETag (the same content in any coding) and 304 on If-None-Match. Undefined
 * when the blob is gone.
 */
/** Whether If-None-Match names the ETag of the bytes of `hash` (weak or strong), or is `*`: then 304. */
export function stillCurrent(ifNoneMatch: string | undefined, hash: string): boolean {
  return (
    ifNoneMatch !== undefined &&
    ifNoneMatch.split(',').some((t) => {
      const tag = t.trim();
      return tag === `W/"${hash}"` || tag === `"${hash}"` || tag === '*';
    })
  );
}

export async function storedReply(
  store: Store,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
  hash: string,
  contentType: string,
): Promise<StoredReply | undefined> {
  const etag = `W/"${hash}"`;
  const headers: Record<string, string> = {
    etag,
    vary: 'Accept, Accept-Encoding',
    'cache-control': 'private, no-cache',
    'content-type': contentType,
  };
  if (stillCurrent(ifNoneMatch, hash)) {
    return { status: 304, headers, compressible: false };
  }
  if (accepts(acceptEncoding, 'br')) {
    const br = await encoded(store, hash, 'br');
    if (br) return { status: 200, headers: { ...headers, 'content-encoding': 'br' }, body: br, compressible: false };
  }
  const gz = await encoded(store, hash, 'gzip');
  if (!gz) return undefined;
  if (accepts(acceptEncoding, 'gzip'))
    return { status: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: gz, compressible: false };
  let plain = cache.get(hash);
  if (!plain) {
    plain = gunzip(gz);
    cache.set(hash, plain);
  }
  return {
    status: 200,
    headers,
    body: plain,
    compressible: acceptEncoding !== undefined && acceptEncoding.trim() !== '',
  };
}

/** ContentGone when a delete took the bytes after their record was read: the caller reads again (retryWhenGone). */
export async function sendStored(
  store: Store,
  request: FastifyRequest,
  reply: FastifyReply,
  hash: string,
  contentType: string,
): Promise<FastifyReply> {
  const stored = await storedReply(
    store,
    request.headers['if-none-match'],
    request.headers['accept-encoding'],
    hash,
    contentType,
  );
  if (!stored) throw new ContentGone(`blob ${hash} is gone`);
  return reply.code(stored.status).headers(stored.headers).send(stored.body);
}
