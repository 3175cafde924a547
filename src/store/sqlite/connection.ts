import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { BLOB_MERGE, UNREFERENCED } from '../rows.js';
import type { AuditEntry, BlobInput, ListQuery } from '../types.js';
import { GroupCommit } from './group-commit.js';

export const now = () => new Date().toISOString();

/**
 * The one connection every part of the SQLite store works through (sqlite-store.ts puts them
 * together), with what they share: prepared statements, transactions, and the writes that several
 * parts make within their own transactions (blobs in and out, the audit entry).
 */
export class SqliteConnection {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly group: GroupCommit;

  /**
   * WAL mode with synchronous=FULL, so an acknowledged write survives a crash or power loss. The
   * WAL is copied back into the database every 4,000 pages (16 MB), not SQLite's 1,000: a page
   * that writes change again and again (the search index's, a table's last page) is copied once
   * for all of them, and each copy ends in a sync of the file.
   */
  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('wal_autocheckpoint = 4000');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 10000');
    this.group = new GroupCommit((body) => this.transaction(body));
  }

  /** Statements are prepared once per connection: preparing costs more than running most of them. */
  stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `body` as one write transaction, taking the write lock at its start (BEGIN IMMEDIATE). */
  transaction<T>(body: () => T): T {
    return this.db.transaction(body).immediate();
  }

  /**
   * Runs `body` as a write transaction shared with the other writes queued in the same turn of
   * the event loop (group-commit.ts): for the writes of documents, which come in concurrently.
   */
  sharedTransaction<T>(body: () => T): Promise<T> {
    return this.group.run(body);
  }

  /** Whether the write running now shares its transaction with writes that ran before it. */
  get followsOtherWrites(): boolean {
    return this.group.followsOthers;
  }

  putBlob(blob: BlobInput): void {
    this.stmt(
      `INSERT INTO blobs (hash, size, gzip, br, plain) VALUES (?, ?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET ${BLOB_MERGE}`,
    ).run(blob.hash, blob.size, blob.gzip, blob.br ?? null, blob.plain ? 1 : 0);
  }

  /** Blobs are shared by content: drop only those nothing refers to any more. */
  dropUnreferenced(hashes: string[]): void {
    const drop = this.stmt(`DELETE FROM blobs WHERE hash = @h AND ${UNREFERENCED('@h')}`);
    for (const h of new Set(hashes)) drop.run({ h });
  }

  audit(entry: AuditEntry): void {
    this.stmt('INSERT INTO audit_log (at, actor, action, document_id, detail) VALUES (?, ?, ?, ?, ?)').run(
      now(),
      entry.actor,
      entry.action,
      entry.documentId ?? null,
      entry.detail ? JSON.stringify(entry.detail) : null,
    );
  }

  /** Whether the document exists (within a transaction: and stays so until it ends). */
  hasDocument(id: string): boolean {
    return this.stmt('SELECT 1 FROM documents WHERE id = ?').get(id) !== undefined;
  }
}

/**
 * The condition on a documents row (`d`: its alias, or '' for none) that `readableBy` may read it:
 * public, owned, or granted to one of the principals. Adds its parameters to `params`.
 */
export function readableWhere(
  readableBy: NonNullable<ListQuery['readableBy']>,
  params: Record<string, unknown>,
  d = '',
): string {
  const principals = readableBy.principals.map((p, i) => {
    params[`p${i}`] = p;
    return `@p${i}`;
  });
  params.user = readableBy.userId ?? null;
  return `(${d}visibility = 'public' OR ${d}owner = @user${principals.length ? ` OR ${d}id IN (SELECT document_id FROM grants WHERE principal IN (${principals.join(', ')}))` : ''})`;
}
