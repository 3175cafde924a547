import type postgres from 'postgres';
import { DOCUMENT_BLOBS, documentOf, fieldColumns, validOf } from '../rows.js';
import { type DocumentStore } from '../types.js';
import { audit, dropUnreferenced, now, readableWhere } from './connection.js';
import type { PendingEntries } from './pending-entries.js';
import type { SearchRowsThread } from './search-rows-thread.js';
import { writeRevision } from './revision-writes.js';
import { deleteSearchEntries } from './search.js';
import { StoreConflictError } from '../../errors.js';

const SORT_COLUMNS = { title: 'title_lower', 'last-modified': 'last_modified', created: 'created_at' } as const;

export function postgresDocuments(
  sql: postgres.Sql,
  pending: PendingEntries,
  rowsThread: SearchRowsThread,
): DocumentStore {
  return {
    async createDocument(doc, revision, entry) {
      return sql.begin(async (tx) => {
        const at = now();
        const row = {
          ...doc,
          ...fieldColumns(revision.fields),
          revision: 1,
          last_revision: 1,
          valid: validOf(revision),
          created_at: at,
          updated_at: at,
        };
        const inserted = await tx`INSERT INTO documents ${tx(row)} ON CONFLICT (id) DO NOTHING RETURNING id`;
        if (inserted.length === 0)
          throw new StoreConflictError('exists', `a document with content uuid ${doc.id} already exists`);
        const jobs = await writeRevision(tx, doc.id, 1, revision, at, pending, rowsThread);
        await audit(tx, entry);
        return { jobs };
      });
    },

    async replaceDocument(id, revision, entry, ifRevision) {
      return sql.begin(async (tx) => {
        // The row lock makes concurrent writers, in any process, number their revisions in turn.
        const [current] = await tx`SELECT revision, last_revision FROM documents WHERE id = ${id} FOR UPDATE`;
        if (!current) throw new StoreConflictError('not-found', `no document ${id}`);
        if (ifRevision !== undefined && current.revision !== ifRevision)
          throw new StoreConflictError('stale', `revision ${ifRevision} of ${id} is no longer current`);
        const number = (current.last_revision as number) + 1;
        const at = now();
        await tx`UPDATE documents SET ${tx({ ...fieldColumns(revision.fields), revision: number, last_revision: number, valid: validOf(revision), updated_at: at })} WHERE id = ${id}`;
        const jobs = await writeRevision(tx, id, number, revision, at, pending, rowsThread);
        await audit(tx, entry);
        return { revision: number, jobs };
      });
    },

    async getDocument(id) {
      const [row] = await sql`SELECT * FROM documents WHERE id = ${id}`;
      return row && documentOf(row);
    },

    async getDocuments(ids) {
      const rows = await sql`SELECT * FROM documents WHERE id = ANY(${sql.array([...ids])}::text[])`;
      return rows.map(documentOf);
    },

    async listDocuments(query) {
      const column = SORT_COLUMNS[query.sort];
      const params: unknown[] = [query.model];
      const p = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      const where = ['model = $1'];
      if (query.readableBy) where.push(readableWhere(query.readableBy, p));
      if (query.q)
        where.push(
          `title_lower LIKE ${p(`%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)} ESCAPE '\\'`,
        );
      if (query.valid !== undefined) where.push(`valid = ${p(query.valid)}`);
      const op = query.descending ? '<' : '>';
      if (query.after) {
        const key = p(query.after.key);
        const after = p(query.after.id);
        where.push(`(${column} ${op} ${key} OR (${column} = ${key} AND id ${op} ${after}))`);
      }
      const dir = query.descending ? 'DESC' : 'ASC';
      const rows = await sql.unsafe(
        `SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY ${column} ${dir}, id ${dir} LIMIT ${p(query.limit)}`,
        params as postgres.ParameterOrJSON<never>[],
      );
      return rows.map(documentOf);
    },

    async deleteDocument(id, entry) {
      await sql.begin(async (tx) => {
        const [doc] = await tx`SELECT legal_hold FROM documents WHERE id = ${id} FOR UPDATE`;
        if (!doc) throw new StoreConflictError('not-found', `no document ${id}`);
        if (doc.legal_hold)
          throw new StoreConflictError('legal-hold', 'the document is under a legal hold and cannot be deleted');
        const hashes = (await tx.unsafe(DOCUMENT_BLOBS('$1'), [id])).map((r) => r.h as string);
        await deleteSearchEntries(tx, id);
        await tx`DELETE FROM documents WHERE id = ${id}`;
        await dropUnreferenced(tx, hashes);
        await audit(tx, entry);
      });
    },

    async countDocuments() {
      const [row] = await sql`SELECT COUNT(*) AS n FROM documents`;
      return Number(row!.n);
    },
  };
}
