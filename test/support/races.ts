/**
 * Playing another server process on the same PostgreSQL database, with certain timing: a
 * transaction holds something a request is about to read, commits a change once the request
 * waits for it, and only then lets it go.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { DOCUMENT_BLOBS, UNREFERENCED } from '../../src/store/rows.js';
import { api, type ApiRequest, type ApiResponse } from './http.js';
import { stopWithin } from './lifecycle.js';
import { freshDatabase } from './postgres.js';
import { TestServer } from './server.js';

export type Tx = postgres.TransactionSql;

/** The server a race test sends its requests to, on a database of its own. */
export interface RaceServer {
  readonly url: string;
  readonly databaseUrl: string;
  /** A request with the admin token. */
  call(method: string, path: string, options?: ApiRequest): Promise<ApiResponse>;
}

/** For the enclosing describe: a server on a fresh database, started before its tests, stopped and the database dropped after. */
export function serverOnOwnDatabase(): RaceServer {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let server: TestServer | undefined;
  let token = '';
  before(async () => {
    database = await freshDatabase();
    server = await TestServer.start({ args: ['--database-url', database.url] });
    token = server.adminToken();
  });
  after(async () => {
    if (server) await stopWithin(server);
    await database?.drop();
  });
  return {
    get url() {
      return server!.url;
    },
    get databaseUrl() {
      return database!.url;
    },
    call: (method, path, options = {}) => api(server!.url, method, path, { token, ...options }),
  };
}

/** The options of an attachment upload of `file`. */
export function fileUpload(file: Buffer): ApiRequest {
  return {
    body: file,
    contentType: 'application/octet-stream',
    headers: { 'content-disposition': 'attachment; filename="f.bin"' },
  };
}

/** A statement reading the table waits before it takes its snapshot, so it sees what the transaction commits. */
export const holdTable = (table: 'revisions' | 'renditions' | 'blobs' | 'grants' | 'attachments') => (tx: Tx) =>
  tx`LOCK TABLE ${tx(table)} IN ACCESS EXCLUSIVE MODE`;

/**
 * Plain reads of the table go on; a statement that writes it or locks its rows (FOR SHARE, FOR
 * UPDATE) waits, and then sees what the transaction commits.
 */
export const holdWrites = (table: 'documents') => (tx: Tx) => tx`LOCK TABLE ${tx(table)} IN EXCLUSIVE MODE`;

/**
 * Runs `request` while a transaction holds what `hold` takes; once the request waits for it (or
 * for anything else in the database), commits `change` in that transaction and lets go.
 */
export async function whileWaiting(
  databaseUrl: string,
  hold: (tx: Tx) => Promise<unknown>,
  request: () => Promise<ApiResponse>,
  change: (tx: Tx) => Promise<unknown>,
): Promise<ApiResponse> {
  const other = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  let answer: Promise<ApiResponse> | undefined;
  try {
    await other.begin(async (tx) => {
      await hold(tx);
      answer = request();
      const deadline = Date.now() + 30_000;
      while (
        (
          await other`SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
        )[0]!.n === 0
      ) {
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
  await tx.unsafe(`DELETE FROM blobs b WHERE b.hash = ANY($1::text[]) AND ${UNREFERENCED('b.hash')}`, [
    tx.array(hashes),
  ]);
}

/** What a delete of the document commits (PostgresStore.deleteDocument). */
export async function deleteDocument(tx: Tx, id: string): Promise<void> {
  const hashes = (await tx.unsafe(DOCUMENT_BLOBS('$1'), [id])).map((r) => r.h as string);
  await tx`DELETE FROM documents WHERE id = ${id}`;
  await dropUnreferenced(tx, hashes);
}

/** What a delete of the document's current version commits, `previous` becoming current (PostgresStore.deleteRevision). */
export async function deleteCurrentVersion(tx: Tx, id: string, number: number, previous: number): Promise<void> {
  const hashes = (
    await tx`SELECT canonical_hash AS h FROM revisions WHERE document_id = ${id} AND number = ${number}
    UNION SELECT original_hash FROM revisions WHERE document_id = ${id} AND number = ${number}
    UNION SELECT blob_hash FROM renditions WHERE document_id = ${id} AND revision = ${number}`
  ).map((r) => r.h as string);
  await tx`DELETE FROM renditions WHERE document_id = ${id} AND revision = ${number}`;
  await tx`DELETE FROM jobs WHERE document_id = ${id} AND revision = ${number}`;
  await tx`DELETE FROM revisions WHERE document_id = ${id} AND number = ${number}`;
  await tx`UPDATE documents SET revision = ${previous} WHERE id = ${id}`;
  await dropUnreferenced(tx, hashes);
}
