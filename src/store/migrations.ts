/**
 * Versioned schema migrations, one list for every backend: each step gives the SQL per dialect.
 * A store applies, in order, the steps above the highest version it has recorded.
 */
import { SEARCH_WINDOW_FUNCTIONS } from './postgres/search-window-function.js';

export interface Migration {
  version: number;
  description: string;
  sqlite: string;
  postgres: string;
}

type Dialect = 'sqlite' | 'postgres';

/** The few column types the two dialects spell differently. */
const TYPES = {
  sqlite: {
    bytes: 'BLOB',
    bigint: 'INTEGER',
    bool: 'INTEGER NOT NULL DEFAULT 0',
    serial: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    sorted: '',
  },
  // Text that is sorted or paged on compares bytewise, as SQLite does.
  postgres: {
    bytes: 'BYTEA',
    bigint: 'BIGINT',
    bool: 'BOOLEAN NOT NULL DEFAULT FALSE',
    serial: 'BIGSERIAL PRIMARY KEY',
    sorted: ' COLLATE "C"',
  },
} as const;

function schemaV1(dialect: Dialect): string {
  const t = TYPES[dialect];
  return `
      CREATE TABLE blobs (
        hash TEXT PRIMARY KEY,
        size ${t.bigint} NOT NULL,
        gzip ${t.bytes} NOT NULL,
        br ${t.bytes}
      );
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        hash TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('admin', 'writer', 'reader')),
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT,
        last_used_at TEXT
      );
      CREATE TABLE documents (
        id TEXT${t.sorted} PRIMARY KEY,
        model TEXT NOT NULL,
        owner TEXT NOT NULL,
        visibility TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
        legal_hold ${t.bool},
        revision INTEGER NOT NULL,
        title TEXT NOT NULL,
        title_lower TEXT${t.sorted} NOT NULL,
        version TEXT NOT NULL,
        oscal_version TEXT NOT NULL,
        published TEXT,
        last_modified TEXT${t.sorted} NOT NULL,
        document_ids TEXT NOT NULL,
        markings TEXT NOT NULL,
        remarks TEXT,
        created_at TEXT${t.sorted} NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX documents_by_title ON documents (model, title_lower, id);
      CREATE INDEX documents_by_last_modified ON documents (model, last_modified, id);
      CREATE INDEX documents_by_created ON documents (model, created_at, id);
      CREATE INDEX documents_by_owner ON documents (owner);
      CREATE TABLE revisions (
        document_id TEXT${t.sorted} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        canonical_hash TEXT NOT NULL REFERENCES blobs(hash),
        original_hash TEXT NOT NULL REFERENCES blobs(hash),
        original_format TEXT NOT NULL,
        author TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (document_id, number)
      );
      CREATE INDEX revisions_by_canonical ON revisions (canonical_hash);
      CREATE INDEX revisions_by_original ON revisions (original_hash);
      CREATE TABLE renditions (
        document_id TEXT${t.sorted} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,
        format TEXT NOT NULL,
        blob_hash TEXT NOT NULL REFERENCES blobs(hash),
        PRIMARY KEY (document_id, revision, format)
      );
      CREATE INDEX renditions_by_blob ON renditions (blob_hash);
      CREATE TABLE grants (
        document_id TEXT${t.sorted} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        principal TEXT NOT NULL,
        permission TEXT NOT NULL CHECK (permission IN ('read', 'write')),
        PRIMARY KEY (document_id, principal)
      );
      CREATE INDEX grants_by_principal ON grants (principal, document_id);
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        document_id TEXT${t.sorted} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,
        format TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        error TEXT,
        claimed_by TEXT,
        created_at TEXT${t.sorted} NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX jobs_queue ON jobs (status, created_at);
      CREATE INDEX jobs_by_document ON jobs (document_id, revision, format);
      CREATE TABLE audit_log (
        id ${t.serial},
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        document_id TEXT,
        detail TEXT
      );
    `;
}

function schemaV5(dialect: Dialect): string {
  const t = TYPES[dialect];
  return `
      ALTER TABLE blobs ADD COLUMN plain ${t.bool};
      CREATE TABLE attachments (
        document_id TEXT${t.sorted} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        resource_uuid TEXT NOT NULL,
        blob_hash TEXT NOT NULL REFERENCES blobs(hash),
        media_type TEXT NOT NULL,
        filename TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (document_id, resource_uuid)
      );
      CREATE INDEX attachments_by_blob ON attachments (blob_hash);
      CREATE TABLE snapshots (
        id TEXT PRIMARY KEY,
        document_id TEXT${t.sorted} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('content', 'resolved')),
        revision INTEGER NOT NULL,
        canonical_hash TEXT NOT NULL REFERENCES blobs(hash),
        description TEXT,
        labels TEXT NOT NULL,
        types TEXT NOT NULL,
        warnings TEXT,
        author TEXT NOT NULL,
        created_at TEXT${t.sorted} NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX snapshots_by_document ON snapshots (document_id, kind, created_at);
      CREATE INDEX snapshots_by_blob ON snapshots (canonical_hash);
    `;
}

function schemaV7(dialect: Dialect): string {
  const t = TYPES[dialect];
  return `
      ALTER TABLE revisions ADD COLUMN findings TEXT;
      CREATE TABLE constraint_sets (
        name TEXT${t.sorted} PRIMARY KEY,
        text TEXT NOT NULL,
        hash TEXT NOT NULL,
        size ${t.bigint} NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );`;
}

/**
 * The names a document is known by to the documents that import it, each as the lookup key it is
 * found by: given ones (a file name, ?alias=, PUT .../aliases) and those its current metadata holds.
 */
function schemaV8(dialect: Dialect): string {
  const t = TYPES[dialect];
  return `
      CREATE TABLE document_aliases (
        document_id TEXT${t.sorted} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        alias TEXT NOT NULL,
        lookup_key TEXT NOT NULL,
        PRIMARY KEY (document_id, source, alias, lookup_key)
      );
      CREATE INDEX document_aliases_by_key ON document_aliases (lookup_key);`;
}

/**
 * The search index: one row per located object of each document's current revision. SQLite keeps
 * the words in an FTS5 table over the rows (external content, so the text is stored once and
 * snippet() reads it back; the triggers keep it in step, the delete one with the old values, as
 * external content requires). Rows are only inserted and deleted, never updated: there is no
 * update trigger. unicode61 without extra token characters splits ac-2.1 and AC-2(1) alike into
 * ac 2 1; no stemming, as PostgreSQL's side has none.
 *
 * PostgreSQL keeps a tsvector per row, built by the writer from the words search-query.ts gives
 * (key and title weighted A, text B), with the 'simple' configuration: its parser would otherwise
 * split ids its own way (ac-2.1 as ac and -2.1), the english one stems and drops stop words, and
 * 'simple' over pre-split words matches what SQLite's side matches. Control ids are kept as keys
 * (ac 2 1) in an array, GIN-indexed for the control-id filter.
 */
const SEARCH_SQLITE = `
      CREATE TABLE search_entries (
        id INTEGER PRIMARY KEY,
        document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT,
        title TEXT,
        text TEXT NOT NULL,
        control_ids TEXT NOT NULL
      );
      CREATE INDEX search_entries_by_document ON search_entries (document_id);
      CREATE VIRTUAL TABLE search_fts USING fts5(
        key, title, text, control_ids,
        content = 'search_entries', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER search_entries_insert AFTER INSERT ON search_entries BEGIN
        INSERT INTO search_fts (rowid, key, title, text, control_ids) VALUES (new.id, new.key, new.title, new.text, new.control_ids);
      END;
      CREATE TRIGGER search_entries_delete AFTER DELETE ON search_entries BEGIN
        INSERT INTO search_fts (search_fts, rowid, key, title, text, control_ids) VALUES ('delete', old.id, old.key, old.title, old.text, old.control_ids);
      END;`;

/**
 * Migration 10: each entry's scope (search-query.ts: its model, owner, readers and controls as
 * tokens) in an FTS5 column, in place of the control ids; an update trigger, as access changes
 * rewrite the scope. PostgreSQL keeps the same tokens as lexemes of the tsvector.
 */
const SEARCH_SCOPE_SQLITE = `
      DROP TRIGGER search_entries_insert;
      DROP TRIGGER search_entries_delete;
      DROP TABLE search_fts;
      DELETE FROM search_entries;
      ALTER TABLE search_entries ADD COLUMN scope TEXT NOT NULL DEFAULT '';
      CREATE VIRTUAL TABLE search_fts USING fts5(
        key, title, text, scope,
        content = 'search_entries', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER search_entries_insert AFTER INSERT ON search_entries BEGIN
        INSERT INTO search_fts (rowid, key, title, text, scope) VALUES (new.id, new.key, new.title, new.text, new.scope);
      END;
      CREATE TRIGGER search_entries_delete AFTER DELETE ON search_entries BEGIN
        INSERT INTO search_fts (search_fts, rowid, key, title, text, scope) VALUES ('delete', old.id, old.key, old.title, old.text, old.scope);
      END;
      CREATE TRIGGER search_entries_update AFTER UPDATE ON search_entries BEGIN
        INSERT INTO search_fts (search_fts, rowid, key, title, text, scope) VALUES ('delete', old.id, old.key, old.title, old.text, old.scope);
        INSERT INTO search_fts (rowid, key, title, text, scope) VALUES (new.id, new.key, new.title, new.text, new.scope);
      END;`;

const SEARCH_POSTGRES = `
      CREATE TABLE search_entries (
        id BIGSERIAL PRIMARY KEY,
        document_id TEXT COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT,
        title TEXT,
        text TEXT NOT NULL,
        control_ids TEXT[] NOT NULL,
        words TSVECTOR NOT NULL
      );
      CREATE INDEX search_entries_by_document ON search_entries (document_id);
      CREATE INDEX search_entries_words ON search_entries USING gin (words);
      CREATE INDEX search_entries_controls ON search_entries USING gin (control_ids);`;

const AUDIT_INDEXES = `
      CREATE INDEX audit_by_actor ON audit_log (actor, id);
      CREATE INDEX audit_by_document ON audit_log (document_id, id);
      CREATE INDEX audit_by_action ON audit_log (action, id);
      CREATE INDEX audit_by_time ON audit_log (at);`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'documents, revisions, blobs, renditions, jobs, users, tokens, grants, audit log',
    sqlite: schemaV1('sqlite'),
    postgres: schemaV1('postgres'),
  },
  {
    version: 2,
    description: 'count the claims of each job, so a job run twice shows',
    sqlite: 'ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;',
    postgres: 'ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;',
  },
  {
    version: 3,
    description: 'list fields and a record id per revision, and the last number given, for deleting versions',
    // SQLite record ids come from an AUTOINCREMENT table, which never gives a number twice (a
    // rowid would). A deleted version's number is never given again either.
    sqlite: `ALTER TABLE revisions ADD COLUMN fields TEXT;
      ALTER TABLE revisions ADD COLUMN record_id INTEGER;
      CREATE TABLE revision_ids (id INTEGER PRIMARY KEY AUTOINCREMENT);
      UPDATE revisions SET record_id = rowid;
      INSERT INTO revision_ids (id) SELECT COALESCE(MAX(rowid), 0) FROM revisions WHERE EXISTS (SELECT 1 FROM revisions);
      ALTER TABLE documents ADD COLUMN last_revision INTEGER NOT NULL DEFAULT 0;
      UPDATE documents SET last_revision = revision;`,
    postgres: `ALTER TABLE revisions ADD COLUMN fields TEXT; ALTER TABLE revisions ADD COLUMN record_id BIGSERIAL;
      ALTER TABLE documents ADD COLUMN last_revision INTEGER NOT NULL DEFAULT 0;
      UPDATE documents SET last_revision = revision;`,
  },
  {
    version: 4,
    description: 'a trigram index for title search on PostgreSQL, where pg_trgm can be had',
    // SQLite scans its title index for `q`; nothing to add there.
    sqlite: '',
    // pg_trgm ships with PostgreSQL and is a trusted extension, but a hardened server may refuse
    // it: title search then scans, and the migration still succeeds.
    postgres: `
      DO $$ BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm is not available; title search will scan';
      END $$;
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          CREATE INDEX documents_title_trigram ON documents USING gin (title_lower gin_trgm_ops);
        END IF;
      END $$;`,
  },
  {
    version: 5,
    description: 'attachment files per back-matter resource, and snapshots',
    sqlite: schemaV5('sqlite'),
    postgres: schemaV5('postgres'),
  },
  {
    version: 6,
    description: 'indexes for listing the audit log by actor, document, action and time',
    sqlite: AUDIT_INDEXES,
    postgres: AUDIT_INDEXES,
  },
  {
    version: 7,
    description: 'constraint findings kept with each revision, and registered constraint sets',
    sqlite: schemaV7('sqlite'),
    postgres: schemaV7('postgres'),
  },
  {
    version: 8,
    description: 'document aliases: the names and URLs other documents import a document by',
    sqlite: schemaV8('sqlite'),
    postgres: schemaV8('postgres'),
  },
  {
    version: 9,
    description: 'the full-text search index of the current revision of each document',
    sqlite: SEARCH_SQLITE,
    postgres: SEARCH_POSTGRES,
  },
  {
    version: 10,
    description: 'search entries carry their scope (model, readers, controls), so the index filters as it matches',
    // The entries are dropped: their scope is made by the writer. `serve` indexes documents that
    // have none in the background; `oscal-depot reindex` does it at once.
    sqlite: SEARCH_SCOPE_SQLITE,
    postgres: `DELETE FROM search_entries; DROP INDEX search_entries_controls;`,
  },
  {
    version: 11,
    description:
      'the search writer keeps the FTS5 index in step with its entries itself (sqlite/search.ts), in place of triggers',
    // The index already holds exactly the entries: nothing to rebuild. Nothing changes on PostgreSQL.
    sqlite: `DROP TRIGGER search_entries_insert; DROP TRIGGER search_entries_delete; DROP TRIGGER search_entries_update;`,
    postgres: '',
  },
  {
    version: 12,
    description: "PostgreSQL's search entries are deleted with their document by the store, not by a foreign key",
    // Every writer of entries holds the document's row (created or locked FOR UPDATE), so the key's
    // check on each of a write's fifty-odd rows found what was certain; it was a tenth of the
    // index's cost to a write. deleteDocument deletes the entries itself. SQLite's check is an
    // index probe in process, and stays.
    sqlite: '',
    postgres: 'ALTER TABLE search_entries DROP CONSTRAINT search_entries_document_id_fkey;',
  },
  {
    version: 13,
    description: "PostgreSQL finds a search's ranked window in one function call, where the store sent each step",
    sqlite: '',
    postgres: SEARCH_WINDOW_FUNCTIONS,
  },
  {
    version: 14,
    description:
      'whether each revision passed its constraint check at the reject level, and whether the current one did, for lists to filter on',
    // Revisions written before kept-with-findings writes existed passed the check (or were
    // attachment changes of content that had): they are valid.
    sqlite: `ALTER TABLE revisions ADD COLUMN valid INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE documents ADD COLUMN valid INTEGER NOT NULL DEFAULT 1;`,
    postgres: `ALTER TABLE revisions ADD COLUMN valid BOOLEAN NOT NULL DEFAULT TRUE;
      ALTER TABLE documents ADD COLUMN valid BOOLEAN NOT NULL DEFAULT TRUE;`,
  },
];
