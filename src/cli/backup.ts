import { createWriteStream } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Command } from 'commander';
import { BackupFormatError, StoreStateError } from '../store/backup-format.js';
import { backupStore } from '../store/backup.js';
import { UsageError } from './failures.js';
import {
  databaseOption,
  dataOption,
  describeCounts,
  isDatabaseError,
  storeConfigOf,
  storeName,
  type StoreOptions,
} from './store-options.js';

/**
 * `oscal-depot backup FILE`: the whole store in one file, consistent while servers write to it.
 * The file is written aside (readable by this user only), flushed to disk and then renamed into
 * place, so FILE is never a partial backup: an earlier backup there stays until the new one is whole.
 */
export function backupCommand(): Command {
  return new Command('backup')
    .description(
      'write the whole store (documents, revisions, attachments, snapshots, access, tokens, audit log, constraint sets, jobs) to one file; safe while the server runs',
    )
    .argument('<file>', 'the backup file to write (gzip-compressed JSON lines; "-" for standard output)')
    .addOption(dataOption())
    .addOption(databaseOption())
    .action(async (file: string, opts: StoreOptions) => {
      const config = storeConfigOf(opts);
      let counts: Record<string, number>;
      try {
        counts = file === '-' ? await toStdout(config) : await toFile(config, file);
      } catch (e) {
        if (e instanceof StoreStateError || e instanceof BackupFormatError || isDatabaseError(e))
          throw new UsageError(`cannot back up ${storeName(opts)}: ${e.message}`);
        throw e;
      }
      process.stderr.write(`backed up ${describeCounts(counts)}${file === '-' ? '' : ` to ${file}`}\n`);
    });
}

async function toStdout(config: ReturnType<typeof storeConfigOf>): Promise<Record<string, number>> {
  if (process.stdout.isTTY) throw new UsageError('standard output is a terminal: give a file name, or redirect it');
  return backupStore(config, process.stdout);
}

async function toFile(config: ReturnType<typeof storeConfigOf>, file: string): Promise<Record<string, number>> {
  const draft = join(dirname(file), `.${basename(file)}.partial-${process.pid}`);
  const out = createWriteStream(draft, { flags: 'wx', mode: 0o600 });
  // Whatever happens, the draft is removed only once the stream has let go of it.
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    out.once('open', () => resolve());
    out.once('error', reject);
  });
  let done = false;
  try {
    const counts = await backupStore(config, out);
    await closed;
    await syncFile(draft);
    await rename(draft, file);
    done = true;
    await syncFile(dirname(file)).catch(() => {
      // not possible on every platform; the file itself is on disk
    });
    return counts;
  } finally {
    if (!done) {
      out.destroy();
      await closed;
      await unlink(draft).catch(() => {});
    }
  }
}

/** Flushes a file (or, for the rename, its directory) to disk. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
