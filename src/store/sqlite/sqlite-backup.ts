/**
 * Backup and restore of the SQLite store (format: ../backup-format.ts).
 *
 * Backup reads every table in one read transaction of its own connection: in WAL mode that is
 * one snapshot of the file, taken at the first read, which the server's writers (any number of
 * them, in any process) neither disturb nor wait for. Everything the store keeps is in the file
 * (blobs included), so the snapshot is the whole store.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  BackupFormatError,
  LATEST_SCHEMA,
  StoreStateError,
  refusal,
  SEQUENCES,
  TABLES,
  checkColumns,
  quoted,
  readRecords,
  sequenceName,
  tablesToCopy,
  type BackupHeader,
  type BackupWriter,
  type ByteReader,
  type RestoreOutcome,
  type RestoreTarget,
  type TableHeader,
  type Value,
} from '../backup-format.js';
import { MIGRATIONS } from '../migrations.js';
import { SqliteStore } from './sqlite-store.js';

const now = () => new Date().toISOString();

function tableNames(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
}

function columnsOf(db: Database.Database, table: string): { name: string; type: string }[] {
  return db.prepare(`PRAGMA table_info(${quoted(table)})`).all() as { name: string; type: string }[];
}

function schemaVersion(db: Database.Database): number | undefined {
  if (!tableNames(db).includes('schema_migrations')) return undefined;
  return (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
}

function lastGiven(db: Database.Database, name: string): number {
  if (!tableNames(db).includes('sqlite_sequence')) return 0;
  return (db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(name) as number | undefined) ?? 0;
}

/** The sequence behind each of SEQUENCES in this schema (revision record ids come from their own table). */
const SEQUENCE_TABLE: Record<string, string> = { 'revisions.record_id': 'revision_ids', 'audit_log.id': 'audit_log' };

export async function backupSqlite(path: string, writer: BackupWriter): Promise<void> {
  if (!existsSync(path)) throw new StoreStateError(`there is no store at ${path}`);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    // Deferred: the snapshot is fixed by the first read below and kept until the transaction ends.
    db.exec('BEGIN');
    try {
      const version = schemaVersion(db);
      if (version === undefined) throw new StoreStateError(`${path} is not an oscal-depot store`);
      if (version > LATEST_SCHEMA)
        throw new StoreStateError(
          `the store has schema ${version}, newer than this oscal-depot's ${LATEST_SCHEMA}: back it up with the version that serves it`,
        );
      const names = tableNames(db);
      await writer.header({ schemaVersion: version, source: 'sqlite' });
      for (const table of tablesToCopy(names)) {
        const columns = columnsOf(db, table);
        const header: TableHeader = {
          table,
          columns: columns.map((c) => c.name),
          binary: columns.filter((c) => c.type.toUpperCase() === 'BLOB').map((c) => c.name),
        };
        await writer.table(header);
        const rows = db.prepare(`SELECT ${header.columns.map(quoted).join(', ')} FROM ${quoted(table)}`).raw(true);
        for (const row of rows.iterate()) await writer.row(row as Value[]);
        await writer.endTable();
      }
      const sequences: Record<string, number> = {};
      for (const s of SEQUENCES) {
        const name = sequenceName(s);
        if (names.includes(s.table) && columnsOf(db, s.table).some((c) => c.name === s.column))
          sequences[name] = lastGiven(db, SEQUENCE_TABLE[name]!);
      }
      await writer.sequences(sequences);
    } finally {
      // Only reads were made: ending the transaction either way releases the snapshot.
      if (db.inTransaction) db.exec('ROLLBACK');
    }
  } finally {
    db.close();
  }
}

/** The documents a store has, without opening (and so migrating or creating) it; undefined when there is no store. */
function documentCount(db: Database.Database): number | undefined {
  if (!tableNames(db).includes('documents')) return undefined;
  return (db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n;
}

/**
 * Restores into the store at `path`: a new one (the schema is made as the backup's, then migrated
 * as a server would), or one without any document, whose other rows (a first admin token, its
 * audit entry) the backup's replace. One transaction: on any failure the target is as it was.
 */
export async function restoreSqlite(path: string, header: BackupHeader, reader: ByteReader): Promise<RestoreOutcome> {
  let fresh = true;
  if (existsSync(path)) {
    const probe = new Database(path, { fileMustExist: true });
    try {
      probe.pragma('busy_timeout = 10000');
      const documents = documentCount(probe);
      if (documents) throw refusal(documents);
      const version = schemaVersion(probe);
      if (version !== undefined || documents !== undefined) {
        fresh = false;
        if ((version ?? 0) > LATEST_SCHEMA)
          throw new StoreStateError(
            `the target store has schema ${version}, newer than this oscal-depot's ${LATEST_SCHEMA}`,
          );
      }
    } finally {
      probe.close();
    }
  }
  if (!fresh && header.schemaVersion < LATEST_SCHEMA) {
    throw new StoreStateError(
      `the backup holds schema ${header.schemaVersion}, older than this oscal-depot's ${LATEST_SCHEMA}: it can be restored only into a new store (a new data directory)`,
    );
  }
  // An existing store is brought to the current schema first, as a server starting on it would.
  if (!fresh) await new SqliteStore(path).close();
  else mkdirSync(dirname(path), { recursive: true });

  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 10000');
    db.exec('BEGIN IMMEDIATE');
    try {
      const replaced: Record<string, number> = {};
      if (fresh) {
        if (schemaVersion(db) !== undefined)
          throw new StoreStateError('the target store was created while restoring into it; nothing was changed');
        db.exec(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)',
        );
        for (const m of MIGRATIONS.filter((m) => m.version <= header.schemaVersion)) {
          db.exec(m.sqlite);
          db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(
            m.version,
            m.description,
            now(),
          );
        }
      } else {
        const documents = documentCount(db);
        if (documents) throw refusal(documents);
        const present = tableNames(db);
        for (const table of [...TABLES].reverse()) {
          if (!present.includes(table)) continue;
          const n = db.prepare(`DELETE FROM ${quoted(table)}`).run().changes;
          if (n > 0) replaced[table] = n;
        }
        if (present.includes('revision_ids')) db.exec('DELETE FROM revision_ids');
      }
      const sequences: Record<string, number> = {};
      const counts = await readRecords(reader, sqliteTarget(db, sequences));
      continueSequences(db, sequences);
      // Work a process was doing when the backup was taken is done again.
      db.exec("UPDATE jobs SET status = 'queued', claimed_by = NULL WHERE status = 'running'");
      db.exec('COMMIT');
      if (header.schemaVersion < LATEST_SCHEMA) await new SqliteStore(path).close();
      return { replaced, counts };
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw e;
    }
  } finally {
    if (db.open) db.close();
  }
}

function sqliteTarget(db: Database.Database, sequences: Record<string, number>): RestoreTarget {
  let insert: Database.Statement | undefined;
  return {
    async table(header: TableHeader) {
      const columns = columnsOf(db, header.table);
      if (columns.length === 0)
        throw new BackupFormatError(`the backup holds table ${header.table}, which the store does not have`);
      checkColumns(
        header.table,
        header.columns,
        columns.map((c) => c.name),
      );
      insert = db.prepare(
        `INSERT INTO ${quoted(header.table)} (${header.columns.map(quoted).join(', ')}) VALUES (${header.columns.map(() => '?').join(', ')})`,
      );
    },
    async row(values: Value[]) {
      insert!.run(values.map((v) => (v === true ? 1 : v === false ? 0 : v)));
    },
    async endTable() {
      insert = undefined;
    },
    async sequences(values: Record<string, number>) {
      Object.assign(sequences, values);
    },
  };
}

/** Each counter goes on after the last number the source gave, and never below a number kept. */
function continueSequences(db: Database.Database, given: Record<string, number>): void {
  const tables = tableNames(db);
  if (tables.includes('revision_ids')) {
    const kept = db.prepare('SELECT COALESCE(MAX(record_id), 0) FROM revisions').pluck().get() as number;
    const last = Math.max(given['revisions.record_id'] ?? 0, kept);
    // AUTOINCREMENT continues after the largest id ever inserted.
    if (last > 0) db.prepare('INSERT INTO revision_ids (id) VALUES (?)').run(last);
  }
  const kept = db.prepare('SELECT COALESCE(MAX(id), 0) FROM audit_log').pluck().get() as number;
  const last = Math.max(given['audit_log.id'] ?? 0, kept);
  if (last > lastGiven(db, 'audit_log')) {
    if (db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'audit_log'").run(last).changes === 0) {
      db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('audit_log', ?)").run(last);
    }
  }
}
