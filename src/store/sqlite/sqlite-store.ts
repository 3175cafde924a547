import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Format } from '../../oscal/formats/index.js';
import { MIGRATIONS } from '../migrations.js';
import { auditConditions } from '../audit-query.js';
import {
  ALIASES_OF, BLOB_MERGE, DOCUMENT_BLOBS, UNREFERENCED, aliasOf, attachmentOf, auditOf, constraintSetEntryOf, constraintSetOf, documentOf, fieldColumns, findingsColumn, jobOf, revisionOf,
  snapshotColumns, snapshotOf, tokenOf, type Row,
} from '../rows.js';
import {
  StoreConflictError,
  type AccessRecord, type AliasEntry, type AliasRecord, type AliasSource, type AttachmentRecord, type AuditEntry, type AuditFilter, type AuditRecord, type BlobInput, type ConstraintSetRecord, type DocumentFields, type DocumentRecord, type Grant, type JobRecord,
  type JobStatus, type ListQuery, type RevisionInput, type RevisionRecord, type Role, type SnapshotKind, type SnapshotNotes, type SnapshotRecord, type Store, type TokenRecord, type UserRecord,
} from '../types.js';

const now = () => new Date().toISOString();
const REVISIONS = 'SELECT r.*, b.size AS size FROM revisions r JOIN blobs b ON b.hash = r.canonical_hash';
const SORT_COLUMNS = { title: 'title_lower', 'last-modified': 'last_modified', created: 'created_at' } as const;
/** A token's last use is recorded at most this often, so reads do not each cost a write. */
const TOKEN_TOUCH_MS = 60_000;
const CACHED_DOCUMENTS = 10_000;
const DATA_VERSION_INTERVAL_MS = 1;

/** A cached record is handed to every caller: none may change it. */
function frozen(doc: DocumentRecord): DocumentRecord {
  Object.freeze(doc.documentIds);
  Object.freeze(doc.markings);
  return Object.freeze(doc);
}

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, so an acknowledged
 * write survives a crash or power loss; every operation is one transaction.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 10000');
    this.migrate();
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** Statements are prepared once per connection: preparing costs more than running most of them. */
  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
    const applied = (this.stmt('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
    for (const m of MIGRATIONS.filter((m) => m.version > applied)) {
      this.db.transaction(() => {
        this.db.exec(m.sqlite);
        this.stmt('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(m.version, m.description, now());
      }).immediate();
    }
  }

  /** Work left running by a process that stopped goes back to the queue. */
  requeueRunningJobs(): void {
    this.stmt("UPDATE jobs SET status = 'queued', claimed_by = NULL WHERE status = 'running'").run();
  }

  async close(): Promise<void> {
    this.db.close();
  }

  async ping(): Promise<boolean> {
    return (this.stmt('SELECT 1 AS ok').get() as { ok: number }).ok === 1;
  }

  private putBlob(blob: BlobInput): void {
    this.stmt(`INSERT INTO blobs (hash, size, gzip, br, plain) VALUES (?, ?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET ${BLOB_MERGE}`)
      .run(blob.hash, blob.size, blob.gzip, blob.br ?? null, blob.plain ? 1 : 0);
  }

  private audit(entry: AuditEntry): void {
    this.stmt('INSERT INTO audit_log (at, actor, action, document_id, detail) VALUES (?, ?, ?, ?, ?)')
      .run(now(), entry.actor, entry.action, entry.documentId ?? null, entry.detail ? JSON.stringify(entry.detail) : null);
  }

  /** Stores a revision's blobs, its row, its ready renditions and the jobs for the others. */
  private writeRevision(id: string, number: number, revision: RevisionInput, at: string): string[] {
    this.putBlob(revision.canonical);
    this.putBlob(revision.original);
    const recordId = this.stmt('INSERT INTO revision_ids DEFAULT VALUES').run().lastInsertRowid;
    this.stmt('INSERT INTO revisions (document_id, number, canonical_hash, original_hash, original_format, author, created_at, fields, record_id, findings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, number, revision.canonical.hash, revision.original.hash, revision.originalFormat, revision.author, at, JSON.stringify(revision.fields), recordId, findingsColumn(revision));
    for (const r of revision.renditions) {
      this.putBlob(r.blob);
      this.stmt('INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (?, ?, ?, ?)').run(id, number, r.format, r.blob.hash);
    }
    this.writeAttachments(id, revision, at);
    this.writeMetadataAliases(id, revision.fields);
    return revision.pendingFormats.map((format) => {
      const jobId = randomUUID();
      this.stmt("INSERT INTO jobs (id, document_id, revision, format, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)")
        .run(jobId, id, number, format, at, at);
      return jobId;
    });
  }

  private writeMetadataAliases(id: string, fields: DocumentFields): void {
    this.writeAliases(id, 'metadata', fields.aliases ?? []);
  }

  private writeAliases(id: string, source: AliasSource, entries: AliasEntry[]): void {
    this.stmt('DELETE FROM document_aliases WHERE document_id = ? AND source = ?').run(id, source);
    const insert = this.stmt('INSERT OR IGNORE INTO document_aliases (document_id, source, alias, lookup_key) VALUES (?, ?, ?, ?)');
    for (const e of entries) insert.run(id, source, e.alias, e.key);
  }

  async setAliases(id: string, entries: AliasEntry[], audit: AuditEntry): Promise<void> {
    this.db.transaction(() => {
      if (!this.stmt('SELECT 1 FROM documents WHERE id = ?').get(id)) throw new StoreConflictError('not-found', `no document ${id}`);
      this.writeAliases(id, 'given', entries);
      this.audit(audit);
    }).immediate();
  }

  async listAliases(id: string): Promise<AliasRecord[]> {
    return (this.stmt(ALIASES_OF('?')).all(id) as Row[]).map(aliasOf);
  }

  async findAliases(keys: string[]): Promise<{ documentId: string; key: string }[]> {
    const rows = this.stmt('SELECT DISTINCT document_id, lookup_key FROM document_aliases WHERE lookup_key IN (SELECT value FROM json_each(?)) ORDER BY document_id')
      .all(JSON.stringify(keys)) as Row[];
    return rows.map((r) => ({ documentId: r.document_id as string, key: r.lookup_key as string }));
  }

  private writeAttachments(id: string, revision: RevisionInput, at: string): void {
    const hashes: string[] = [];
    const held = this.stmt('SELECT legal_hold FROM documents WHERE id = ?').get(id) as { legal_hold: number };
    if (revision.resources && held.legal_hold !== 1) {
      const gone = this.stmt('SELECT resource_uuid AS r, blob_hash AS h FROM attachments WHERE document_id = ? AND resource_uuid NOT IN (SELECT value FROM json_each(?))')
        .all(id, JSON.stringify(revision.resources)) as { r: string; h: string }[];
      for (const { r, h } of gone) {
        this.stmt('DELETE FROM attachments WHERE document_id = ? AND resource_uuid = ?').run(id, r);
        hashes.push(h);
      }
    }
    for (const a of revision.attachments ?? []) {
      const old = this.stmt('SELECT blob_hash AS h FROM attachments WHERE document_id = ? AND resource_uuid = ?').get(id, a.resourceUuid) as { h: string } | undefined;
      if (old) hashes.push(old.h);
      this.putBlob(a.blob);
      this.stmt(`INSERT INTO attachments (document_id, resource_uuid, blob_hash, media_type, filename, created_at) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (document_id, resource_uuid) DO UPDATE SET blob_hash = excluded.blob_hash, media_type = excluded.media_type, filename = excluded.filename, created_at = excluded.created_at`)
        .run(id, a.resourceUuid, a.blob.hash, a.mediaType, a.filename, at);
    }
    this.dropUnreferenced(hashes);
  }

  async createDocument(doc: { id: string; model: string; owner: string; visibility: 'public' | 'private' }, revision: RevisionInput, audit: AuditEntry): Promise<{ jobs: string[] }> {
    return this.db.transaction(() => {
      if (this.stmt('SELECT 1 FROM documents WHERE id = ?').get(doc.id)) throw new StoreConflictError('exists', `a document with content uuid ${doc.id} already exists`);
      const at = now();
      this.stmt(`INSERT INTO documents (id, model, owner, visibility, revision, last_revision, title, title_lower, version, oscal_version, published, last_modified, document_ids, markings, remarks, created_at, updated_at)
        VALUES (@id, @model, @owner, @visibility, 1, 1, @title, @title_lower, @version, @oscal_version, @published, @last_modified, @document_ids, @markings, @remarks, @at, @at)`)
        .run({ ...doc, ...fieldColumns(revision.fields), at });
      const jobs = this.writeRevision(doc.id, 1, revision, at);
      this.audit(audit);
      return { jobs };
    }).immediate();
  }

  async replaceDocument(id: string, revision: RevisionInput, audit: AuditEntry, ifRevision?: number): Promise<{ revision: number; jobs: string[] }> {
    return this.db.transaction(() => {
      const current = this.stmt('SELECT revision, last_revision FROM documents WHERE id = ?').get(id) as { revision: number; last_revision: number } | undefined;
      if (!current) throw new StoreConflictError('not-found', `no document ${id}`);
      if (ifRevision !== undefined && current.revision !== ifRevision) throw new StoreConflictError('stale', `revision ${ifRevision} of ${id} is no longer current`);
      const number = current.last_revision + 1;
      const at = now();
      this.stmt(`UPDATE documents SET revision = @number, last_revision = @number, title = @title, title_lower = @title_lower, version = @version, oscal_version = @oscal_version,
        published = @published, last_modified = @last_modified, document_ids = @document_ids, markings = @markings, remarks = @remarks, updated_at = @at WHERE id = @id`)
        .run({ id, number, ...fieldColumns(revision.fields), at });
      const jobs = this.writeRevision(id, number, revision, at);
      this.audit(audit);
      return { revision: number, jobs };
    }).immediate();
  }

  /**
   * Document records as last read, so that a read of a document costs no query. Dropped at every
   * write of this connection (its total_changes, exact and free to ask), and when another
   * connection has written (data_version: the rendition workers, another process on the file),
   * which is asked at most once a millisecond: asking costs as much as the query it spares.
   */
  private readonly documents = new Map<string, DocumentRecord>();
  private changesSeen = -1;
  private versionSeen = -1;
  private versionAskedAt = -Infinity;

  async getDocument(id: string): Promise<DocumentRecord | undefined> {
    this.forgetDocumentsIfChanged();
    const known = this.documents.get(id);
    if (known) return known;
    const row = this.stmt('SELECT * FROM documents WHERE id = ?').get(id) as Row | undefined;
    if (!row) return undefined;
    const doc = frozen(documentOf(row));
    if (this.documents.size >= CACHED_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(id, doc);
    return doc;
  }

  private forgetDocumentsIfChanged(): void {
    const changes = this.stmt('SELECT total_changes()').pluck().get() as number;
    const at = performance.now();
    let version = this.versionSeen;
    if (at - this.versionAskedAt >= DATA_VERSION_INTERVAL_MS) {
      version = this.stmt('PRAGMA data_version').pluck().get() as number;
      this.versionAskedAt = at;
    }
    if (changes !== this.changesSeen || version !== this.versionSeen) {
      this.documents.clear();
      this.changesSeen = changes;
      this.versionSeen = version;
    }
  }

  async listDocuments(query: ListQuery): Promise<DocumentRecord[]> {
    const column = SORT_COLUMNS[query.sort];
    const where = ['model = @model'];
    const params: Record<string, unknown> = { model: query.model, limit: query.limit };
    if (query.readableBy) {
      const principals = query.readableBy.principals.map((p, i) => {
        params[`p${i}`] = p;
        return `@p${i}`;
      });
      params.user = query.readableBy.userId ?? null;
      where.push(`(visibility = 'public' OR owner = @user${principals.length ? ` OR id IN (SELECT document_id FROM grants WHERE principal IN (${principals.join(', ')}))` : ''})`);
    }
    if (query.q) {
      params.q = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push("title_lower LIKE @q ESCAPE '\\'");
    }
    const op = query.descending ? '<' : '>';
    if (query.after) {
      params.afterKey = query.after.key;
      params.afterId = query.after.id;
      where.push(`(${column} ${op} @afterKey OR (${column} = @afterKey AND id ${op} @afterId))`);
    }
    const dir = query.descending ? 'DESC' : 'ASC';
    const sql = `SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY ${column} ${dir}, id ${dir} LIMIT @limit`;
    return (this.stmt(sql).all(params) as Row[]).map(documentOf);
  }

  async deleteDocument(id: string, audit: AuditEntry): Promise<void> {
    this.db.transaction(() => {
      const doc = this.stmt('SELECT legal_hold FROM documents WHERE id = ?').get(id) as { legal_hold: number } | undefined;
      if (!doc) throw new StoreConflictError('not-found', `no document ${id}`);
      if (doc.legal_hold === 1) throw new StoreConflictError('legal-hold', 'the document is under a legal hold and cannot be deleted');
      const hashes = (this.stmt(DOCUMENT_BLOBS('@id')).all({ id }) as { h: string }[]).map((r) => r.h);
      this.stmt('DELETE FROM documents WHERE id = ?').run(id);
      this.dropUnreferenced(hashes);
      this.audit(audit);
    }).immediate();
  }

  async listRevisions(id: string): Promise<RevisionRecord[]> {
    return (this.stmt(`${REVISIONS} WHERE r.document_id = ? ORDER BY r.number DESC`).all(id) as Row[]).map(revisionOf);
  }

  async getRevision(id: string, number: number): Promise<RevisionRecord | undefined> {
    const row = this.stmt(`${REVISIONS} WHERE r.document_id = ? AND r.number = ?`).get(id, number) as Row | undefined;
    return row && revisionOf(row);
  }

  async deleteRevision(id: string, number: number, audit: AuditEntry): Promise<void> {
    this.db.transaction(() => {
      const doc = this.stmt('SELECT revision, legal_hold FROM documents WHERE id = ?').get(id) as { revision: number; legal_hold: number } | undefined;
      const target = this.stmt('SELECT canonical_hash, original_hash FROM revisions WHERE document_id = ? AND number = ?').get(id, number) as Row | undefined;
      if (!doc || !target) throw new StoreConflictError('not-found', `no version ${number} of ${id}`);
      if (doc.legal_hold === 1) throw new StoreConflictError('legal-hold', 'the document is under a legal hold: none of its versions can be deleted');
      const { n } = this.stmt('SELECT COUNT(*) AS n FROM revisions WHERE document_id = ?').get(id) as { n: number };
      if (n === 1) throw new StoreConflictError('last-version', 'the only version of a document cannot be deleted; delete the document instead');
      const hashes = [target.canonical_hash as string, target.original_hash as string,
        ...(this.stmt('SELECT blob_hash AS h FROM renditions WHERE document_id = ? AND revision = ?').all(id, number) as { h: string }[]).map((r) => r.h)];
      this.stmt('DELETE FROM renditions WHERE document_id = ? AND revision = ?').run(id, number);
      this.stmt('DELETE FROM jobs WHERE document_id = ? AND revision = ?').run(id, number);
      this.stmt('DELETE FROM revisions WHERE document_id = ? AND number = ?').run(id, number);
      if (doc.revision === number) {
        const newest = this.stmt('SELECT number, fields FROM revisions WHERE document_id = ? ORDER BY number DESC LIMIT 1').get(id) as { number: number; fields: string };
        this.stmt(`UPDATE documents SET revision = @number, title = @title, title_lower = @title_lower, version = @version, oscal_version = @oscal_version,
          published = @published, last_modified = @last_modified, document_ids = @document_ids, markings = @markings, remarks = @remarks, updated_at = @at WHERE id = @id`)
          .run({ id, number: newest.number, ...fieldColumns(JSON.parse(newest.fields)), at: now() });
        this.writeMetadataAliases(id, JSON.parse(newest.fields));
      }
      this.dropUnreferenced(hashes);
      this.audit(audit);
    }).immediate();
  }

  /** Blobs are shared by content: drop only those nothing refers to any more. */
  private dropUnreferenced(hashes: string[]): void {
    const drop = this.stmt(`DELETE FROM blobs WHERE hash = @h AND ${UNREFERENCED('@h')}`);
    for (const h of new Set(hashes)) drop.run({ h });
  }

  async getBlob(hash: string): Promise<Buffer | undefined> {
    const row = this.stmt('SELECT gzip FROM blobs WHERE hash = ?').get(hash) as { gzip: Buffer } | undefined;
    return row?.gzip;
  }

  async getBlobEncoded(hash: string, encoding: 'gzip' | 'br'): Promise<Buffer | undefined> {
    const row = this.stmt(`SELECT ${encoding === 'br' ? 'br' : 'gzip'} AS data FROM blobs WHERE hash = ?`).get(hash) as { data: Buffer | null } | undefined;
    return row?.data ?? undefined;
  }

  async getRendition(id: string, revision: number, format: Format): Promise<{ hash: string; size: number } | undefined> {
    const row = this.stmt('SELECT r.blob_hash AS hash, b.size AS size FROM renditions r JOIN blobs b ON b.hash = r.blob_hash WHERE r.document_id = ? AND r.revision = ? AND r.format = ?')
      .get(id, revision, format) as { hash: string; size: number } | undefined;
    return row;
  }

  async getAttachment(id: string, resourceUuid: string): Promise<AttachmentRecord | undefined> {
    const row = this.stmt('SELECT a.*, b.size AS size FROM attachments a JOIN blobs b ON b.hash = a.blob_hash WHERE a.document_id = ? AND a.resource_uuid = ?')
      .get(id, resourceUuid) as Row | undefined;
    return row && attachmentOf(row);
  }

  async getAttachmentBytes(hash: string): Promise<{ data: Buffer; plain: boolean } | undefined> {
    const row = this.stmt('SELECT gzip, plain FROM blobs WHERE hash = ?').get(hash) as { gzip: Buffer; plain: number } | undefined;
    return row && { data: row.gzip, plain: row.plain === 1 };
  }

  async createSnapshot(snapshot: Omit<SnapshotRecord, 'updatedAt' | 'canonicalHash'>, blob: BlobInput, audit: AuditEntry): Promise<void> {
    this.db.transaction(() => {
      if (!this.stmt('SELECT 1 FROM documents WHERE id = ?').get(snapshot.documentId)) throw new StoreConflictError('not-found', `no document ${snapshot.documentId}`);
      this.putBlob(blob);
      this.stmt(`INSERT INTO snapshots (id, document_id, kind, revision, canonical_hash, description, labels, types, warnings, author, created_at, updated_at)
        VALUES (@id, @document_id, @kind, @revision, @canonical_hash, @description, @labels, @types, @warnings, @author, @created_at, @created_at)`)
        .run(snapshotColumns({ ...snapshot, canonicalHash: blob.hash }));
      this.audit(audit);
    }).immediate();
  }

  async listSnapshots(id: string, kind: SnapshotKind): Promise<SnapshotRecord[]> {
    return (this.stmt('SELECT * FROM snapshots WHERE document_id = ? AND kind = ? ORDER BY created_at, id').all(id, kind) as Row[]).map(snapshotOf);
  }

  async getSnapshot(id: string, kind: SnapshotKind, snapshotId: string): Promise<SnapshotRecord | undefined> {
    const row = this.stmt('SELECT * FROM snapshots WHERE document_id = ? AND kind = ? AND id = ?').get(id, kind, snapshotId) as Row | undefined;
    return row && snapshotOf(row);
  }

  async updateSnapshot(id: string, kind: SnapshotKind, snapshotId: string, notes: SnapshotNotes, blob: BlobInput, audit: AuditEntry): Promise<void> {
    this.db.transaction(() => {
      const old = this.stmt('SELECT canonical_hash FROM snapshots WHERE document_id = ? AND kind = ? AND id = ?').get(id, kind, snapshotId) as { canonical_hash: string } | undefined;
      if (!old) throw new StoreConflictError('not-found', `no snapshot ${snapshotId}`);
      this.putBlob(blob);
      this.stmt('UPDATE snapshots SET canonical_hash = ?, description = ?, labels = ?, types = ?, updated_at = ? WHERE id = ?')
        .run(blob.hash, notes.description ?? null, JSON.stringify(notes.labels), JSON.stringify(notes.types), now(), snapshotId);
      this.dropUnreferenced([old.canonical_hash]);
      this.audit(audit);
    }).immediate();
  }

  async deleteSnapshot(id: string, kind: SnapshotKind, snapshotId: string, audit: AuditEntry): Promise<void> {
    this.db.transaction(() => {
      const row = this.stmt('SELECT s.canonical_hash, d.legal_hold FROM snapshots s JOIN documents d ON d.id = s.document_id WHERE s.document_id = ? AND s.kind = ? AND s.id = ?')
        .get(id, kind, snapshotId) as { canonical_hash: string; legal_hold: number } | undefined;
      if (!row) throw new StoreConflictError('not-found', `no snapshot ${snapshotId}`);
      if (row.legal_hold === 1) throw new StoreConflictError('legal-hold', 'the document is under a legal hold: none of its snapshots can be deleted');
      this.stmt('DELETE FROM snapshots WHERE id = ?').run(snapshotId);
      this.dropUnreferenced([row.canonical_hash]);
      this.audit(audit);
    }).immediate();
  }

  async getAccess(id: string): Promise<AccessRecord | undefined> {
    const doc = this.stmt('SELECT owner, visibility, legal_hold FROM documents WHERE id = ?').get(id) as Row | undefined;
    if (!doc) return undefined;
    const grants = this.stmt('SELECT principal, permission FROM grants WHERE document_id = ? ORDER BY principal').all(id) as Grant[];
    return { owner: doc.owner as string, visibility: doc.visibility as AccessRecord['visibility'], legalHold: doc.legal_hold === 1, grants };
  }

  async setAccess(id: string, access: Partial<Pick<AccessRecord, 'visibility' | 'legalHold' | 'grants'>>, audit: AuditEntry): Promise<void> {
    this.db.transaction(() => {
      if (!this.stmt('SELECT 1 FROM documents WHERE id = ?').get(id)) throw new StoreConflictError('not-found', `no document ${id}`);
      if (access.visibility) this.stmt('UPDATE documents SET visibility = ? WHERE id = ?').run(access.visibility, id);
      if (access.legalHold !== undefined) this.stmt('UPDATE documents SET legal_hold = ? WHERE id = ?').run(access.legalHold ? 1 : 0, id);
      if (access.grants) {
        this.stmt('DELETE FROM grants WHERE document_id = ?').run(id);
        const insert = this.stmt('INSERT INTO grants (document_id, principal, permission) VALUES (?, ?, ?)');
        for (const g of access.grants) insert.run(id, g.principal, g.permission);
      }
      this.audit(audit);
    }).immediate();
  }

  async grantsFor(id: string, principals: string[]): Promise<Grant[]> {
    if (principals.length === 0) return [];
    return this.stmt(`SELECT principal, permission FROM grants WHERE document_id = ? AND principal IN (${principals.map(() => '?').join(', ')})`)
      .all(id, ...principals) as Grant[];
  }

  async putRendition(id: string, revision: number, format: Format, blob: BlobInput): Promise<void> {
    this.db.transaction(() => {
      // The document may have been deleted while its rendition was being made.
      if (!this.stmt('SELECT 1 FROM documents WHERE id = ?').get(id)) return;
      this.putBlob(blob);
      this.stmt('INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(id, revision, format, blob.hash);
    }).immediate();
  }

  async findJob(id: string, revision: number, format: Format): Promise<JobRecord | undefined> {
    const row = this.stmt('SELECT * FROM jobs WHERE document_id = ? AND revision = ? AND format = ? ORDER BY created_at DESC LIMIT 1').get(id, revision, format) as Row | undefined;
    return row && jobOf(row);
  }

  async claimJob(worker: string): Promise<JobRecord | undefined> {
    const row = this.stmt(`UPDATE jobs SET status = 'running', claimed_by = @worker, updated_at = @at, attempts = attempts + 1
      WHERE id = (SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at, id LIMIT 1) RETURNING *`).get({ worker, at: now() }) as Row | undefined;
    return row && jobOf(row);
  }

  async finishJob(id: string, result: { rendition: BlobInput } | { error: string }): Promise<void> {
    this.db.transaction(() => {
      const job = this.stmt('SELECT * FROM jobs WHERE id = ?').get(id) as Row | undefined;
      if (!job) return; // the document was deleted meanwhile
      if ('error' in result) {
        this.stmt("UPDATE jobs SET status = 'failed', error = ?, updated_at = ? WHERE id = ?").run(result.error, now(), id);
        return;
      }
      this.putBlob(result.rendition);
      this.stmt('INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
        .run(job.document_id, job.revision, job.format, result.rendition.hash);
      this.stmt("UPDATE jobs SET status = 'done', updated_at = ? WHERE id = ?").run(now(), id);
    }).immediate();
  }

  async getJob(id: string): Promise<JobRecord | undefined> {
    const row = this.stmt('SELECT * FROM jobs WHERE id = ?').get(id) as Row | undefined;
    return row && jobOf(row);
  }

  async countJobs(status: JobStatus): Promise<number> {
    return (this.stmt('SELECT COUNT(*) AS n FROM jobs WHERE status = ?').get(status) as { n: number }).n;
  }

  async countDocuments(): Promise<number> {
    return (this.stmt('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n;
  }

  async ensureUser(name: string): Promise<UserRecord> {
    const existing = this.stmt('SELECT id, name, created_at FROM users WHERE name = ?').get(name) as Row | undefined;
    if (existing) return { id: existing.id as string, name, createdAt: existing.created_at as string };
    const user = { id: randomUUID(), name, createdAt: now() };
    this.stmt('INSERT INTO users (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING').run(user.id, name, user.createdAt);
    return this.ensureUser(name);
  }

  async createToken(token: { id: string; userId: string; hash: string; role: Role; expiresAt?: string }, audit: AuditEntry): Promise<void> {
    this.db.transaction(() => {
      this.stmt('INSERT INTO tokens (id, user_id, hash, role, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(token.id, token.userId, token.hash, token.role, now(), token.expiresAt ?? null);
      this.audit(audit);
    }).immediate();
  }

  async findToken(hash: string, at: string): Promise<TokenRecord | undefined> {
    const row = this.stmt(`SELECT t.*, u.name AS user_name FROM tokens t JOIN users u ON u.id = t.user_id
      WHERE t.hash = ? AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ?)`).get(hash, at) as Row | undefined;
    if (!row) return undefined;
    const token = tokenOf(row);
    if (!token.lastUsedAt || Date.parse(at) - Date.parse(token.lastUsedAt) > TOKEN_TOUCH_MS) {
      this.stmt('UPDATE tokens SET last_used_at = ? WHERE id = ?').run(at, token.id);
    }
    return token;
  }

  async listTokens(): Promise<TokenRecord[]> {
    return (this.stmt('SELECT t.*, u.name AS user_name FROM tokens t JOIN users u ON u.id = t.user_id ORDER BY t.created_at').all() as Row[]).map(tokenOf);
  }

  async revokeToken(id: string, audit: AuditEntry): Promise<boolean> {
    return this.db.transaction(() => {
      const revoked = this.stmt('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now(), id).changes === 1;
      if (revoked) this.audit(audit);
      return revoked;
    }).immediate();
  }

  async countTokens(): Promise<number> {
    return (this.stmt('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n;
  }

  async listAudit(limit: number, filter: AuditFilter = {}): Promise<AuditRecord[]> {
    const params: unknown[] = [];
    const where = auditConditions(filter, (value) => {
      params.push(value);
      return '?';
    });
    return (this.stmt(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ?`).all(...params, limit) as Row[]).map(auditOf);
  }

  async putConstraintSet(set: Pick<ConstraintSetRecord, 'name' | 'text' | 'hash' | 'size'>, audit: AuditEntry): Promise<{ created: boolean }> {
    return this.db.transaction(() => {
      const at = now();
      const created = this.stmt('SELECT 1 FROM constraint_sets WHERE name = ?').get(set.name) === undefined;
      this.stmt(`INSERT INTO constraint_sets (name, text, hash, size, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET text = excluded.text, hash = excluded.hash, size = excluded.size, updated_at = excluded.updated_at`)
        .run(set.name, set.text, set.hash, set.size, audit.actor, at, at);
      this.audit(audit);
      return { created };
    }).immediate();
  }

  async getConstraintSet(name: string): Promise<ConstraintSetRecord | undefined> {
    const row = this.stmt('SELECT * FROM constraint_sets WHERE name = ?').get(name) as Row | undefined;
    return row && constraintSetOf(row);
  }

  async listConstraintSets(): Promise<Omit<ConstraintSetRecord, 'text'>[]> {
    return (this.stmt('SELECT name, hash, size, created_by, created_at, updated_at FROM constraint_sets ORDER BY name').all() as Row[]).map(constraintSetEntryOf);
  }

  async deleteConstraintSet(name: string, audit: AuditEntry): Promise<boolean> {
    return this.db.transaction(() => {
      const deleted = this.stmt('DELETE FROM constraint_sets WHERE name = ?').run(name).changes === 1;
      if (deleted) this.audit(audit);
      return deleted;
    }).immediate();
  }
}
