/**
 * Versioned schema migrations, one list for every backend: each step gives the SQL per dialect.
 * A store applies, in order, the steps above the highest version it has recorded.
 */
export interface Migration {
  version: number;
  description: string;
  sqlite: string;
  postgres: string;
}

/** Text columns that are sorted or paged on compare bytewise in both backends. */
const C = 'COLLATE "C"';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'documents, revisions, blobs, renditions, jobs, users, tokens, grants, audit log',
    sqlite: `
      CREATE TABLE blobs (
        hash TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        gzip BLOB NOT NULL,
        br BLOB
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
        id TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        owner TEXT NOT NULL,
        visibility TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
        legal_hold INTEGER NOT NULL DEFAULT 0,
        revision INTEGER NOT NULL,
        title TEXT NOT NULL,
        title_lower TEXT NOT NULL,
        version TEXT NOT NULL,
        oscal_version TEXT NOT NULL,
        published TEXT,
        last_modified TEXT NOT NULL,
        document_ids TEXT NOT NULL,
        markings TEXT NOT NULL,
        remarks TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX documents_by_title ON documents (model, title_lower, id);
      CREATE INDEX documents_by_last_modified ON documents (model, last_modified, id);
      CREATE INDEX documents_by_created ON documents (model, created_at, id);
      CREATE INDEX documents_by_owner ON documents (owner);
      CREATE TABLE revisions (
        document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        canonical_hash TEXT NOT NULL REFERENCES blobs(hash),
        original_hash TEXT NOT NULL REFERENCES blobs(hash),
        original_format TEXT NOT NULL,
        author TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (document_id, number)
      );
      CREATE TABLE renditions (
        document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,
        format TEXT NOT NULL,
        blob_hash TEXT NOT NULL REFERENCES blobs(hash),
        PRIMARY KEY (document_id, revision, format)
      );
      CREATE TABLE grants (
        document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        principal TEXT NOT NULL,
        permission TEXT NOT NULL CHECK (permission IN ('read', 'write')),
        PRIMARY KEY (document_id, principal)
      );
      CREATE INDEX grants_by_principal ON grants (principal, document_id);
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,
        format TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        error TEXT,
        claimed_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX jobs_queue ON jobs (status, created_at);
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        document_id TEXT,
        detail TEXT
      );
    `,
    postgres: `
      CREATE TABLE blobs (
        hash TEXT PRIMARY KEY,
        size BIGINT NOT NULL,
        gzip BYTEA NOT NULL,
        br BYTEA
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
        id TEXT ${C} PRIMARY KEY,
        model TEXT NOT NULL,
        owner TEXT NOT NULL,
        visibility TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
        legal_hold BOOLEAN NOT NULL DEFAULT FALSE,
        revision INTEGER NOT NULL,
        title TEXT NOT NULL,
        title_lower TEXT ${C} NOT NULL,
        version TEXT NOT NULL,
        oscal_version TEXT NOT NULL,
        published TEXT,
        last_modified TEXT ${C} NOT NULL,
        document_ids TEXT NOT NULL,
        markings TEXT NOT NULL,
        remarks TEXT,
        created_at TEXT ${C} NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX documents_by_title ON documents (model, title_lower, id);
      CREATE INDEX documents_by_last_modified ON documents (model, last_modified, id);
      CREATE INDEX documents_by_created ON documents (model, created_at, id);
      CREATE INDEX documents_by_owner ON documents (owner);
      CREATE TABLE revisions (
        document_id TEXT ${C} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
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
        document_id TEXT ${C} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,
        format TEXT NOT NULL,
        blob_hash TEXT NOT NULL REFERENCES blobs(hash),
        PRIMARY KEY (document_id, revision, format)
      );
      CREATE INDEX renditions_by_blob ON renditions (blob_hash);
      CREATE TABLE grants (
        document_id TEXT ${C} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        principal TEXT NOT NULL,
        permission TEXT NOT NULL CHECK (permission IN ('read', 'write')),
        PRIMARY KEY (document_id, principal)
      );
      CREATE INDEX grants_by_principal ON grants (principal, document_id);
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        document_id TEXT ${C} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,
        format TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        error TEXT,
        claimed_by TEXT,
        created_at TEXT ${C} NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX jobs_queue ON jobs (status, created_at);
      CREATE INDEX jobs_by_document ON jobs (document_id, revision, format);
      CREATE TABLE audit_log (
        id BIGSERIAL PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        document_id TEXT,
        detail TEXT
      );
    `,
  },
  {
    version: 2,
    description: 'count the claims of each job, so a job run twice shows',
    sqlite: 'ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;',
    postgres: 'ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;',
  },
];
