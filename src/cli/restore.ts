import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Command } from 'commander';
import { reindexStore } from './reindex.js';
import { BackupFormatError, StoreStateError } from '../store/backup-format.js';
import { restoreStore } from '../store/backup.js';
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
 * `oscal-depot restore FILE`: a backup into a store without documents, of either backend. The
 * restore is one transaction: refused or failed, it leaves the target as it was.
 */
export function restoreCommand(): Command {
  return new Command('restore')
    .description('restore a backup (of either backend) into an empty store; refused when the store holds any document')
    .argument('<file>', 'the backup file ("-" for standard input)')
    .addOption(dataOption())
    .addOption(databaseOption())
    .action(async (file: string, opts: StoreOptions) => {
      const input: Readable = file === '-' ? process.stdin : createReadStream(file);
      if (file !== '-') {
        // A missing file is reported before any store is opened.
        await new Promise<void>((resolve, reject) => {
          input.once('open', () => resolve());
          input.once('error', reject);
        });
      }
      try {
        const { counts, replaced, header } = await restoreStore(storeConfigOf(opts), input);
        const dropped = Object.entries(replaced)
          .map(([table, n]) => `${n} ${table}`)
          .join(', ');
        if (dropped)
          process.stderr.write(
            `the store had no document; its other rows were replaced by the backup's (${dropped})\n`,
          );
        process.stderr.write(
          `restored ${describeCounts(counts)} from a ${header.source} backup of ${header.createdAt} into ${storeName(opts)}\n`,
        );
        // A backup carries no search index: it is made again from the documents restored.
        process.stderr.write(`${await reindexStore(storeConfigOf(opts))}\n`);
      } catch (e) {
        if (e instanceof StoreStateError || isDatabaseError(e))
          throw new UsageError(`cannot restore into ${storeName(opts)}: ${e.message}`);
        if (e instanceof BackupFormatError)
          throw new UsageError(
            `cannot restore ${file === '-' ? 'standard input' : file}: ${e.message}; nothing was changed`,
          );
        throw e;
      } finally {
        if (file !== '-') input.destroy();
      }
    });
}
