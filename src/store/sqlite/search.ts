import type { SearchEntry } from '../../oscal/search/extract.js';
import { controlKey, entryChanges, ftsControlMatch, ftsMatch, parseSearch, storedEntry } from '../search-query.js';
import type { SearchHit, SearchStore } from '../types.js';
import { readableWhere, type SqliteConnection } from './connection.js';

/** bm25 column weights (key, title, text, control_ids): as PostgreSQL's A and B weigh 1 to 0.4. */
const BM25 = 'bm25(search_fts, 2.5, 2.5, 1.0, 0.0)';
const SNIPPET = `snippet(search_fts, -1, char(2), char(3), '…', 24)`;
/** A search by control alone has no matched words: the excerpt is the opening of the object's text. */
const OPENING = `snippet(search_fts, 2, char(2), char(3), '…', 24)`;

/**
 * Replaces the document's entries with `entries`, inside the caller's transaction. Entries equal
 * to one already stored stay (a revision changes a few objects; the triggers would tokenize every
 * unchanged text twice, to delete and to add it).
 */
export function writeSearchEntries(c: SqliteConnection, id: string, entries: SearchEntry[]): void {
  const old = (
    c
      .stmt('SELECT id, path, kind, key, title, text, control_ids FROM search_entries WHERE document_id = ?')
      .all(id) as {
      id: number;
      path: string;
      kind: string;
      key: string | null;
      title: string | null;
      text: string;
      control_ids: string;
    }[]
  ).map((r) => ({ id: r.id, entry: { ...r, controlIds: JSON.parse(r.control_ids) as string[] } }));
  const { drop, add } = entryChanges(old, entries.map(storedEntry));
  const remove = c.stmt('DELETE FROM search_entries WHERE id = ?');
  for (const rowid of drop) remove.run(rowid);
  const insert = c.stmt(
    'INSERT INTO search_entries (document_id, path, kind, key, title, text, control_ids) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const e of add) insert.run(id, e.path, e.kind, e.key, e.title, e.text, JSON.stringify(e.controlIds));
}

export function sqliteSearch(c: SqliteConnection): SearchStore {
  return {
    async indexRevision(documentId, revision, entries) {
      return c.transaction(() => {
        const current = c.stmt('SELECT revision FROM documents WHERE id = ?').get(documentId) as
          { revision: number } | undefined;
        if (current?.revision !== revision) return false;
        writeSearchEntries(c, documentId, entries);
        return true;
      });
    },
    async searchEntries(query) {
      const terms = parseSearch(query.text);
      const control = query.controlId === undefined ? undefined : controlKey(query.controlId);
      if (control === '' || (terms.length === 0 && control === undefined)) return [];
      const params: Record<string, unknown> = {
        match: terms.length ? ftsMatch(terms) : ftsControlMatch(control!),
        limit: query.limit,
      };
      const where = ['search_fts MATCH @match'];
      if (query.model !== undefined) {
        params.model = query.model;
        where.push('d.model = @model');
      }
      if (query.readableBy) where.push(readableWhere(query.readableBy, params, 'd.'));
      if (control !== undefined) {
        params.control = control;
        where.push('EXISTS (SELECT 1 FROM json_each(e.control_ids) WHERE value = @control)');
      }
      let page = '';
      if (query.after) {
        params.afterRank = query.after.rank;
        params.afterId = query.after.id;
        page = 'WHERE rank < @afterRank OR (rank = @afterRank AND id > @afterId)';
      }
      // One read transaction: the page and its snippets from the same snapshot.
      return c.db.transaction(() => {
        // CROSS JOIN keeps the full-text match as the outer loop: bm25() needs it to drive the query.
        const ranked = c
          .stmt(
            `SELECT id, rank FROM (
            SELECT e.id AS id, ${terms.length ? `-${BM25}` : '0.0'} AS rank
            FROM search_fts CROSS JOIN search_entries e ON e.id = search_fts.rowid CROSS JOIN documents d ON d.id = e.document_id
            WHERE ${where.join(' AND ')}
          ) ${page} ORDER BY rank DESC, id LIMIT @limit`,
          )
          .all(params) as { id: number; rank: number }[];
        // Snippets only for the page: one lookup each, by rowid within the same match (a rowid bound
        // as a JavaScript number is a REAL, which FTS5 does not take as a rowid constraint).
        const detail = c.stmt(
          `SELECT e.document_id AS documentId, d.model AS model, e.path AS path, e.kind AS kind, e.key AS key, e.title AS title, ${terms.length ? SNIPPET : OPENING} AS snippet
        FROM search_fts CROSS JOIN search_entries e ON e.id = search_fts.rowid CROSS JOIN documents d ON d.id = e.document_id
        WHERE search_fts MATCH @match AND search_fts.rowid = CAST(@id AS INTEGER)`,
        );
        return ranked.map(({ id, rank }) => {
          const row = detail.get({ match: params.match, id }) as Omit<SearchHit, 'id' | 'rank'> & {
            key: string | null;
            title: string | null;
          };
          const hit: SearchHit = {
            id,
            documentId: row.documentId,
            model: row.model,
            path: row.path,
            kind: row.kind,
            snippet: row.snippet,
            rank,
          };
          if (row.key !== null) hit.key = row.key;
          if (row.title !== null) hit.title = row.title;
          return hit;
        });
      })();
    },
  };
}
