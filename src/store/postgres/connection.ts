/**
 * What the parts of the PostgreSQL store (postgres-store.ts puts them together) share: the
 * writes several of them make within their own transactions, each given the transaction's handle
 * (blobs in and out, in one lock order; the audit entry; holding a document).
 */
import type postgres from 'postgres';
import { BLOB_MERGE, UNREFERENCED } from '../rows.js';
import type { AuditEntry, BlobInput, ListQuery } from '../types.js';

/** The pool, or one transaction on it. */
export type Sql = postgres.Sql | postgres.TransactionSql;

export const now = () => new Date().toISOString();

export async function putBlob(tx: Sql, blob: BlobInput): Promise<void> {
  await tx.unsafe(
    `INSERT INTO blobs (hash, size, gzip, br, plain) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (hash) DO UPDATE SET ${BLOB_MERGE}`,
    [blob.hash, blob.size, blob.gzip, blob.br ?? null, blob.plain === true],
  );
}

export async function audit(tx: Sql, entry: AuditEntry): Promise<void> {
  await tx`INSERT INTO audit_log (at, actor, action, document_id, detail) VALUES (${now()}, ${entry.actor}, ${entry.action}, ${entry.documentId ?? null}, ${entry.detail ? JSON.stringify(entry.detail) : null})`;
}

/**
 * Stores `stored` and locks the rows of `dropping` (blobs the transaction may drop), in one pass
 * in hash order. Every writer and deleter takes its blob locks so, which keeps two transactions
 * sharing blobs from deadlocking: a writer that locked what it stores first and what it drops
 * after could hold one blob while a deleter, holding the other, waits for it.
 */
export async function lockBlobs(tx: Sql, stored: BlobInput[], dropping: string[]): Promise<void> {
  const byHash = new Map(stored.map((b) => [b.hash, b]));
  for (const hash of [...new Set([...byHash.keys(), ...dropping])].sort()) {
    const blob = byHash.get(hash);
    if (blob) await putBlob(tx, blob);
    else await tx`SELECT hash FROM blobs WHERE hash = ${hash} FOR UPDATE`;
  }
}

/**
 * Blobs are shared by content: drop only those nothing refers to any more. The rows are locked
 * first (in lockBlobs' order: a writer has locked them there already), which waits out any writer
 * that is adding a reference (its upsert holds the row); the DELETE, a statement of its own, then
 * sees every committed reference.
 */
export async function dropUnreferenced(tx: Sql, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  const unique = [...new Set(hashes)].sort();
  // Ordered as JavaScript sorts them, whatever the database's collation.
  await tx`SELECT hash FROM blobs WHERE hash IN ${tx(unique)} ORDER BY hash COLLATE "C" FOR UPDATE`;
  await tx.unsafe(`DELETE FROM blobs b WHERE b.hash = ANY($1::text[]) AND ${UNREFERENCED('b.hash')}`, [
    tx.array(unique),
  ]);
}

/** Keeps the document from being deleted until the transaction ends; false when it is gone. */
export async function holdDocument(tx: Sql, id: string): Promise<boolean> {
  return (await tx`SELECT 1 FROM documents WHERE id = ${id} FOR KEY SHARE`).length === 1;
}

/**
 * The condition on a documents row (`d`: its alias, or '' for none) that `readableBy` may read it:
 * public, owned, or granted to one of the principals. `p` adds a parameter and gives its placeholder.
 */
export function readableWhere(
  readableBy: NonNullable<ListQuery['readableBy']>,
  p: (value: unknown) => string,
  d = '',
): string {
  const user = p(readableBy.userId ?? null);
  const principals = readableBy.principals.map(p);
  return `(${d}visibility = 'public' OR ${d}owner = ${user}${principals.length ? ` OR ${d}id IN (SELECT document_id FROM grants WHERE principal IN (${principals.join(', ')}))` : ''})`;
}
