import { join } from 'node:path';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

/**
 * Where the store lives: a PostgreSQL URL when given, else a SQLite file in the data directory.
 * Worker threads open their own connection from the same description.
 */
export interface StoreConfig {
  dataDir: string;
  databaseUrl?: string;
}

export function sqlitePath(config: StoreConfig): string {
  return join(config.dataDir, 'oscal-depot.sqlite');
}

export async function openStore(config: StoreConfig, options: { connections?: number } = {}): Promise<Store> {
  if (config.databaseUrl)
    return PostgresStore.open(config.databaseUrl, { ...(options.connections ? { max: options.connections } : {}) });
  return new SqliteStore(sqlitePath(config));
}
