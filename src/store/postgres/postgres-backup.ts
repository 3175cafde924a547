/**
 * Backup and restore of the PostgreSQL store (format: ../backup-format.ts).
 *
 * Backup reads every table in one REPEATABLE READ, READ ONLY transaction: every statement of it
 * sees the one snapshot taken at its first, so the rows are those of the committed transactions
 * at that instant, whole, whatever the servers on the database write meanwhile (they use READ
 * COMMITTED and row locks; a read-only snapshot reader neither blocks them nor is blocked). The
 * store keeps everything, blobs included, in its tables.
 */
import postgres from 'postgres';
import {
  BackupFormatError,
  LATEST_SCHEMA,
  SEQUENCES,
  StoreStateError,
  TABLES,
  checkColumns,
  quoted,
  readRecords,
  refusal,
  safeNumber,
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
import { PostgresStore } from './postgres-store.js';

type Sql = postgres.Sql | postgres.TransactionSql;

/** The store's own migration lock (postgres-store.ts): a server starting meanwhile waits for the restore. */
const MIGRATION_LOCK = 0x05ca1d;
/** Rows per round trip while reading; blobs (up to an attachment's size each) one at a time. */
const BATCH = 256;
/** Rows per INSERT while restoring, and the bytes one INSERT may carry. */
const INSERT_ROWS = 200;
const INSERT_BYTES = 16 * 1024 * 1024;

const now = () => new Date().toISOString();

function connect(url: string): postgres.Sql {
  return postgres(url, { max: 1, onnotice: () => {}, transform: { undefined: null } });
}

async function tableNames(sql: Sql): Promise<string[]> {
  const rows =
    await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
  return rows.map((r) => r.table_name as string);
}

async function columnsOf(sql: Sql, table: string): Promise<{ name: string; type: string }[]> {
  const rows =
    await sql`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`;
  return rows.map((r) => ({ name: r.column_name as string, type: r.data_type as string }));
}

async function schemaVersion(sql: Sql): Promise<number | undefined> {
  const [exists] = await sql`SELECT to_regclass('schema_migrations') IS NOT NULL AS yes`;
  if (!exists!.yes) return undefined;
  const [row] = await sql`SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations`;
  return Number(row!.v);
}

/** The last number a serial column's sequence gave (0: none yet); undefined when the column has no sequence. */
async function lastGiven(sql: Sql, table: string, column: string): Promise<number | undefined> {
  const [row] = await sql`SELECT pg_get_serial_sequence(${table}, ${column}) AS name`;
  const name = row?.name as string | null | undefined;
  if (!name) return undefined;
  const [state] = await sql.unsafe(`SELECT last_value, is_called FROM ${name}`);
  return safeNumber(state!.is_called ? (state!.last_value as string) : Number(state!.last_value) - 1, name);
}

export async function backupPostgres(url: string, writer: BackupWriter): Promise<void> {
  const sql = connect(url);
  try {
    await sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
      const version = await schemaVersion(tx);
      if (version === undefined) throw new StoreStateError('the database holds no oscal-depot store');
      if (version > LATEST_SCHEMA)
        throw new StoreStateError(
          `the store has schema ${version}, newer than this oscal-depot's ${LATEST_SCHEMA}: back it up with the version that serves it`,
        );
      const names = await tableNames(tx);
      await writer.header({ schemaVersion: version, source: 'postgres' });
      for (const table of tablesToCopy(names)) {
        const columns = await columnsOf(tx, table);
        const header: TableHeader = {
          table,
          columns: columns.map((c) => c.name),
          binary: columns.filter((c) => c.type === 'bytea').map((c) => c.name),
        };
        // bigint arrives as text (it may not fit a JavaScript number); the backup carries numbers.
        const bigints = columns.flatMap((c, i) => (c.type === 'bigint' ? [i] : []));
        await writer.table(header);
        const query = tx.unsafe(`SELECT ${header.columns.map(quoted).join(', ')} FROM ${quoted(table)}`).values();
        for await (const rows of query.cursor(header.binary.length ? 1 : BATCH)) {
          for (const row of rows as unknown as Value[][]) {
            for (const i of bigints)
              if (row[i] !== null) row[i] = safeNumber(row[i] as string, `${table}.${header.columns[i]}`);
            await writer.row(row);
          }
        }
        await writer.endTable();
      }
      const sequences: Record<string, number> = {};
      for (const s of SEQUENCES) {
        if (!names.includes(s.table) || !(await columnsOf(tx, s.table)).some((c) => c.name === s.column)) continue;
        const last = await lastGiven(tx, s.table, s.column);
        if (last !== undefined) sequences[sequenceName(s)] = last;
      }
      await writer.sequences(sequences);
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Restores into the database at `url`: a new store (the schema is made as the backup's, then
 * migrated as a server would), or one without any document, whose other rows the backup's
 * replace. One transaction, holding every table of the store exclusively: on any failure the
 * database is as it was.
 */
export async function restorePostgres(url: string, header: BackupHeader, reader: ByteReader): Promise<RestoreOutcome> {
  const sql = connect(url);
  try {
    const version = await schemaVersion(sql);
    const fresh = version === undefined;
    if (!fresh) {
      const [{ n }] = (await sql`SELECT COUNT(*) AS n FROM documents`) as unknown as [{ n: string }];
      if (Number(n) > 0) throw refusal(Number(n));
      if (version > LATEST_SCHEMA)
        throw new StoreStateError(
          `the target store has schema ${version}, newer than this oscal-depot's ${LATEST_SCHEMA}`,
        );
      if (header.schemaVersion < LATEST_SCHEMA) {
        throw new StoreStateError(
          `the backup holds schema ${header.schemaVersion}, older than this oscal-depot's ${LATEST_SCHEMA}: it can be restored only into a new store (an empty database)`,
        );
      }
      // Brought to the current schema first, as a server starting on it would.
      if (version < LATEST_SCHEMA) await (await PostgresStore.open(url, { max: 1 })).close();
    }
    const outcome = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      const replaced: Record<string, number> = {};
      if (fresh) {
        if ((await schemaVersion(tx)) !== undefined)
          throw new StoreStateError('the target store was created while restoring into it; nothing was changed');
        await tx`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`;
        for (const m of MIGRATIONS.filter((m) => m.version <= header.schemaVersion)) {
          await tx.unsafe(m.postgres);
          await tx`INSERT INTO schema_migrations (version, description, applied_at) VALUES (${m.version}, ${m.description}, ${now()})`;
        }
      } else {
        const present = new Set(await tableNames(tx));
        const tables = TABLES.filter((t) => present.has(t));
        // Servers on the database wait until the restore commits (or rolls back).
        await tx.unsafe(`LOCK TABLE ${tables.map(quoted).join(', ')} IN ACCESS EXCLUSIVE MODE`);
        const [{ n }] = (await tx`SELECT COUNT(*) AS n FROM documents`) as unknown as [{ n: string }];
        if (Number(n) > 0) throw refusal(Number(n));
        for (const table of [...tables].reverse()) {
          const { count } = await tx.unsafe(`DELETE FROM ${quoted(table)}`);
          if (count > 0) replaced[table] = count;
        }
      }
      const sequences: Record<string, number> = {};
      const counts = await readRecords(reader, postgresTarget(tx, sequences));
      await continueSequences(tx, sequences);
      // Work a process was doing when the backup was taken is done again.
      await tx`UPDATE jobs SET status = 'queued', claimed_by = NULL WHERE status = 'running'`;
      return { replaced, counts };
    });
    if (header.schemaVersion < LATEST_SCHEMA) await (await PostgresStore.open(url, { max: 1 })).close();
    return outcome;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function postgresTarget(tx: postgres.TransactionSql, sequences: Record<string, number>): RestoreTarget {
  let table: TableHeader | undefined;
  let booleans: boolean[] = [];
  let batch: Value[][] = [];
  let batchBytes = 0;

  async function flush(): Promise<void> {
    if (!table || batch.length === 0) return;
    const width = table.columns.length;
    const rows = batch.map((_, r) => `(${table!.columns.map((_, c) => `$${r * width + c + 1}`).join(', ')})`);
    await tx.unsafe(
      `INSERT INTO ${quoted(table.table)} (${table.columns.map(quoted).join(', ')}) VALUES ${rows.join(', ')}`,
      batch.flat() as postgres.ParameterOrJSON<never>[],
      { prepare: false },
    );
    batch = [];
    batchBytes = 0;
  }

  return {
    async table(header: TableHeader) {
      const columns = await columnsOf(tx, header.table);
      if (columns.length === 0)
        throw new BackupFormatError(`the backup holds table ${header.table}, which the store does not have`);
      checkColumns(
        header.table,
        header.columns,
        columns.map((c) => c.name),
      );
      const types = new Map(columns.map((c) => [c.name, c.type]));
      booleans = header.columns.map((c) => types.get(c) === 'boolean');
      table = header;
    },
    async row(values: Value[]) {
      // SQLite keeps booleans as 0 and 1.
      for (let i = 0; i < values.length; i++)
        if (booleans[i] && typeof values[i] === 'number') values[i] = values[i] !== 0;
      batch.push(values);
      for (const v of values) if (Buffer.isBuffer(v)) batchBytes += v.length;
      if (batch.length >= INSERT_ROWS || batchBytes >= INSERT_BYTES) await flush();
    },
    async endTable() {
      await flush();
      table = undefined;
    },
    async sequences(values: Record<string, number>) {
      Object.assign(sequences, values);
    },
  };
}

/** Each serial continues after the last number the source gave, and never below a number kept. */
async function continueSequences(tx: postgres.TransactionSql, given: Record<string, number>): Promise<void> {
  for (const s of SEQUENCES) {
    if (!(await columnsOf(tx, s.table)).some((c) => c.name === s.column)) continue;
    const [row] = await tx`SELECT pg_get_serial_sequence(${s.table}, ${s.column}) AS name`;
    const name = row?.name as string | null | undefined;
    if (!name) continue;
    const [kept] = await tx.unsafe(`SELECT COALESCE(MAX(${quoted(s.column)}), 0) AS n FROM ${quoted(s.table)}`);
    const last = Math.max(given[sequenceName(s)] ?? 0, Number(kept!.n));
    await tx`SELECT setval(${name}::regclass, ${last > 0 ? last : 1}, ${last > 0})`;
  }
}
