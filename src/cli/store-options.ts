import { openStore, type StoreConfig } from '../store/index.js';
import type { Store } from '../store/types.js';
import { UsageError } from './failures.js';
import { commanderOption, type ServeOptions, STORE_OPTIONS } from './serve-options.js';

/** The options every command that opens the store finds it by: the SQLite file in --data, or PostgreSQL. */
export type StoreOptions = Pick<ServeOptions, 'data' | 'databaseUrl'>;

export const dataOption = () =>
  commanderOption({
    ...STORE_OPTIONS.data,
    help: 'data directory (the SQLite store is its oscal-depot.sqlite)',
  });
export const databaseOption = () =>
  commanderOption({
    ...STORE_OPTIONS.databaseUrl,
    help: 'PostgreSQL URL (instead of the SQLite file in --data)',
  });

export const storeConfigOf = (opts: StoreOptions): StoreConfig => ({
  dataDir: opts.data,
  ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
});

/** The store, or a UsageError saying why it cannot be opened (never the database URL, which may hold a password). */
export async function openStoreFor(config: StoreConfig): Promise<Store> {
  try {
    return await openStore(config);
  } catch (e) {
    throw new UsageError(
      `cannot open the store ${config.databaseUrl ? 'in PostgreSQL' : `in ${config.dataDir}`}: ${(e as Error).message}`,
    );
  }
}

/** Where the store is, for messages (never the database URL, which may hold a password). */
export const storeName = (opts: StoreOptions) =>
  opts.databaseUrl ? 'the PostgreSQL store' : `the store in ${opts.data}`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A line saying what a backup holds, from its row counts. */
export function describeCounts(counts: Record<string, number>): string {
  const n = (table: string) => counts[table] ?? 0;
  const documents =
    `${plural(n('documents'), 'document')} (${plural(n('revisions'), 'revision')}, ` +
    `${plural(n('attachments'), 'attachment')}, ${plural(n('snapshots'), 'snapshot')})`;
  return (
    `${documents}, ${plural(n('users'), 'user')}, ${plural(n('tokens'), 'token')}, ` +
    `${plural(n('audit_log'), 'audit entry', 'audit entries')}, ${plural(n('constraint_sets'), 'constraint set')}, ` +
    `${plural(n('jobs'), 'job')}, ${plural(n('blobs'), 'blob')}`
  );
}

/** An error of either database (a file that is not SQLite, a refused login): one line, not a stack. */
export function isDatabaseError(error: unknown): error is Error {
  return error instanceof Error && (error.name === 'SqliteError' || error.name === 'PostgresError');
}
