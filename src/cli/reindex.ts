import { Command } from 'commander';
import { SearchService } from '../service/search.js';
import type { StoreConfig } from '../store/index.js';
import {
  databaseOption,
  dataOption,
  openStoreFor,
  storeConfigOf,
  storeName,
  type StoreOptions,
} from './store-options.js';

/** Indexes every document of a store for search; the line it says when done. */
export async function reindexStore(config: StoreConfig): Promise<string> {
  const store = await openStoreFor(config);
  try {
    let indexed = 0;
    let skipped = 0;
    await new SearchService(store).reindexAll((done) => (done ? indexed++ : skipped++));
    const meanwhile = skipped ? `; ${skipped} changed or went meanwhile and were left to their own writes` : '';
    return `indexed ${indexed} document${indexed === 1 ? '' : 's'} for search${meanwhile}`;
  } finally {
    await store.close();
  }
}

export function reindexCommand(): Command {
  return new Command('reindex')
    .description(
      'index every stored document again for search (a store made before search existed, or restored from a backup); ' +
        'safe while servers use the store: a document written meanwhile keeps the index its write gave it',
    )
    .addOption(dataOption())
    .addOption(databaseOption())
    .action(async (opts: StoreOptions) => {
      process.stderr.write(`${await reindexStore(storeConfigOf(opts))} in ${storeName(opts)}\n`);
    });
}
