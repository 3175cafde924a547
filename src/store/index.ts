import { join } from 'node:path';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

/** Where the store lives; worker threads open their own connection from the same description. */
export interface StoreConfig {
  dataDir: string;
}

export function sqlitePath(config: StoreConfig): string {
  return join(config.dataDir, 'oscal-depot.sqlite');
}

export function openStore(config: StoreConfig): Store {
  return new SqliteStore(sqlitePath(config));
}
