import { OscalError } from '../oscal/errors.js';
import { openStore, type StoreConfig } from '../store/index.js';
import type { Store } from '../store/types.js';
import { isSystemError } from './io.js';

/** A failure the person running the command can fix: it is reported as one line, without a stack. */
export class UsageError extends Error {}

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

/**
 * What a command that failed prints. Usage errors, the system's (a missing file, a refused
 * connection) and the engine's are one line; anything else is a bug, whose stack is worth having.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof UsageError || error instanceof OscalError || isSystemError(error)) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
