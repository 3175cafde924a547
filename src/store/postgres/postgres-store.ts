import postgres from 'postgres';
import { MIGRATIONS } from '../migrations.js';
import type { Store, StoreOperations } from '../types.js';
import { postgresAccess } from './access.js';
import { postgresAliases } from './aliases.js';
import { postgresAttachments } from './attachments.js';
import { postgresAudit } from './audit.js';
import { postgresBlobs } from './blobs.js';
import { now } from './connection.js';
import { postgresConstraintSets } from './constraint-sets.js';
import { postgresDocuments } from './documents.js';
import { postgresJobs } from './jobs.js';
import { pendingEntries, type PendingEntries } from './pending-entries.js';
import { postgresRenditions } from './renditions.js';
import { postgresRevisions } from './revisions.js';
import { searchRowsThread } from './search-rows-thread.js';
import { postgresSearch } from './search.js';
import { postgresSnapshots } from './snapshots.js';
import { postgresTokens } from './tokens.js';

/** Any constant shared by every process that migrates this schema. */
const MIGRATION_LOCK = 0x05ca1d;

// The operations come from the parts (one file each, by concern), copied onto the instance in the
// constructor; this declaration gives the class their types, and `operations` there checks that
// the parts leave none out.
export interface PostgresStore extends StoreOperations {}

/**
 * The scale-out store: any number of server processes on one PostgreSQL database. Revision
 * numbers come from a row lock on the document, jobs are claimed with FOR UPDATE SKIP LOCKED,
 * and migrations run under an advisory lock, so processes starting together do not race.
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;

  private readonly pending: PendingEntries;

  private readonly rowsThread = searchRowsThread();

  private constructor(private readonly sql: postgres.Sql) {
    this.pending = pendingEntries(sql);
    const operations: StoreOperations = {
      ...postgresDocuments(sql, this.pending, this.rowsThread),
      ...postgresRevisions(sql),
      ...postgresRenditions(sql),
      ...postgresAliases(sql),
      ...postgresBlobs(sql),
      ...postgresAttachments(sql),
      ...postgresSnapshots(sql),
      ...postgresAccess(sql, this.pending),
      ...postgresJobs(sql),
      ...postgresTokens(sql),
      ...postgresAudit(sql),
      ...postgresConstraintSets(sql),
      ...postgresSearch(sql, this.pending, this.rowsThread),
    };
    Object.assign(this, operations);
  }

  static async open(url: string, options: { max?: number } = {}): Promise<PostgresStore> {
    const sql = postgres(url, { max: options.max ?? 10, onnotice: () => {}, transform: { undefined: null } });
    const store = new PostgresStore(sql);
    await store.migrate();
    return store;
  }

  private async migrate(): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`;
      const [{ v }] = (await tx`SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations`) as unknown as [
        { v: number },
      ];
      for (const m of MIGRATIONS.filter((m) => m.version > Number(v))) {
        await tx.unsafe(m.postgres);
        await tx`INSERT INTO schema_migrations (version, description, applied_at) VALUES (${m.version}, ${m.description}, ${now()})`;
      }
    });
  }

  async close(): Promise<void> {
    await this.pending.settle();
    await this.rowsThread.close();
    await this.sql.end({ timeout: 5 });
  }

  async ping(): Promise<boolean> {
    const [row] = await this.sql`SELECT 1 AS ok`;
    return row?.ok === 1;
  }
}
