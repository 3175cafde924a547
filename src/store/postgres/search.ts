import type postgres from 'postgres';
import type { SearchEntry } from '../../oscal/search/extract.js';
import {
  controlKey,
  documentTokens,
  entryChanges,
  entryTokens,
  filterOf,
  hitOf,
  idLexemes,
  indexedWords,
  parseSearch,
  RANKED_MATCHES,
  rankedPage,
  scopeLexeme,
  sharingTokens,
  storedEntry,
  tsFilterQuery,
  tsQuery,
  tsVectorLiteral,
  type DocumentScope,
} from '../search-query.js';
import type { SearchStore } from '../types.js';
import type { Sql } from './connection.js';
import type { PendingEntries } from './pending-entries.js';

/** Entries per INSERT: one JSON parameter each, so a catalog of thousands of controls takes a few round trips. */
const INSERT_ROWS = 1000;

/** The columns of a document's row (and its grants) that say who may read it, as its entries' scope lexemes carry it. */
export const scopeColumns = (tx: Sql, id: string) =>
  tx`model, owner, visibility, ARRAY(SELECT principal FROM grants WHERE document_id = ${id}) AS grantees`;

export async function scopeOf(tx: Sql, id: string): Promise<DocumentScope> {
  const [doc] = await tx`SELECT ${scopeColumns(tx, id)} FROM documents WHERE id = ${id}`;
  return doc as unknown as DocumentScope;
}

/**
 * Replaces the document's entries with `entries`, inside the caller's transaction (which holds the
 * document's row, so writers of one document take turns, and has read its scope). Entries equal to
 * one already stored stay: a revision changes a few objects, and each row written costs a tsvector
 * and GIN updates. A document just created has none to read.
 */
export async function writeSearchEntries(
  tx: Sql,
  id: string,
  entries: SearchEntry[],
  scope: DocumentScope,
  pending: PendingEntries,
  created = false,
): Promise<void> {
  const old = created
    ? []
    : (
        await tx`SELECT id, path, kind, key, title, text, control_ids FROM search_entries WHERE document_id = ${id}`
      ).map((r) => ({
        id: r.id as string,
        entry: {
          path: r.path as string,
          kind: r.kind as string,
          key: r.key as string | null,
          title: r.title as string | null,
          text: r.text as string,
          controlIds: r.control_ids as string[],
        },
      }));
  const { drop, add } = entryChanges(old, entries.map(storedEntry));
  if (drop.length) await tx`DELETE FROM search_entries WHERE id = ANY(${tx.array(drop)}::bigint[])`;
  const tokens = documentTokens(scope);
  for (let i = 0; i < add.length; i += INSERT_ROWS) {
    const rows = add.slice(i, i + INSERT_ROWS).map((e) => {
      const keyWords = indexedWords(e.key ?? undefined);
      const titleWords = indexedWords(e.title ?? undefined);
      const textWords = indexedWords(e.text);
      const lexemes = [
        ...entryTokens(tokens, e).map(scopeLexeme),
        ...idLexemes(keyWords),
        ...idLexemes(titleWords),
        ...idLexemes(textWords),
      ];
      return {
        path: e.path,
        kind: e.kind,
        key: e.key,
        title: e.title,
        text: e.text,
        control_ids: e.controlIds,
        words: tsVectorLiteral([...keyWords, ...titleWords], textWords, lexemes),
      };
    });
    await tx`INSERT INTO search_entries (document_id, path, kind, key, title, text, control_ids, words)
      SELECT ${id}, r.path, r.kind, r.key, r.title, r.text, r.control_ids, r.words
      FROM jsonb_to_recordset(${tx.json(rows)})
        AS r(path text, kind text, key text, title text, text text, control_ids text[], words tsvector)`;
  }
  pending.wrote(add.length);
}

/** After a change of visibility or grants, inside its transaction: each entry's sharing lexemes again. */
export async function rescopeSearchEntries(tx: Sql, id: string, before: DocumentScope): Promise<void> {
  const old = sharingTokens(before).map(scopeLexeme);
  const now = sharingTokens(await scopeOf(tx, id)).map(scopeLexeme);
  if (old.length === now.length && old.every((t) => now.includes(t))) return;
  await tx`UPDATE search_entries SET words = ts_delete(words, ${tx.array(old)}::text[]) || array_to_tsvector(${tx.array(now)}::text[])
    WHERE document_id = ${id}`;
}

/** The newest entries read in order first: what share of them match says where to find the rest. */
const FIRST_ROWS = 5_000;

/**
 * Ranges expected to span up to this many ids are read in order, larger ones through the indexes:
 * GIN's bitmap of a common word costs as much as reading some 20,000 rows, whatever the range.
 */
const IN_ORDER_ROWS = 20_000;
/** Range of ids read at once after one that had no match: eight times it. */
const GROWTH = 8;

/** How many ids back `need` matches are expected, from `found` in the last `rows`: twice that, should older rows match less. */
const expectedSpan = (need: number, found: number, rows: number) =>
  found > 0 ? Math.ceil((2 * need * rows) / found) : GROWTH * rows;

/**
 * The newest RANKED_MATCHES matches, ranked. The planner cannot tell how many rows a query
 * matches (words are not independent: "access" and "control" go together, a model's documents
 * share their words), and its guess picks between reading rows newest first until enough match
 * (right for a common word, a hundred times too slow for a rare one) and fetching every match the
 * GIN index gives to sort them (the reverse). So the store measures instead: it reads the newest
 * FIRST_ROWS rows in order, and from the share of them that match expects how far back the rest
 * lie. It reads that range of ids in order if it is short, else fetches its matches through both
 * indexes at once (GIN's matches and the id range ANDed as bitmaps, so only matching rows are
 * read), and so on further back, each range judged from the last, until the window is full.
 * The newest rows may hold no match at all (one large private catalog, say): ranges then grow
 * eightfold, where fetching every older match would read thousands of rows to keep a few hundred.
 */
async function rankedWindow(tx: Sql, match: string, words: string): Promise<{ id: number; rank: number }[]> {
  const rank = words ? 'ts_rank(words, $2::tsquery)' : '0::real';
  const params = words ? [match, words] : [match];
  const read = async (rows: string, limit: number) =>
    (
      await tx.unsafe(
        // Ranked once found: the innermost LIMIT comes first.
        `SELECT id, ${rank} AS rank FROM (
          SELECT id, words FROM (${rows}) r WHERE words @@ $1::tsquery ORDER BY id DESC LIMIT ${limit}
        ) m ORDER BY id DESC`,
        params,
      )
    ).map((r) => ({ id: Number(r.id), rank: Number(r.rank) }));
  // The oldest id, and the id FIRST_ROWS rows down (the oldest where there are fewer).
  const [ends] = await tx.unsafe(`SELECT min(id) AS first,
    (SELECT id FROM search_entries ORDER BY id DESC OFFSET ${FIRST_ROWS - 1} LIMIT 1) AS edge FROM search_entries`);
  if (ends?.first === null || ends?.first === undefined) return [];
  const first = Number(ends.first);
  let edge = ends.edge === null ? first : Number(ends.edge);
  // OFFSET 0 keeps the planner from making the read an index lookup.
  const window = await read(
    `SELECT id, words FROM search_entries WHERE id >= ${edge} ORDER BY id DESC OFFSET 0`,
    RANKED_MATCHES,
  );
  let need = RANKED_MATCHES - window.length;
  // Ids span at least as many rows as they number: fewer where entries were replaced or deleted.
  let span = expectedSpan(need, window.length, FIRST_ROWS);
  while (need > 0 && edge > first) {
    const from = Math.max(first, edge - span);
    const range = `SELECT id, words FROM search_entries WHERE id >= ${from} AND id < ${edge}`;
    let more: { id: number; rank: number }[];
    if (span <= IN_ORDER_ROWS) more = await read(`${range} ORDER BY id DESC OFFSET 0`, need);
    else {
      // Through the indexes, whatever the planner guesses.
      await tx.unsafe('SET LOCAL enable_indexscan = off; SET LOCAL enable_seqscan = off');
      more = await read(range, need);
      await tx.unsafe('SET LOCAL enable_indexscan = on; SET LOCAL enable_seqscan = on');
    }
    window.push(...more);
    need -= more.length;
    span = expectedSpan(need, more.length, edge - from);
    edge = from;
  }
  return window;
}

export function postgresSearch(sql: postgres.Sql, pending: PendingEntries): SearchStore {
  return {
    async indexRevision(documentId, revision, entries) {
      return sql.begin(async (tx) => {
        // The row lock orders this after, or before, a write of the same document in any process.
        const [current] = await tx`SELECT revision FROM documents WHERE id = ${documentId} FOR UPDATE`;
        if (current?.revision !== revision) return false;
        await writeSearchEntries(tx, documentId, entries, await scopeOf(tx, documentId), pending);
        return true;
      });
    },
    async unindexedDocuments(after, limit) {
      const rows = await sql`SELECT id, revision FROM documents d WHERE id > ${after}
        AND NOT EXISTS (SELECT 1 FROM search_entries WHERE document_id = d.id) ORDER BY id LIMIT ${limit}`;
      return rows.map((r) => ({ id: r.id as string, revision: r.revision as number }));
    },
    async searchEntries(query) {
      const terms = parseSearch(query.text);
      const control = query.controlId === undefined ? undefined : controlKey(query.controlId);
      const words = tsQuery(terms);
      if (words === undefined || control === '' || (words === '' && control === undefined)) return [];
      const match = tsFilterQuery(words, filterOf(query, control));
      // One snapshot for the window, what follows it and the rows of the page.
      return sql.begin('isolation level repeatable read read only', async (tx) => {
        const window = await rankedWindow(tx, match, words);
        const { hits, from } = rankedPage(window, query.after, query.limit);
        if (from !== undefined) {
          const more = await tx`SELECT id FROM search_entries WHERE words @@ ${match}::tsquery AND id < ${from}
            ORDER BY id DESC LIMIT ${query.limit - hits.length}`;
          hits.push(...more.map((r) => ({ id: Number(r.id), rank: null })));
        }
        if (hits.length === 0) return [];
        const rows = await tx`SELECT e.id, e.document_id, d.model, e.path, e.kind, e.key, e.title, e.text
          FROM search_entries e JOIN documents d ON d.id = e.document_id WHERE e.id = ANY(${tx.array(hits.map((h) => h.id))}::bigint[])`;
        const byId = new Map(rows.map((r) => [Number(r.id), r as unknown as Parameters<typeof hitOf>[0]]));
        return hits.flatMap((h) => {
          const row = byId.get(h.id);
          return row ? [hitOf(row, h, terms)] : [];
        });
      });
    },
  };
}
