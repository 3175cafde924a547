/**
 * Playing another server process on the same PostgreSQL database, with certain timing: a
 * transaction holds something a request is about to read, commits a change once the request
 * waits for it, and only then lets it go.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { DOCUMENT_BLOBS, UNREFERENCED } from '../../src/store/rows.js';
import type { ApiResponse } from './http.js';

export type Tx = postgres.TransactionSql;

/** A statement reading the table waits before it takes its snapshot, so it sees what the transaction commits. */
export const holdTable = (table: 'revisions' | 'renditions' | 'blobs' | 'grants' | 'attachments') => (tx: Tx) => tx`LOCK TABLE ${tx(table)} IN ACCESS EXCLUSIVE MODE`;

/**
 * Plain reads of the table go on; a statement that writes it or locks its rows (FOR SHARE, FOR
 * UPDATE) waits, and then sees what the transaction commits.
 */
export const holdWrites = (table: 'documents') => (tx: Tx) => tx`LOCK TABLE ${tx(table)} IN EXCLUSIVE MODE`;

/**
 * Runs `request` while a transaction holds what `hold` takes; once the request waits for it (or
 * for anything else in the database), commits `change` in that transaction and lets go.
 */
export async function whileWaiting(databaseUrl: string, hold: (tx: Tx) => Promise<unknown>, request: () => Promise<ApiResponse>,
  change: (tx: Tx) => Promise<unknown>): Promise<ApiResponse> {
  const other = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  let answer: Promise<ApiResponse> | undefined;
  try {
    await other.begin(async (tx) => {
      await hold(tx);
      answer = request();
      const deadline = Date.now() + 30_000;
      while ((await other`SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n === 0) {
        assert.ok(Date.now() < deadline, 'the request never waited for what the transaction holds');
        await sleep(20);
      }
      await change(tx);
    });
  } finally {
    await other.end();
  }
  return answer!;
}

/** Blobs nothing refers to any more are dropped, as the store does after a delete. */
export async function dropUnreferenced(tx: Tx, hashes: string[]): Promise<void> {
  await tx.unsafe(`DELETE FROM blobs b WHERE b.hash = ANY($1::text[]) AND ${UNREFERENCED('b.hash')}`, [tx.array(hashes)]);
}

/** What a delete of the document commits (PostgresStore.deleteDocument). */
export async function deleteDocument(tx: Tx, id: string): Promise<void> {
  const hashes = (await tx.unsafe(DOCUMENT_BLOBS('$1'), [id])).map((r) => r.h as string);
  await tx`DELETE FROM documents WHERE id = ${id}`;
  await dropUnreferenced(tx, hashes);
}

/** What a delete of the document's current version commits, `previous` becoming current (PostgresStore.deleteRevision). */
export async function deleteCurrentVersion(tx: Tx, id: string, number: number, previous: number): Promise<void> {
  const hashes = (await tx`SELECT canonical_hash AS h FROM revisions WHERE document_id = ${id} AND number = ${number}
    UNION SELECT original_hash FROM revisions WHERE document_id = ${id} AND number = ${number}
    UNION SELECT blob_hash FROM renditions WHERE document_id = ${id} AND revision = ${number}`).map((r) => r.h as string);
  await tx`DELETE FROM renditions WHERE document_id = ${id} AND revision = ${number}`;
  await tx`DELETE FROM jobs WHERE document_id = ${id} AND revision = ${number}`;
  await tx`DELETE FROM revisions WHERE document_id = ${id} AND number = ${number}`;
  await tx`UPDATE documents SET revision = ${previous} WHERE id = ${id}`;
  await dropUnreferenced(tx, hashes);
}
