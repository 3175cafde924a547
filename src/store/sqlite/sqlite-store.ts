import { MIGRATIONS } from '../migrations.js';
import type { Store, StoreOperations } from '../types.js';
import { SqliteConnection, now } from './connection.js';
import { sqliteAccess } from './access.js';
import { sqliteAliases } from './aliases.js';
import { sqliteAttachments } from './attachments.js';
import { sqliteAudit } from './audit.js';
import { sqliteBlobs } from './blobs.js';
import { sqliteConstraintSets } from './constraint-sets.js';
import { sqliteDocuments } from './documents.js';
import { sqliteJobs } from './jobs.js';
import { sqliteRenditions } from './renditions.js';
import { sqliteRevisions } from './revisions.js';
import { sqliteSearch } from './search.js';
import { sqliteSnapshots } from './snapshots.js';
import { sqliteTokens } from './tokens.js';

function migrate(c: SqliteConnection): void {
  c.db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = (c.stmt('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  for (const m of MIGRATIONS.filter((m) => m.version > applied)) {
    c.transaction(() => {
      c.db.exec(m.sqlite);
      c.stmt('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.description,
        now(),
      );
    });
  }
}

// The operations come from the parts (one file each, by concern), copied onto the instance in the
// constructor; this declaration gives the class their types, and `operations` there checks that
// the parts leave none out.
export interface SqliteStore extends StoreOperations {}

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, so an acknowledged
 * write survives a crash or power loss; every operation is one transaction.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly connection: SqliteConnection;

  constructor(path: string) {
    const c = new SqliteConnection(path);
    this.connection = c;
    migrate(c);
    const operations: StoreOperations = {
      ...sqliteDocuments(c),
      ...sqliteRevisions(c),
      ...sqliteRenditions(c),
      ...sqliteAliases(c),
      ...sqliteBlobs(c),
      ...sqliteAttachments(c),
      ...sqliteSnapshots(c),
      ...sqliteAccess(c),
      ...sqliteJobs(c),
      ...sqliteTokens(c),
      ...sqliteAudit(c),
      ...sqliteConstraintSets(c),
      ...sqliteSearch(c),
    };
    Object.assign(this, operations);
  }

  async close(): Promise<void> {
    this.connection.db.close();
  }

  async ping(): Promise<boolean> {
    return (this.connection.stmt('SELECT 1 AS ok').get() as { ok: number }).ok === 1;
  }
}
