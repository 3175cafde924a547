import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import type { Format } from '../../oscal/formats/index.js';
import { MIGRATIONS } from '../migrations.js';
import { auditConditions } from '../audit-query.js';
import {
  ALIASES_OF, BLOB_MERGE, DOCUMENT_BLOBS, UNREFERENCED, aliasOf, attachmentOf, auditOf, constraintSetEntryOf, constraintSetOf, documentOf, fieldColumns, findingsColumn, jobOf, revisionOf, snapshotColumns,
  snapshotOf, tokenOf, type Row,
} from '../rows.js';
import {
  StoreConflictError,
  type AccessRecord, type AliasEntry, type AliasRecord, type AliasSource, type AttachmentRecord, type AuditEntry, type ConstraintSetRecord, type DocumentFields, type AuditFilter, type AuditRecord, type BlobInput, type DocumentRecord, type Grant, type JobRecord,
  type JobStatus, type ListQuery, type RevisionInput, type RevisionRecord, type Role, type SnapshotKind, type SnapshotNotes, type SnapshotRecord, type Store, type TokenRecord, type UserRecord,
} from '../types.js';

type Sql = postgres.Sql | postgres.TransactionSql;

const now = () => new Date().toISOString();
const SORT_COLUMNS = { title: 'title_lower', 'last-modified': 'last_modified', created: 'created_at' } as const;
const TOKEN_TOUCH_MS = 60_000;
/** Any constant shared by every process that migrates this schema. */
const MIGRATION_LOCK = 0x05ca1d;
/** A job still "running" this long after its last claim belongs to a process that died. */
const JOB_LEASE_MS = 10 * 60_000;

/**
 * The scale-out store: any number of server processes on one PostgreSQL database. Revision
 * numbers come from a row lock on the document, jobs are claimed with FOR UPDATE SKIP LOCKED,
 * and migrations run under an advisory lock, so processes starting together do not race.
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;

  private constructor(private readonly sql: postgres.Sql) {}

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
      const [{ v }] = await tx`SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations` as unknown as [{ v: number }];
      for (const m of MIGRATIONS.filter((m) => m.version > Number(v))) {
        await tx.unsafe(m.postgres);
        await tx`INSERT INTO schema_migrations (version, description, applied_at) VALUES (${m.version}, ${m.description}, ${now()})`;
      }
    });
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }

  async ping(): Promise<boolean> {
    const [row] = await this.sql`SELECT 1 AS ok`;
    return row?.ok === 1;
  }

  private async putBlob(tx: Sql, blob: BlobInput): Promise<void> {
    await tx.unsafe(`INSERT INTO blobs (hash, size, gzip, br, plain) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (hash) DO UPDATE SET ${BLOB_MERGE}`,
      [blob.hash, blob.size, blob.gzip, blob.br ?? null, blob.plain === true]);
  }

  private async audit(tx: Sql, entry: AuditEntry): Promise<void> {
    await tx`INSERT INTO audit_log (at, actor, action, document_id, detail) VALUES (${now()}, ${entry.actor}, ${entry.action}, ${entry.documentId ?? null}, ${entry.detail ? JSON.stringify(entry.detail) : null})`;
  }

  /**
   * Stores `stored` and locks the rows of `dropping` (blobs the transaction may drop), in one pass
   * in hash order. Every writer and deleter takes its blob locks so, which keeps two transactions
   * sharing blobs from deadlocking: a writer that locked what it stores first and what it drops
   * after could hold one blob while a deleter, holding the other, waits for it.
   */
  private async lockBlobs(tx: Sql, stored: BlobInput[], dropping: string[]): Promise<void> {
    const byHash = new Map(stored.map((b) => [b.hash, b]));
    for (const hash of [...new Set([...byHash.keys(), ...dropping])].sort()) {
      const blob = byHash.get(hash);
      if (blob) await this.putBlob(tx, blob);
      else await tx`SELECT hash FROM blobs WHERE hash = ${hash} FOR UPDATE`;
    }
  }

  private async writeRevision(tx: Sql, id: string, number: number, revision: RevisionInput, at: string): Promise<string[]> {
    // Files of resources the revision no longer has go with them, except under a legal hold.
    const [doc] = await tx`SELECT legal_hold FROM documents WHERE id = ${id}`;
    const kept = revision.resources && !doc!.legal_hold ? revision.resources : undefined;
    const replaced = (revision.attachments ?? []).map((a) => a.resourceUuid);
    // The document's row lock keeps its attachment rows as they are read here until they change below.
    const released = (await tx`SELECT blob_hash AS h FROM attachments WHERE document_id = ${id} AND (resource_uuid = ANY(${tx.array(replaced)}::text[])
      OR (${kept !== undefined} AND NOT (resource_uuid = ANY(${tx.array(kept ?? [])}::text[]))))`).map((r) => r.h as string);
    await this.lockBlobs(tx, [revision.canonical, revision.original, ...revision.renditions.map((r) => r.blob), ...(revision.attachments ?? []).map((a) => a.blob)], released);
    await tx`INSERT INTO revisions (document_id, number, canonical_hash, original_hash, original_format, author, created_at, fields, findings)
      VALUES (${id}, ${number}, ${revision.canonical.hash}, ${revision.original.hash}, ${revision.originalFormat}, ${revision.author}, ${at}, ${JSON.stringify(revision.fields)}, ${findingsColumn(revision)})`;
    for (const r of revision.renditions) {
      await tx`INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (${id}, ${number}, ${r.format}, ${r.blob.hash})`;
    }
    if (kept) await tx`DELETE FROM attachments WHERE document_id = ${id} AND NOT (resource_uuid = ANY(${tx.array(kept)}::text[]))`;
    for (const a of revision.attachments ?? []) {
      await tx`INSERT INTO attachments (document_id, resource_uuid, blob_hash, media_type, filename, created_at) VALUES (${id}, ${a.resourceUuid}, ${a.blob.hash}, ${a.mediaType}, ${a.filename}, ${at})
        ON CONFLICT (document_id, resource_uuid) DO UPDATE SET blob_hash = excluded.blob_hash, media_type = excluded.media_type, filename = excluded.filename, created_at = excluded.created_at`;
    }
    await this.dropUnreferenced(tx, released);
    await this.writeMetadataAliases(tx, id, revision.fields);
    const jobs: string[] = [];
    for (const format of revision.pendingFormats) {
      const jobId = randomUUID();
      await tx`INSERT INTO jobs (id, document_id, revision, format, status, created_at, updated_at) VALUES (${jobId}, ${id}, ${number}, ${format}, 'queued', ${at}, ${at})`;
      jobs.push(jobId);
    }
    return jobs;
  }

  async createDocument(doc: { id: string; model: string; owner: string; visibility: 'public' | 'private' }, revision: RevisionInput, audit: AuditEntry): Promise<{ jobs: string[] }> {
    return this.sql.begin(async (tx) => {
      const at = now();
      const row = { ...doc, ...fieldColumns(revision.fields), revision: 1, last_revision: 1, created_at: at, updated_at: at };
      const inserted = await tx`INSERT INTO documents ${tx(row)} ON CONFLICT (id) DO NOTHING RETURNING id`;
      if (inserted.length === 0) throw new StoreConflictError('exists', `a document with content uuid ${doc.id} already exists`);
      const jobs = await this.writeRevision(tx, doc.id, 1, revision, at);
      await this.audit(tx, audit);
      return { jobs };
    });
  }

  async replaceDocument(id: string, revision: RevisionInput, audit: AuditEntry, ifRevision?: number): Promise<{ revision: number; jobs: string[] }> {
    return this.sql.begin(async (tx) => {
      // The row lock makes concurrent writers, in any process, number their revisions in turn.
      const [current] = await tx`SELECT revision, last_revision FROM documents WHERE id = ${id} FOR UPDATE`;
      if (!current) throw new StoreConflictError('not-found', `no document ${id}`);
      if (ifRevision !== undefined && current.revision !== ifRevision) throw new StoreConflictError('stale', `revision ${ifRevision} of ${id} is no longer current`);
      const number = (current.last_revision as number) + 1;
      const at = now();
      await tx`UPDATE documents SET ${tx({ ...fieldColumns(revision.fields), revision: number, last_revision: number, updated_at: at })} WHERE id = ${id}`;
      const jobs = await this.writeRevision(tx, id, number, revision, at);
      await this.audit(tx, audit);
      return { revision: number, jobs };
    });
  }

  async getDocument(id: string): Promise<DocumentRecord | undefined> {
    const [row] = await this.sql`SELECT * FROM documents WHERE id = ${id}`;
    return row && documentOf(row);
  }

  async listDocuments(query: ListQuery): Promise<DocumentRecord[]> {
    const column = SORT_COLUMNS[query.sort];
    const params: unknown[] = [query.model];
    const p = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['model = $1'];
    if (query.readableBy) {
      const user = p(query.readableBy.userId ?? null);
      const principals = query.readableBy.principals.map(p);
      where.push(`(visibility = 'public' OR owner = ${user}${principals.length ? ` OR id IN (SELECT document_id FROM grants WHERE principal IN (${principals.join(', ')}))` : ''})`);
    }
    if (query.q) where.push(`title_lower LIKE ${p(`%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)} ESCAPE '\\'`);
    const op = query.descending ? '<' : '>';
    if (query.after) {
      const key = p(query.after.key);
      const after = p(query.after.id);
      where.push(`(${column} ${op} ${key} OR (${column} = ${key} AND id ${op} ${after}))`);
    }
    const dir = query.descending ? 'DESC' : 'ASC';
    const rows = await this.sql.unsafe(`SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY ${column} ${dir}, id ${dir} LIMIT ${p(query.limit)}`, params as postgres.ParameterOrJSON<never>[]);
    return rows.map(documentOf);
  }

  async deleteDocument(id: string, audit: AuditEntry): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [doc] = await tx`SELECT legal_hold FROM documents WHERE id = ${id} FOR UPDATE`;
      if (!doc) throw new StoreConflictError('not-found', `no document ${id}`);
      if (doc.legal_hold) throw new StoreConflictError('legal-hold', 'the document is under a legal hold and cannot be deleted');
      const hashes = (await tx.unsafe(DOCUMENT_BLOBS('$1'), [id])).map((r) => r.h as string);
      await tx`DELETE FROM documents WHERE id = ${id}`;
      await this.dropUnreferenced(tx, hashes);
      await this.audit(tx, audit);
    });
  }

  async listRevisions(id: string): Promise<RevisionRecord[]> {
    return (await this.sql`SELECT r.*, b.size FROM revisions r JOIN blobs b ON b.hash = r.canonical_hash WHERE r.document_id = ${id} ORDER BY r.number DESC`).map(revisionOf);
  }

  async getRevision(id: string, number: number): Promise<RevisionRecord | undefined> {
    const [row] = await this.sql`SELECT r.*, b.size FROM revisions r JOIN blobs b ON b.hash = r.canonical_hash WHERE r.document_id = ${id} AND r.number = ${number}`;
    return row && revisionOf(row);
  }

  async deleteRevision(id: string, number: number, audit: AuditEntry): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [doc] = await tx`SELECT revision, legal_hold FROM documents WHERE id = ${id} FOR UPDATE`;
      const [target] = await tx`SELECT canonical_hash, original_hash FROM revisions WHERE document_id = ${id} AND number = ${number}`;
      if (!doc || !target) throw new StoreConflictError('not-found', `no version ${number} of ${id}`);
      if (doc.legal_hold) throw new StoreConflictError('legal-hold', 'the document is under a legal hold: none of its versions can be deleted');
      const [{ n }] = await tx`SELECT COUNT(*) AS n FROM revisions WHERE document_id = ${id}` as unknown as [{ n: string }];
      if (Number(n) === 1) throw new StoreConflictError('last-version', 'the only version of a document cannot be deleted; delete the document instead');
      const hashes = [target.canonical_hash as string, target.original_hash as string,
        ...(await tx`SELECT blob_hash AS h FROM renditions WHERE document_id = ${id} AND revision = ${number}`).map((r) => r.h as string)];
      await tx`DELETE FROM renditions WHERE document_id = ${id} AND revision = ${number}`;
      await tx`DELETE FROM jobs WHERE document_id = ${id} AND revision = ${number}`;
      await tx`DELETE FROM revisions WHERE document_id = ${id} AND number = ${number}`;
      if (doc.revision === number) {
        const [newest] = await tx`SELECT number, fields FROM revisions WHERE document_id = ${id} ORDER BY number DESC LIMIT 1`;
        await tx`UPDATE documents SET ${tx({ ...fieldColumns(JSON.parse(newest!.fields as string)), revision: newest!.number as number, updated_at: now() })} WHERE id = ${id}`;
        await this.writeMetadataAliases(tx, id, JSON.parse(newest!.fields as string));
      }
      await this.dropUnreferenced(tx, hashes);
      await this.audit(tx, audit);
    });
  }

  /**
   * Blobs are shared by content: drop only those nothing refers to any more. The rows are locked
   * first (in lockBlobs' order: a writer has locked them there already), which waits out any writer
   * that is adding a reference (its upsert holds the row); the DELETE, a statement of its own, then
   * sees every committed reference.
   */
  private async dropUnreferenced(tx: Sql, hashes: string[]): Promise<void> {
    if (hashes.length === 0) return;
    const unique = [...new Set(hashes)].sort();
    // Ordered as JavaScript sorts them, whatever the database's collation.
    await tx`SELECT hash FROM blobs WHERE hash IN ${tx(unique)} ORDER BY hash COLLATE "C" FOR UPDATE`;
    await tx.unsafe(`DELETE FROM blobs b WHERE b.hash = ANY($1::text[]) AND ${UNREFERENCED('b.hash')}`, [tx.array(unique)]);
  }

  async getBlob(hash: string): Promise<Buffer | undefined> {
    const [row] = await this.sql`SELECT gzip FROM blobs WHERE hash = ${hash}`;
    return row?.gzip as Buffer | undefined;
  }

  async getBlobEncoded(hash: string, encoding: 'gzip' | 'br'): Promise<Buffer | undefined> {
    const [row] = encoding === 'br' ? await this.sql`SELECT br AS data FROM blobs WHERE hash = ${hash}` : await this.sql`SELECT gzip AS data FROM blobs WHERE hash = ${hash}`;
    return (row?.data as Buffer | null) ?? undefined;
  }

  async getRendition(id: string, revision: number, format: Format): Promise<{ hash: string; size: number } | undefined> {
    const [row] = await this.sql`SELECT r.blob_hash AS hash, b.size AS size FROM renditions r JOIN blobs b ON b.hash = r.blob_hash
      WHERE r.document_id = ${id} AND r.revision = ${revision} AND r.format = ${format}`;
    return row && { hash: row.hash as string, size: Number(row.size) };
  }

  async getAttachment(id: string, resourceUuid: string): Promise<AttachmentRecord | undefined> {
    const [row] = await this.sql`SELECT a.*, b.size AS size FROM attachments a JOIN blobs b ON b.hash = a.blob_hash WHERE a.document_id = ${id} AND a.resource_uuid = ${resourceUuid}`;
    return row && attachmentOf(row);
  }

  async getAttachmentBytes(hash: string): Promise<{ data: Buffer; plain: boolean } | undefined> {
    const [row] = await this.sql`SELECT gzip, plain FROM blobs WHERE hash = ${hash}`;
    return row && { data: row.gzip as Buffer, plain: row.plain as boolean };
  }

  async createSnapshot(snapshot: Omit<SnapshotRecord, 'updatedAt' | 'canonicalHash'>, blob: BlobInput, audit: AuditEntry): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [doc] = await tx`SELECT 1 FROM documents WHERE id = ${snapshot.documentId} FOR SHARE`;
      if (!doc) throw new StoreConflictError('not-found', `no document ${snapshot.documentId}`);
      await this.putBlob(tx, blob);
      const columns = snapshotColumns({ ...snapshot, canonicalHash: blob.hash });
      await tx`INSERT INTO snapshots ${tx({ ...columns, updated_at: columns.created_at })}`;
      await this.audit(tx, audit);
    });
  }

  async listSnapshots(id: string, kind: SnapshotKind): Promise<SnapshotRecord[]> {
    return (await this.sql`SELECT * FROM snapshots WHERE document_id = ${id} AND kind = ${kind} ORDER BY created_at, id`).map(snapshotOf);
  }

  async getSnapshot(id: string, kind: SnapshotKind, snapshotId: string): Promise<SnapshotRecord | undefined> {
    const [row] = await this.sql`SELECT * FROM snapshots WHERE document_id = ${id} AND kind = ${kind} AND id = ${snapshotId}`;
    return row && snapshotOf(row);
  }

  async updateSnapshot(id: string, kind: SnapshotKind, snapshotId: string, notes: SnapshotNotes, blob: BlobInput, audit: AuditEntry): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [old] = await tx`SELECT canonical_hash FROM snapshots WHERE document_id = ${id} AND kind = ${kind} AND id = ${snapshotId} FOR UPDATE`;
      if (!old) throw new StoreConflictError('not-found', `no snapshot ${snapshotId}`);
      await this.lockBlobs(tx, [blob], [old.canonical_hash as string]);
      await tx`UPDATE snapshots SET canonical_hash = ${blob.hash}, description = ${notes.description ?? null}, labels = ${JSON.stringify(notes.labels)},
        types = ${JSON.stringify(notes.types)}, updated_at = ${now()} WHERE id = ${snapshotId}`;
      await this.dropUnreferenced(tx, [old.canonical_hash as string]);
      await this.audit(tx, audit);
    });
  }

  async deleteSnapshot(id: string, kind: SnapshotKind, snapshotId: string, audit: AuditEntry): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [row] = await tx`SELECT s.canonical_hash, d.legal_hold FROM snapshots s JOIN documents d ON d.id = s.document_id
        WHERE s.document_id = ${id} AND s.kind = ${kind} AND s.id = ${snapshotId} FOR UPDATE`;
      if (!row) throw new StoreConflictError('not-found', `no snapshot ${snapshotId}`);
      if (row.legal_hold) throw new StoreConflictError('legal-hold', 'the document is under a legal hold: none of its snapshots can be deleted');
      await tx`DELETE FROM snapshots WHERE id = ${snapshotId}`;
      await this.dropUnreferenced(tx, [row.canonical_hash as string]);
      await this.audit(tx, audit);
    });
  }

  async getAccess(id: string): Promise<AccessRecord | undefined> {
    const [doc] = await this.sql`SELECT owner, visibility, legal_hold FROM documents WHERE id = ${id}`;
    if (!doc) return undefined;
    const grants = await this.sql`SELECT principal, permission FROM grants WHERE document_id = ${id} ORDER BY principal COLLATE "C"`;
    return { owner: doc.owner as string, visibility: doc.visibility as AccessRecord['visibility'], legalHold: doc.legal_hold as boolean, grants: grants.map((g) => ({ principal: g.principal as string, permission: g.permission as Grant['permission'] })) };
  }

  async setAccess(id: string, access: Partial<Pick<AccessRecord, 'visibility' | 'legalHold' | 'grants'>>, audit: AuditEntry): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [doc] = await tx`SELECT 1 FROM documents WHERE id = ${id} FOR UPDATE`;
      if (!doc) throw new StoreConflictError('not-found', `no document ${id}`);
      if (access.visibility) await tx`UPDATE documents SET visibility = ${access.visibility} WHERE id = ${id}`;
      if (access.legalHold !== undefined) await tx`UPDATE documents SET legal_hold = ${access.legalHold} WHERE id = ${id}`;
      if (access.grants) {
        await tx`DELETE FROM grants WHERE document_id = ${id}`;
        for (const g of access.grants) await tx`INSERT INTO grants (document_id, principal, permission) VALUES (${id}, ${g.principal}, ${g.permission})`;
      }
      await this.audit(tx, audit);
    });
  }

  async grantsFor(id: string, principals: string[]): Promise<Grant[]> {
    if (principals.length === 0) return [];
    const rows = await this.sql`SELECT principal, permission FROM grants WHERE document_id = ${id} AND principal IN ${this.sql(principals)}`;
    return rows.map((g) => ({ principal: g.principal as string, permission: g.permission as Grant['permission'] }));
  }

  /** Keeps the document from being deleted until the transaction ends; false when it is gone. */
  private async holdDocument(tx: Sql, id: string): Promise<boolean> {
    return (await tx`SELECT 1 FROM documents WHERE id = ${id} FOR KEY SHARE`).length === 1;
  }

  async putRendition(id: string, revision: number, format: Format, blob: BlobInput): Promise<void> {
    await this.sql.begin(async (tx) => {
      if (!(await this.holdDocument(tx, id))) return;
      await this.putBlob(tx, blob);
      await tx`INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (${id}, ${revision}, ${format}, ${blob.hash}) ON CONFLICT DO NOTHING`;
    });
  }

  async findJob(id: string, revision: number, format: Format): Promise<JobRecord | undefined> {
    const [row] = await this.sql`SELECT * FROM jobs WHERE document_id = ${id} AND revision = ${revision} AND format = ${format} ORDER BY created_at DESC LIMIT 1`;
    return row && jobOf(row);
  }

  async claimJob(worker: string): Promise<JobRecord | undefined> {
    const at = now();
    const expired = new Date(Date.now() - JOB_LEASE_MS).toISOString();
    const [row] = await this.sql`UPDATE jobs SET status = 'running', claimed_by = ${worker}, updated_at = ${at}, attempts = attempts + 1
      WHERE id = (SELECT id FROM jobs WHERE status = 'queued' OR (status = 'running' AND updated_at < ${expired})
                  ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *`;
    return row && jobOf(row);
  }

  async finishJob(id: string, result: { rendition: BlobInput } | { error: string }): Promise<void> {
    await this.sql.begin(async (tx) => {
      // Locks are taken document first, then job, then blobs, the order a delete takes them in,
      // so a worker finishing a job and a delete of its document cannot deadlock.
      const [owner] = await tx`SELECT document_id FROM jobs WHERE id = ${id}`;
      if (!owner || !(await this.holdDocument(tx, owner.document_id as string))) return; // the document was deleted meanwhile
      const [job] = await tx`SELECT * FROM jobs WHERE id = ${id} FOR UPDATE`;
      if (!job) return;
      if ('error' in result) {
        await tx`UPDATE jobs SET status = 'failed', error = ${result.error}, updated_at = ${now()} WHERE id = ${id}`;
        return;
      }
      await this.putBlob(tx, result.rendition);
      await tx`INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (${job.document_id}, ${job.revision}, ${job.format}, ${result.rendition.hash}) ON CONFLICT DO NOTHING`;
      await tx`UPDATE jobs SET status = 'done', updated_at = ${now()} WHERE id = ${id}`;
    });
  }

  async getJob(id: string): Promise<JobRecord | undefined> {
    const [row] = await this.sql`SELECT * FROM jobs WHERE id = ${id}`;
    return row && jobOf(row);
  }

  async countJobs(status: JobStatus): Promise<number> {
    const [row] = await this.sql`SELECT COUNT(*) AS n FROM jobs WHERE status = ${status}`;
    return Number(row!.n);
  }

  async countDocuments(): Promise<number> {
    const [row] = await this.sql`SELECT COUNT(*) AS n FROM documents`;
    return Number(row!.n);
  }

  async ensureUser(name: string): Promise<UserRecord> {
    await this.sql`INSERT INTO users (id, name, created_at) VALUES (${randomUUID()}, ${name}, ${now()}) ON CONFLICT (name) DO NOTHING`;
    const [row] = await this.sql`SELECT id, name, created_at FROM users WHERE name = ${name}`;
    return { id: row!.id as string, name, createdAt: row!.created_at as string };
  }

  async createToken(token: { id: string; userId: string; hash: string; role: Role; expiresAt?: string }, audit: AuditEntry): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`INSERT INTO tokens (id, user_id, hash, role, created_at, expires_at) VALUES (${token.id}, ${token.userId}, ${token.hash}, ${token.role}, ${now()}, ${token.expiresAt ?? null})`;
      await this.audit(tx, audit);
    });
  }

  async findToken(hash: string, at: string): Promise<TokenRecord | undefined> {
    const [row] = await this.sql`SELECT t.*, u.name AS user_name FROM tokens t JOIN users u ON u.id = t.user_id
      WHERE t.hash = ${hash} AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ${at})`;
    if (!row) return undefined;
    const token = tokenOf(row);
    if (!token.lastUsedAt || Date.parse(at) - Date.parse(token.lastUsedAt) > TOKEN_TOUCH_MS) {
      await this.sql`UPDATE tokens SET last_used_at = ${at} WHERE id = ${token.id}`;
    }
    return token;
  }

  async listTokens(): Promise<TokenRecord[]> {
    return (await this.sql`SELECT t.*, u.name AS user_name FROM tokens t JOIN users u ON u.id = t.user_id ORDER BY t.created_at`).map(tokenOf);
  }

  async revokeToken(id: string, audit: AuditEntry): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      const rows = await tx`UPDATE tokens SET revoked_at = ${now()} WHERE id = ${id} AND revoked_at IS NULL RETURNING id`;
      if (rows.length === 1) await this.audit(tx, audit);
      return rows.length === 1;
    });
  }

  async countTokens(): Promise<number> {
    const [row] = await this.sql`SELECT COUNT(*) AS n FROM tokens`;
    return Number(row!.n);
  }

  async listAudit(limit: number, filter: AuditFilter = {}): Promise<AuditRecord[]> {
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = auditConditions(filter, param);
    const rows = await this.sql.unsafe(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ${param(limit)}`, params as postgres.ParameterOrJSON<never>[]);
    return rows.map((row) => auditOf(row as Row));
  }

  private async writeMetadataAliases(tx: Sql, id: string, fields: DocumentFields): Promise<void> {
    await this.writeAliases(tx, id, 'metadata', fields.aliases ?? []);
  }

  private async writeAliases(tx: Sql, id: string, source: AliasSource, entries: AliasEntry[]): Promise<void> {
    await tx`DELETE FROM document_aliases WHERE document_id = ${id} AND source = ${source}`;
    for (const e of entries) {
      await tx`INSERT INTO document_aliases (document_id, source, alias, lookup_key) VALUES (${id}, ${source}, ${e.alias}, ${e.key}) ON CONFLICT DO NOTHING`;
    }
  }

  async setAliases(id: string, entries: AliasEntry[], audit: AuditEntry): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [doc] = await tx`SELECT 1 FROM documents WHERE id = ${id} FOR UPDATE`;
      if (!doc) throw new StoreConflictError('not-found', `no document ${id}`);
      await this.writeAliases(tx, id, 'given', entries);
      await this.audit(tx, audit);
    });
  }

  async listAliases(id: string): Promise<AliasRecord[]> {
    return (await this.sql.unsafe(ALIASES_OF('$1'), [id])).map(aliasOf);
  }

  async findAliases(keys: string[]): Promise<{ documentId: string; key: string }[]> {
    const rows = await this.sql`SELECT DISTINCT document_id, lookup_key FROM document_aliases WHERE lookup_key = ANY(${this.sql.array(keys)}::text[]) ORDER BY document_id`;
    return rows.map((r) => ({ documentId: r.document_id as string, key: r.lookup_key as string }));
  }

  async putConstraintSet(set: Pick<ConstraintSetRecord, 'name' | 'text' | 'hash' | 'size'>, audit: AuditEntry): Promise<{ created: boolean }> {
    return this.sql.begin(async (tx) => {
      const at = now();
      // xmax is 0 for a row this statement inserted, and the updating transaction's id otherwise.
      const [row] = await tx`INSERT INTO constraint_sets (name, text, hash, size, created_by, created_at, updated_at)
        VALUES (${set.name}, ${set.text}, ${set.hash}, ${set.size}, ${audit.actor}, ${at}, ${at})
        ON CONFLICT (name) DO UPDATE SET text = excluded.text, hash = excluded.hash, size = excluded.size, updated_at = excluded.updated_at
        RETURNING (xmax = 0) AS created`;
      await this.audit(tx, audit);
      return { created: row!.created === true };
    });
  }

  async getConstraintSet(name: string): Promise<ConstraintSetRecord | undefined> {
    const [row] = await this.sql`SELECT * FROM constraint_sets WHERE name = ${name}`;
    return row && constraintSetOf(row);
  }

  async listConstraintSets(): Promise<Omit<ConstraintSetRecord, 'text'>[]> {
    return (await this.sql`SELECT name, hash, size, created_by, created_at, updated_at FROM constraint_sets ORDER BY name`).map(constraintSetEntryOf);
  }

  async deleteConstraintSet(name: string, audit: AuditEntry): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      const rows = await tx`DELETE FROM constraint_sets WHERE name = ${name} RETURNING name`;
      if (rows.length === 1) await this.audit(tx, audit);
      return rows.length === 1;
    });
  }
}
