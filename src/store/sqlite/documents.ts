import { DOCUMENT_BLOBS, documentOf, fieldColumns, validOf, type Row } from '../rows.js';
import { type DocumentRecord, type DocumentStore, type ListQuery } from '../types.js';
import { now, readableWhere, type SqliteConnection } from './connection.js';
import { writeRevision } from './revision-writes.js';
import { dropSearchEntries } from './search.js';
import { StoreConflictError } from '../../errors.js';

const SORT_COLUMNS = { title: 'title_lower', 'last-modified': 'last_modified', created: 'created_at' } as const;
const CACHED_DOCUMENTS = 10_000;
const DATA_VERSION_INTERVAL_MS = 1;

/** A cached record is handed to every caller: none may change it. */
function frozen(doc: DocumentRecord): DocumentRecord {
  Object.freeze(doc.documentIds);
  Object.freeze(doc.markings);
  return Object.freeze(doc);
}

/**
 * Document records as last read, so that a read of a document costs no query. Dropped at every
 * write of this connection (its total_changes, exact and free to ask), and when another
 * connection has written (data_version: the rendition workers, another process on the file),
 * which is asked at most once a millisecond: asking costs as much as the query it spares.
 */
class DocumentCache {
  private readonly documents = new Map<string, DocumentRecord>();
  private changesSeen = -1;
  private versionSeen = -1;
  private versionAskedAt = -Infinity;

  constructor(private readonly c: SqliteConnection) {}

  get(id: string): DocumentRecord | undefined {
    this.forgetIfChanged();
    const known = this.documents.get(id);
    if (known) return known;
    const row = this.c.stmt('SELECT * FROM documents WHERE id = ?').get(id) as Row | undefined;
    if (!row) return undefined;
    const doc = frozen(documentOf(row));
    if (this.documents.size >= CACHED_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(id, doc);
    return doc;
  }

  private forgetIfChanged(): void {
    const changes = this.c.stmt('SELECT total_changes()').pluck().get() as number;
    const at = performance.now();
    let version = this.versionSeen;
    if (at - this.versionAskedAt >= DATA_VERSION_INTERVAL_MS) {
      version = this.c.stmt('PRAGMA data_version').pluck().get() as number;
      this.versionAskedAt = at;
    }
    if (changes !== this.changesSeen || version !== this.versionSeen) {
      this.documents.clear();
      this.changesSeen = changes;
      this.versionSeen = version;
    }
  }
}

export function sqliteDocuments(c: SqliteConnection): DocumentStore {
  const cache = new DocumentCache(c);
  return {
    async createDocument(doc, revision, audit) {
      return c.sharedTransaction(() => {
        if (c.hasDocument(doc.id))
          throw new StoreConflictError('exists', `a document with content uuid ${doc.id} already exists`);
        const at = now();
        c.stmt(
          `INSERT INTO documents (id, model, owner, visibility, revision, last_revision, valid, title, title_lower, version, oscal_version, published, last_modified, document_ids, markings, remarks, created_at, updated_at)
          VALUES (@id, @model, @owner, @visibility, 1, 1, @valid, @title, @title_lower, @version, @oscal_version, @published, @last_modified, @document_ids, @markings, @remarks, @at, @at)`,
        ).run({ ...doc, ...fieldColumns(revision.fields), valid: validOf(revision) ? 1 : 0, at });
        const jobs = writeRevision(c, doc.id, 1, revision, at);
        c.audit(audit);
        return { jobs };
      });
    },

    async replaceDocument(id, revision, audit, ifRevision) {
      return c.sharedTransaction(() => {
        const current = c.stmt('SELECT revision, last_revision FROM documents WHERE id = ?').get(id) as
          { revision: number; last_revision: number } | undefined;
        if (!current) throw new StoreConflictError('not-found', `no document ${id}`);
        if (ifRevision !== undefined && current.revision !== ifRevision)
          throw new StoreConflictError('stale', `revision ${ifRevision} of ${id} is no longer current`);
        const number = current.last_revision + 1;
        const at = now();
        c.stmt(
          `UPDATE documents SET revision = @number, last_revision = @number, valid = @valid, title = @title, title_lower = @title_lower, version = @version, oscal_version = @oscal_version,
          published = @published, last_modified = @last_modified, document_ids = @document_ids, markings = @markings, remarks = @remarks, updated_at = @at WHERE id = @id`,
        ).run({ id, number, ...fieldColumns(revision.fields), valid: validOf(revision) ? 1 : 0, at });
        const jobs = writeRevision(c, id, number, revision, at);
        c.audit(audit);
        return { revision: number, jobs };
      });
    },

    async getDocument(id) {
      return cache.get(id);
    },

    async getDocuments(ids) {
      return [...new Set(ids)].flatMap((id) => cache.get(id) ?? []);
    },

    async listDocuments(query: ListQuery) {
      const column = SORT_COLUMNS[query.sort];
      const where = ['model = @model'];
      const params: Record<string, unknown> = { model: query.model, limit: query.limit };
      if (query.readableBy) where.push(readableWhere(query.readableBy, params));
      if (query.q) {
        params.q = `%${query.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        where.push("title_lower LIKE @q ESCAPE '\\'");
      }
      if (query.valid !== undefined) {
        params.valid = query.valid ? 1 : 0;
        where.push('valid = @valid');
      }
      const op = query.descending ? '<' : '>';
      if (query.after) {
        params.afterKey = query.after.key;
        params.afterId = query.after.id;
        where.push(`(${column} ${op} @afterKey OR (${column} = @afterKey AND id ${op} @afterId))`);
      }
      const dir = query.descending ? 'DESC' : 'ASC';
      const sql = `SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY ${column} ${dir}, id ${dir} LIMIT @limit`;
      return (c.stmt(sql).all(params) as Row[]).map(documentOf);
    },

    async deleteDocument(id, audit) {
      c.transaction(() => {
        const doc = c.stmt('SELECT legal_hold FROM documents WHERE id = ?').get(id) as
          { legal_hold: number } | undefined;
        if (!doc) throw new StoreConflictError('not-found', `no document ${id}`);
        if (doc.legal_hold === 1)
          throw new StoreConflictError('legal-hold', 'the document is under a legal hold and cannot be deleted');
        const hashes = (c.stmt(DOCUMENT_BLOBS('@id')).all({ id }) as { h: string }[]).map((r) => r.h);
        dropSearchEntries(c, id);
        c.stmt('DELETE FROM documents WHERE id = ?').run(id);
        c.dropUnreferenced(hashes);
        c.audit(audit);
      });
    },

    async countDocuments() {
      return (c.stmt('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n;
    },
  };
}
