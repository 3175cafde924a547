/**
 * Backup and restore of a whole store, whichever backend it is on (the format: backup-format.ts;
 * each backend's reading and writing: sqlite/sqlite-backup.ts, postgres/postgres-backup.ts).
 */
import type { Readable, Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import {
  BackupFormatError,
  BackupWriter,
  ByteReader,
  readHeader,
  type BackupHeader,
  type RestoreOutcome,
} from './backup-format.js';
import { sqlitePath, type StoreConfig } from './index.js';
import { backupPostgres, restorePostgres } from './postgres/postgres-backup.js';
import { backupSqlite, restoreSqlite } from './sqlite/sqlite-backup.js';

/** Writes the store's backup to `out`; the rows written, by table. */
export async function backupStore(config: StoreConfig, out: Writable): Promise<Record<string, number>> {
  const writer = new BackupWriter(out);
  try {
    if (config.databaseUrl) await backupPostgres(config.databaseUrl, writer);
    else await backupSqlite(sqlitePath(config), writer);
    await writer.finish();
    return writer.counts;
  } catch (e) {
    writer.abort(e as Error);
    throw e;
  }
}

const isZlibError = (e: unknown) => {
  const code = (e as { code?: unknown } | undefined)?.code;
  return e instanceof Error && typeof code === 'string' && code.startsWith('Z_');
};

/** The decompressed chunks of `input`, with gzip's complaints said as what they mean here. */
async function* decompressed(input: Readable): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  input.on('error', (e) => gunzip.destroy(e));
  input.pipe(gunzip);
  let started = false;
  try {
    for await (const chunk of gunzip) {
      started = true;
      yield chunk as Buffer;
    }
  } catch (e) {
    if (!isZlibError(e)) throw e;
    throw new BackupFormatError(
      started
        ? `the backup is damaged or truncated (${(e as Error).message})`
        : 'this is not an oscal-depot backup (it is not gzip-compressed)',
    );
  } finally {
    gunzip.destroy();
    input.unpipe(gunzip);
  }
}

/**
 * Restores the backup read from `input` into the store of `config`, which must hold no document.
 * The file's first record is checked before the target is touched.
 */
export async function restoreStore(
  config: StoreConfig,
  input: Readable,
): Promise<RestoreOutcome & { header: BackupHeader }> {
  const reader = new ByteReader(decompressed(input));
  try {
    const header = await readHeader(reader);
    const outcome = config.databaseUrl
      ? await restorePostgres(config.databaseUrl, header, reader)
      : await restoreSqlite(sqlitePath(config), header, reader);
    return { ...outcome, header };
  } finally {
    await reader.close();
  }
}
