/** The assertions the store conformance tests share: on stored bytes, refusals, timestamps and records. */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { StoreConflictError } from '../../src/errors.js';
import type { BlobStore, DocumentRecord, RevisionRecord } from '../../src/store/types.js';

export async function blobText(store: BlobStore, hash: string): Promise<string | undefined> {
  const gzip = await store.getBlob(hash);
  return gzip && gunzipSync(gzip).toString('utf8');
}

export async function rejectsWith(operation: Promise<unknown>, reason: StoreConflictError['reason']): Promise<void> {
  await assert.rejects(operation, (e: unknown) => {
    assert.ok(
      e instanceof StoreConflictError,
      `expected a StoreConflictError (${reason}), got ${e instanceof Error ? e.stack : String(e)}`,
    );
    assert.equal(e.reason, reason);
    return true;
  });
}

/** A timestamp the store set: an ISO 8601 string from within [from, to] (give or take a second of clock skew). */
export function assertStamp(value: unknown, from: number, to: number, what: string): void {
  assert.equal(typeof value, 'string', `${what} is a string, got ${typeof value} ${String(value)}`);
  const at = Date.parse(value as string);
  assert.ok(
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value as string) && at >= from - 1000 && at <= to + 1000,
    `${what} ${String(value)} is an ISO timestamp between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}`,
  );
}

/** Optional fields are absent when unset; an explicit undefined is the same to callers, a null is not. */
export function present<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

/** The record without the timestamps the store chooses. */
export function withoutStamps(
  doc: DocumentRecord | undefined,
): Omit<DocumentRecord, 'createdAt' | 'updatedAt'> | undefined {
  if (!doc) return undefined;
  const { createdAt: _c, updatedAt: _u, ...rest } = present(doc);
  return rest;
}

/** A revision without what the store chooses: its record id and time. */
export function withoutIdOrStamp({ recordId: _r, createdAt: _c, ...rest }: RevisionRecord) {
  return rest;
}

export const byPrincipal = <T extends { principal: string }>(grants: T[]) =>
  [...grants].sort((a, b) => (a.principal < b.principal ? -1 : a.principal > b.principal ? 1 : 0));
