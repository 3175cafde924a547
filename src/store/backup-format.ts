/**
 * The backup file of a whole store, the same for both backends (docs/backup.md):
 *
 *   file    = gzip( record* )
 *   record  = one line of JSON (UTF-8, ending in "\n"), then, for a row with byte columns, the raw
 *             bytes of each non-null byte column in column order, with nothing between them.
 *
 * The records, in order:
 *   {"format":"oscal-depot-backup","formatVersion":1,"schemaVersion":7,"source":"sqlite","createdAt":"…"}
 *   per table, in the order a restore inserts them (parents before the rows that refer to them):
 *     {"table":"blobs","columns":["hash","size","gzip","br","plain"],"binary":["gzip","br"]}
 *     ["<hash>",1234,1000,null,0]       a row: one value per column; a byte column holds its length
 *     …                                 (or null), and that many raw bytes follow the line
 *     {"end":"blobs","rows":123}
 *   {"sequences":{"revisions.record_id":41,"audit_log.id":97}}   the last number each has given
 *   {"complete":true,"tables":{"users":3,…}}
 *
 * Values are as the source database gives them, except PostgreSQL's bigint, written as a number:
 * a restore converts to the target's column types (SQLite keeps booleans as 0/1, PostgreSQL as
 * true/false). Nothing but a record may follow the final one, and every count must match: a
 * truncated or altered file is refused as a whole. Records are read one at a time, so neither
 * side holds more than one row (one blob) in memory.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { MIGRATIONS } from './migrations.js';

export const BACKUP_FORMAT = 'oscal-depot-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** The schema this software writes: a backup of it restores into any store, an older one only into a new store. */
export const LATEST_SCHEMA = Math.max(...MIGRATIONS.map((m) => m.version));

/**
 * Every table holding the store's content, parents first. A table a store has that is neither
 * here nor in BOOKKEEPING stops a backup: it would otherwise be silently left out.
 */
export const TABLES = [
  'users',
  'tokens',
  'blobs',
  'documents',
  'revisions',
  'renditions',
  'grants',
  'jobs',
  'attachments',
  'snapshots',
  'document_aliases',
  'audit_log',
  'constraint_sets',
] as const;

/** Tables whose content the backup carries otherwise: the schema version in the header, the sequences in their record. */
export const BOOKKEEPING = new Set(['schema_migrations', 'revision_ids', 'sqlite_sequence']);

/**
 * Tables a backup leaves out because they are derived from the rest: the search index (with
 * FTS5's own tables on SQLite) is made again from the current revisions by `oscal-depot reindex`,
 * which a restored store needs before search finds anything. Carrying it would double the
 * backup's text and tie it to one backend's index format.
 */
export const DERIVED = new Set([
  'search_entries',
  'search_fts',
  'search_fts_data',
  'search_fts_idx',
  'search_fts_docsize',
  'search_fts_config',
]);

/** Numbers a store gives once only: a restore continues after the last one given, not after the largest one kept. */
export const SEQUENCES = [
  { table: 'revisions', column: 'record_id' },
  { table: 'audit_log', column: 'id' },
] as const;
export const sequenceName = (s: (typeof SEQUENCES)[number]) => `${s.table}.${s.column}`;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  schemaVersion: number;
  source: 'sqlite' | 'postgres';
  createdAt: string;
}

export interface TableHeader {
  table: string;
  columns: string[];
  /** The columns holding bytes. */
  binary: string[];
}

export type Value = string | number | boolean | null | Buffer;

/** A backup file that is not one, or is damaged, or that this software cannot restore. */
export class BackupFormatError extends Error {}

/** A refusal about the stores involved, which a person can act on (the target holds documents, …). */
export class StoreStateError extends Error {}

export function refusal(documents: number): StoreStateError {
  return new StoreStateError(
    `the target store holds ${documents} document${documents === 1 ? '' : 's'}: restore only into an empty store (a new data directory or an empty database); nothing was changed`,
  );
}

export interface RestoreOutcome {
  /** Rows the target store had (it had no document) that the backup's replaced, by table. */
  replaced: Record<string, number>;
  /** Rows restored, by table. */
  counts: Record<string, number>;
}

/** Tables of a store in backup order; refuses a store with a table nobody taught the backup about. */
export function tablesToCopy(present: Iterable<string>): string[] {
  const names = new Set(present);
  const unknown = [...names].filter(
    (n) => !BOOKKEEPING.has(n) && !DERIVED.has(n) && !(TABLES as readonly string[]).includes(n),
  );
  if (unknown.length)
    throw new BackupFormatError(
      `the store has tables this backup does not know (${unknown.join(', ')}): refusing to write a backup that leaves them out`,
    );
  return TABLES.filter((t) => names.has(t));
}

export const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

const FLUSH_BYTES = 256 * 1024;

/**
 * Writes the records to `out` through gzip, waiting whenever the stream is full, so a backup
 * proceeds at the pace of the disk (or pipe) it goes to.
 */
export class BackupWriter {
  // Blobs are compressed already: the fastest level costs little in size, and much less time.
  private readonly gzip = createGzip({ level: constants.Z_BEST_SPEED });
  private readonly finished: Promise<void>;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private current?: { header: TableHeader; binary: number[]; rows: number };
  readonly counts: Record<string, number> = {};
  private failure?: unknown;

  constructor(out: Writable) {
    this.finished = pipeline(this.gzip, out);
    // Seen when the next write is awaited; without a handler here it would be unhandled until then.
    this.finished.catch((e) => (this.failure ??= e));
  }

  private async put(chunk: Buffer, flush = false): Promise<void> {
    if (this.failure) throw this.failure;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (!flush && this.pendingBytes < FLUSH_BYTES) return;
    const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (!this.gzip.write(data)) await Promise.race([once(this.gzip, 'drain'), this.finished.then(() => undefined)]);
    if (this.failure) throw this.failure;
  }

  private line(value: unknown): Promise<void> {
    return this.put(Buffer.from(JSON.stringify(value) + '\n', 'utf8'));
  }

  header(header: Omit<BackupHeader, 'format' | 'formatVersion' | 'createdAt'>): Promise<void> {
    const full: BackupHeader = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      schemaVersion: header.schemaVersion,
      source: header.source,
      createdAt: new Date().toISOString(),
    };
    return this.line(full);
  }

  async table(header: TableHeader): Promise<void> {
    if (this.current) throw new Error(`table ${this.current.header.table} is not finished`);
    this.current = { header, binary: header.binary.map((c) => header.columns.indexOf(c)), rows: 0 };
    await this.line(header);
  }

  /** One row, its values in the table's column order. */
  async row(values: Value[]): Promise<void> {
    const current = this.current!;
    const line: unknown[] = values.slice();
    const bytes: Buffer[] = [];
    for (const i of current.binary) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      if (!Buffer.isBuffer(v))
        throw new Error(`${current.header.table}.${current.header.columns[i]} holds ${typeof v}, not bytes`);
      line[i] = v.length;
      bytes.push(v);
    }
    for (let i = 0; i < line.length; i++) {
      if (Buffer.isBuffer(line[i]))
        throw new Error(`${current.header.table}.${current.header.columns[i]} holds bytes but is not a byte column`);
      if (typeof line[i] === 'bigint')
        line[i] = safeNumber(line[i] as bigint, `${current.header.table}.${current.header.columns[i]}`);
    }
    await this.line(line);
    for (const b of bytes) await this.put(b, b.length >= FLUSH_BYTES);
    current.rows++;
  }

  async endTable(): Promise<void> {
    const current = this.current!;
    this.counts[current.header.table] = current.rows;
    this.current = undefined;
    await this.line({ end: current.header.table, rows: current.rows });
  }

  sequences(values: Record<string, number>): Promise<void> {
    return this.line({ sequences: values });
  }

  /** Writes the final record and waits until everything is out. */
  async finish(): Promise<void> {
    await this.line({ complete: true, tables: this.counts });
    await this.put(Buffer.alloc(0), true);
    this.gzip.end();
    await this.finished;
  }

  /** Stops: whatever was written is not a backup. */
  abort(error: Error): void {
    this.gzip.destroy(error);
  }
}

export function safeNumber(value: bigint | string | number, what: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`${what}: ${value} is beyond the integers a backup can carry`);
  return n;
}

const MAX_LINE = 512 * 1024 * 1024;

/** Lines and byte runs from a stream of chunks, without ever concatenating more than one record. */
export class ByteReader {
  private chunks: Buffer[] = [];
  private offset = 0;
  private buffered = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.source.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    if (chunk.length) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    return true;
  }

  private take(n: number): Buffer {
    const parts: Buffer[] = [];
    let left = n;
    while (left > 0) {
      const chunk = this.chunks[0]!;
      const available = chunk.length - this.offset;
      if (available <= left) {
        parts.push(chunk.subarray(this.offset));
        this.chunks.shift();
        this.offset = 0;
        left -= available;
      } else {
        parts.push(chunk.subarray(this.offset, this.offset + left));
        this.offset += left;
        left = 0;
      }
    }
    this.buffered -= n;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, n);
  }

  /** The next line without its "\n"; undefined at the end of the stream. */
  async line(): Promise<string | undefined> {
    let scanned = 0;
    for (;;) {
      let base = 0;
      for (let k = 0; k < this.chunks.length; k++) {
        const chunk = this.chunks[k]!;
        const start = k === 0 ? this.offset : 0;
        const length = chunk.length - start;
        if (base + length > scanned) {
          const at = chunk.indexOf(0x0a, start + Math.max(0, scanned - base));
          if (at >= 0) {
            const lineLength = base + (at - start);
            return this.take(lineLength + 1).toString('utf8', 0, lineLength);
          }
        }
        base += length;
      }
      scanned = base;
      if (scanned > MAX_LINE)
        throw new BackupFormatError('a record of the backup is longer than any this software writes');
      if (!(await this.pull())) {
        if (this.buffered === 0) return undefined;
        throw new BackupFormatError('the backup ends in the middle of a record: it is truncated');
      }
    }
  }

  async bytes(n: number): Promise<Buffer> {
    while (this.buffered < n) {
      if (!(await this.pull()))
        throw new BackupFormatError('the backup ends in the middle of a record: it is truncated');
    }
    return n === 0 ? Buffer.alloc(0) : this.take(n);
  }

  /** Stops reading the source (which is left where it is). */
  async close(): Promise<void> {
    this.ended = true;
    await this.source.return?.();
  }

  async atEnd(): Promise<boolean> {
    while (this.buffered === 0) {
      if (!(await this.pull())) return true;
    }
    return false;
  }
}

/** What a backend does with the records of a backup, inside its restore transaction. */
export interface RestoreTarget {
  /** A table begins: refuse if its columns are not the target's. */
  table(header: TableHeader): Promise<void>;
  row(values: Value[]): Promise<void>;
  endTable(): Promise<void>;
  sequences(values: Record<string, number>): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseRecord(text: string | undefined): unknown {
  if (text === undefined) throw new BackupFormatError('the backup ends before its final record: it is truncated');
  try {
    return JSON.parse(text);
  } catch {
    throw new BackupFormatError('the backup holds a record that is not JSON: it is damaged');
  }
}

/** Reads and checks the first record. */
export async function readHeader(reader: ByteReader): Promise<BackupHeader> {
  let first: unknown;
  try {
    first = parseRecord(await reader.line());
  } catch (e) {
    if (e instanceof BackupFormatError && !e.message.startsWith('this is not'))
      throw new BackupFormatError('this is not an oscal-depot backup');
    throw e;
  }
  if (!isObject(first) || first.format !== BACKUP_FORMAT)
    throw new BackupFormatError('this is not an oscal-depot backup');
  if (first.formatVersion !== BACKUP_FORMAT_VERSION)
    throw new BackupFormatError(
      `the backup is in format version ${String(first.formatVersion)}; this oscal-depot reads version ${BACKUP_FORMAT_VERSION}`,
    );
  if (!Number.isInteger(first.schemaVersion) || (first.schemaVersion as number) < 1)
    throw new BackupFormatError('the backup does not say which schema it holds');
  if ((first.schemaVersion as number) > LATEST_SCHEMA) {
    throw new BackupFormatError(
      `the backup holds schema ${String(first.schemaVersion)}, newer than this oscal-depot's ${LATEST_SCHEMA}: restore it with the version that made it, or a later one`,
    );
  }
  return first as unknown as BackupHeader;
}

/**
 * Hands every record after the header to `target`, checking the file's structure and counts as it
 * goes and that nothing follows the final record; throws (so the caller rolls back) otherwise.
 */
export async function readRecords(reader: ByteReader, target: RestoreTarget): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let lastTable = -1;
  for (;;) {
    const record = parseRecord(await reader.line());
    if (!isObject(record)) throw new BackupFormatError('the backup holds a row outside any table: it is damaged');
    if (typeof record.table === 'string') {
      const header = tableHeaderOf(record);
      const position = (TABLES as readonly string[]).indexOf(header.table);
      if (position <= lastTable)
        throw new BackupFormatError(
          `the backup holds table ${header.table} ${position < 0 ? 'which this oscal-depot does not know' : 'out of order'}`,
        );
      lastTable = position;
      await target.table(header);
      const binary = header.binary.map((c) => header.columns.indexOf(c));
      let rows = 0;
      for (;;) {
        const line = parseRecord(await reader.line());
        if (Array.isArray(line)) {
          if (line.length !== header.columns.length)
            throw new BackupFormatError(
              `a row of ${header.table} has ${line.length} values for ${header.columns.length} columns: the backup is damaged`,
            );
          const values = line as Value[];
          for (const i of binary) {
            const n = values[i];
            if (n === null) continue;
            if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
              throw new BackupFormatError(
                `a row of ${header.table} has no byte length for ${header.columns[i]}: the backup is damaged`,
              );
            values[i] = await reader.bytes(n);
          }
          await target.row(values);
          rows++;
        } else if (isObject(line) && line.end === header.table) {
          if (line.rows !== rows)
            throw new BackupFormatError(
              `table ${header.table} should have ${String(line.rows)} rows and has ${rows}: the backup is damaged`,
            );
          break;
        } else {
          throw new BackupFormatError(`table ${header.table} does not end as it should: the backup is damaged`);
        }
      }
      await target.endTable();
      counts[header.table] = rows;
    } else if (isObject(record.sequences)) {
      const values: Record<string, number> = {};
      for (const [name, n] of Object.entries(record.sequences)) {
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
          throw new BackupFormatError(`sequence ${name} is not a number: the backup is damaged`);
        values[name] = n;
      }
      await target.sequences(values);
    } else if (record.complete === true && isObject(record.tables)) {
      const expected = record.tables;
      const names = new Set([...Object.keys(expected), ...Object.keys(counts)]);
      for (const name of names) {
        if (expected[name] !== counts[name])
          throw new BackupFormatError(
            `table ${name} should have ${String(expected[name] ?? 0)} rows and has ${counts[name] ?? 0}: the backup is damaged`,
          );
      }
      if (!(await reader.atEnd()))
        throw new BackupFormatError('data follows the final record of the backup: it is damaged');
      return counts;
    } else {
      throw new BackupFormatError('the backup holds a record this oscal-depot does not know: it is damaged');
    }
  }
}

function tableHeaderOf(record: Record<string, unknown>): TableHeader {
  const strings = (v: unknown) =>
    Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : undefined;
  const columns = strings(record.columns);
  const binary = strings(record.binary);
  if (!columns || !binary || !binary.every((c) => columns.includes(c)) || new Set(columns).size !== columns.length) {
    throw new BackupFormatError(
      `the columns of table ${String(record.table)} are not described: the backup is damaged`,
    );
  }
  return { table: record.table as string, columns, binary };
}

/** The target's columns must be the backup's, in any order. */
export function checkColumns(table: string, backup: string[], target: string[]): void {
  const missing = backup.filter((c) => !target.includes(c));
  const extra = target.filter((c) => !backup.includes(c));
  if (missing.length || extra.length) {
    throw new BackupFormatError(
      `table ${table} of the backup does not match the store's (${[...missing.map((c) => `backup only: ${c}`), ...extra.map((c) => `store only: ${c}`)].join(', ')})`,
    );
  }
}
