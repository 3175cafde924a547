import type { SearchEntry } from '../../oscal/search/extract.js';
import {
  controlKey,
  documentTokens,
  entryChanges,
  entryTokens,
  filterOf,
  hitOf,
  ftsMatch,
  parseSearch,
  RANKED_MATCHES,
  rankedPage,
  storedEntry,
  type DocumentScope,
} from '../search-query.js';
import type { SearchStore } from '../types.js';
import type { SqliteConnection } from './connection.js';

/** bm25 column weights (key, title, text, scope): as PostgreSQL's A and B weigh 1 to 0.4. */
const BM25 = 'bm25(search_fts, 2.5, 2.5, 1.0, 0.0)';

/** Who may read the document, from its row and grants, as its entries' scope tokens carry it. */
function scopeOf(c: SqliteConnection, id: string): DocumentScope {
  const doc = c.stmt('SELECT model, owner, visibility FROM documents WHERE id = ?').get(id) as Omit<
    DocumentScope,
    'grantees'
  >;
  const grantees = (
    c.stmt('SELECT principal FROM grants WHERE document_id = ?').all(id) as { principal: string }[]
  ).map((g) => g.principal);
  return { ...doc, grantees };
}

/** An entry as stored: FTS5 removes an entry from an external-content index given the values it indexed. */
interface EntryRow {
  id: number;
  path: string;
  kind: string;
  key: string | null;
  title: string | null;
  text: string;
  control_ids: string;
  scope: string;
}

/*
 * The writer keeps search_fts in step with search_entries itself, where triggers did until
 * migration 11. FTS5 writes its pending terms out as a segment (for it to merge later) at every
 * savepoint, and SQLite opens one for each trigger's statement and for each statement that writes
 * several rows (INSERT ... SELECT) within a transaction. So a write's entries go into the index in
 * one INSERT ... SELECT while nothing is pending (the first write of a transaction), and a
 * statement per entry after other writes in a shared transaction (group-commit.ts): a transaction
 * writes one segment, for one document's fifty-odd entries or for all of its documents'.
 */
const FTS_CHANGES = {
  add: 'INSERT INTO search_fts (rowid, key, title, text, scope) VALUES (?, ?, ?, ?, ?)',
  remove: "INSERT INTO search_fts (search_fts, rowid, key, title, text, scope) VALUES ('delete', ?, ?, ?, ?, ?)",
};
function changeIndex(
  c: SqliteConnection,
  change: keyof typeof FTS_CHANGES,
  r: Pick<EntryRow, 'id' | 'key' | 'title' | 'text' | 'scope'>,
): void {
  c.stmt(FTS_CHANGES[change]).run(r.id, r.key, r.title, r.text, r.scope);
}

const entryRows = (c: SqliteConnection, id: string) =>
  c.stmt('SELECT * FROM search_entries WHERE document_id = ?').all(id) as EntryRow[];

/**
 * Replaces the document's entries with `entries`, inside the caller's transaction. Entries equal
 * to one already stored stay (a revision changes a few objects; the index would tokenize every
 * unchanged text twice, to delete and to add it).
 */
export function writeSearchEntries(c: SqliteConnection, id: string, entries: SearchEntry[]): void {
  const old = new Map(entryRows(c, id).map((r) => [r.id, r]));
  const { drop, add } = entryChanges(
    [...old.values()].map((r) => ({ id: r.id, entry: { ...r, controlIds: JSON.parse(r.control_ids) as string[] } })),
    entries.map(storedEntry),
  );
  const remove = c.stmt('DELETE FROM search_entries WHERE id = ?');
  for (const rowid of drop) {
    changeIndex(c, 'remove', old.get(rowid)!);
    remove.run(rowid);
  }
  if (add.length === 0) return;
  const tokens = documentTokens(scopeOf(c, id));
  const insert = c.stmt(
    'INSERT INTO search_entries (document_id, path, kind, key, title, text, control_ids, scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const othersPending = c.followsOtherWrites;
  let first: number | bigint | undefined;
  for (const e of add) {
    const scope = entryTokens(tokens, e).join(' ');
    const { key, title, text } = e;
    const { lastInsertRowid } = insert.run(id, e.path, e.kind, key, title, text, JSON.stringify(e.controlIds), scope);
    if (othersPending) changeIndex(c, 'add', { id: Number(lastInsertRowid), key, title, text, scope });
    else first ??= lastInsertRowid;
  }
  // Otherwise one statement indexes them all, where one per entry cost a tenth of a millisecond a
  // document more: a new rowid is the largest plus one, so the rows from the first on are this write's.
  if (!othersPending)
    c.stmt(
      'INSERT INTO search_fts (rowid, key, title, text, scope) SELECT id, key, title, text, scope FROM search_entries WHERE id >= ?',
    ).run(first);
}

/** Before the document's row goes (its entries would go with it, leaving their words in the index): its entries, from both. */
export function dropSearchEntries(c: SqliteConnection, id: string): void {
  for (const r of entryRows(c, id)) changeIndex(c, 'remove', r);
  c.stmt('DELETE FROM search_entries WHERE document_id = ?').run(id);
}

/** After a change of visibility or grants, inside its transaction: each entry's scope tokens again. */
export function rescopeSearchEntries(c: SqliteConnection, id: string): void {
  const tokens = documentTokens(scopeOf(c, id));
  const update = c.stmt('UPDATE search_entries SET scope = ? WHERE id = ?');
  for (const r of entryRows(c, id)) {
    const scope = entryTokens(tokens, { controlIds: JSON.parse(r.control_ids) as string[] }).join(' ');
    if (scope === r.scope) continue;
    changeIndex(c, 'remove', r);
    update.run(scope, r.id);
    changeIndex(c, 'add', { ...r, scope });
  }
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
    async unindexedDocuments(after, limit) {
      return c
        .stmt(
          `SELECT id, revision FROM documents d WHERE id > ? AND NOT EXISTS (SELECT 1 FROM search_entries WHERE document_id = d.id)
          ORDER BY id LIMIT ?`,
        )
        .all(after, limit) as { id: string; revision: number }[];
    },
    async searchEntries(query) {
      const terms = parseSearch(query.text);
      const control = query.controlId === undefined ? undefined : controlKey(query.controlId);
      if (control === '' || (terms.length === 0 && control === undefined)) return [];
      const match = ftsMatch(terms, filterOf(query, control));
      // One read transaction: the page and its rows from the same snapshot.
      return c.db.transaction(() => {
        // The newest matches, newest first (the FTS index walks its rowids backwards and stops).
        const window = c
          .stmt(
            `SELECT rowid AS id, ${terms.length ? `-${BM25}` : '0.0'} AS rank FROM search_fts WHERE search_fts MATCH ?
            ORDER BY rowid DESC LIMIT ${RANKED_MATCHES}`,
          )
          .all(match) as { id: number; rank: number }[];
        const { hits, from } = rankedPage(window, query.after, query.limit);
        if (from !== undefined) {
          // A rowid bound as a JavaScript number is a REAL, which FTS5 does not take as a rowid constraint.
          const more = c
            .stmt(
              'SELECT rowid AS id FROM search_fts WHERE search_fts MATCH ? AND rowid < CAST(? AS INTEGER) ORDER BY rowid DESC LIMIT ?',
            )
            .all(match, from, query.limit - hits.length) as { id: number }[];
          hits.push(...more.map(({ id }) => ({ id, rank: null })));
        }
        const row = c.stmt(
          `SELECT e.document_id, d.model, e.path, e.kind, e.key, e.title, e.text
          FROM search_entries e JOIN documents d ON d.id = e.document_id WHERE e.id = CAST(? AS INTEGER)`,
        );
        // An index entry with no row behind it (a store edited by hand) is left out, as the
        // PostgreSQL store leaves out an id it finds no row for: the page is shorter, not a 500.
        return hits.flatMap((h) => {
          const found = row.get(h.id) as Parameters<typeof hitOf>[0] | undefined;
          return found ? [hitOf(found, h, terms)] : [];
        });
      })();
    },
  };
}
