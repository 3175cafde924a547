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
  rankedPage,
  scopeLexeme,
  sharingTokens,
  storedEntry,
  tsFilterQuery,
  tsQuery,
  tsVectorLiteral,
  type DocumentScope,
  type StoredEntry,
} from '../search-query.js';
import type { SearchStore } from '../types.js';
import type { Sql } from './connection.js';
import type { PendingEntries } from './pending-entries.js';
import type { SearchRowsThread } from './search-rows-thread.js';
import { rankedWindow } from './ranked-window.js';

/** Entries per INSERT, so that a catalog of thousands of controls takes a few round trips, none of them huge. */
const INSERT_ROWS = 1000;

/**
 * An INSERT's rows go as a text parameter a column, the values apart by SEPARATOR, which
 * PostgreSQL splits with string_to_array (a search for the character): as a JSON parameter, they
 * were stringified here and parsed there a character at a time, 0.2-0.3 ms a document more in a
 * micro-benchmark of the INSERT. Stored strings hold no C0 control (storedEntry) and words none at
 * all, so neither character can be in a value. Each value is followed by the separator, as
 * string_to_array reads '' as no values at all, where it must be one empty value.
 */
const SEPARATOR = '\u0001';
const NULL_VALUE = '\u0004';
/** Between a row's control keys, which are words and spaces. */
const INNER_SEPARATOR = '\u0002';
const column = (values: (string | null)[]) => values.map((v) => v ?? NULL_VALUE).join(SEPARATOR) + SEPARATOR;

/** The columns of a document's row (and its grants) that say who may read it, as its entries' scope lexemes carry it. */
export const scopeColumns = (tx: Sql, id: string) =>
  tx`model, owner, visibility, ARRAY(SELECT principal FROM grants WHERE document_id = ${id}) AS grantees`;

export async function scopeOf(tx: Sql, id: string): Promise<DocumentScope> {
  const [doc] = await tx`SELECT ${scopeColumns(tx, id)} FROM documents WHERE id = ${id}`;
  return doc as unknown as DocumentScope;
}

/** An INSERT's rows as its parameters, a text a column (see SEPARATOR). */
export interface RowBatch {
  count: number;
  columns: string[];
}

/**
 * The rows that add `entries` to a document of `scope`, in INSERTs of INSERT_ROWS: each entry's
 * tsvector literal made here, which is most of what indexing costs this process (so writes have it
 * made on the thread of search-rows-thread.ts).
 */
export function searchRows(entries: StoredEntry[], scope: DocumentScope): RowBatch[] {
  const tokens = documentTokens(scope);
  const batches: RowBatch[] = [];
  for (let i = 0; i < entries.length; i += INSERT_ROWS) {
    const rows = entries.slice(i, i + INSERT_ROWS);
    const words = rows.map((e) => {
      const keyWords = indexedWords(e.key ?? undefined);
      const titleWords = indexedWords(e.title ?? undefined);
      const textWords = indexedWords(e.text);
      const lexemes = [
        ...entryTokens(tokens, e).map(scopeLexeme),
        ...idLexemes(keyWords),
        ...idLexemes(titleWords),
        ...idLexemes(textWords),
      ];
      return tsVectorLiteral([...keyWords, ...titleWords], textWords, lexemes);
    });
    const columns = [
      rows.map((e) => e.path),
      rows.map((e) => e.kind),
      rows.map((e) => e.key),
      rows.map((e) => e.title),
      rows.map((e) => e.text),
      rows.map((e) => e.controlIds.join(INNER_SEPARATOR)),
      words,
    ].map(column);
    batches.push({ count: rows.length, columns });
  }
  return batches;
}

/** Adds the rows of searchRows to the document's entries, inside the caller's transaction. */
export async function insertSearchRows(
  tx: Sql,
  id: string,
  batches: RowBatch[],
  pending: PendingEntries,
): Promise<void> {
  for (const { count, columns } of batches) {
    const [path, kind, key, title, text, controls, words] = columns.map(
      (values) => tx`string_to_array(${values}::text, ${SEPARATOR}::text, ${NULL_VALUE}::text)`,
    );
    await tx`INSERT INTO search_entries (document_id, path, kind, key, title, text, control_ids, words)
      SELECT ${id}, r.path, r.kind, r.key, r.title, r.text, string_to_array(r.controls, ${INNER_SEPARATOR}::text), r.words::tsvector
      FROM unnest(${path!}, ${kind!}, ${key!}, ${title!}, ${text!}, ${controls!}, ${words!})
        WITH ORDINALITY AS r(path, kind, key, title, text, controls, words, n)
      WHERE r.n <= ${count}::int`;
    pending.wrote(count);
  }
}

/**
 * Replaces the document's entries with `entries`, inside the caller's transaction (which holds the
 * document's row, so writers of one document take turns, and has read its scope). Entries equal to
 * one already stored stay: a revision changes a few objects, and each row written costs a tsvector
 * and GIN updates. A new document has none: its rows go in through the rows thread and insertSearchRows.
 */
export async function writeSearchEntries(
  tx: Sql,
  id: string,
  entries: SearchEntry[],
  scope: DocumentScope,
  pending: PendingEntries,
  rowsThread: SearchRowsThread,
): Promise<void> {
  const old = (
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
  await insertSearchRows(tx, id, await rowsThread.rows(add, scope), pending);
}

/** With its document, inside the transaction that deletes it: no foreign key does it (migration 12). */
export async function deleteSearchEntries(tx: Sql, id: string): Promise<void> {
  await tx`DELETE FROM search_entries WHERE document_id = ${id}`;
}

/**
 * After a change of visibility or grants, inside its transaction: each entry's sharing lexemes
 * again. Each row rewritten puts all its lexemes in GIN's pending list, as a new row does.
 */
export async function rescopeSearchEntries(
  tx: Sql,
  id: string,
  before: DocumentScope,
  pending: PendingEntries,
): Promise<void> {
  const old = sharingTokens(before).map(scopeLexeme);
  const now = sharingTokens(await scopeOf(tx, id)).map(scopeLexeme);
  if (old.length === now.length && old.every((t) => now.includes(t))) return;
  const { count } =
    await tx`UPDATE search_entries SET words = ts_delete(words, ${tx.array(old)}::text[]) || array_to_tsvector(${tx.array(now)}::text[])
    WHERE document_id = ${id}`;
  pending.wrote(count);
}

export function postgresSearch(sql: postgres.Sql, pending: PendingEntries, rowsThread: SearchRowsThread): SearchStore {
  return {
    async indexRevision(documentId, revision, entries) {
      return sql.begin(async (tx) => {
        // The row lock orders this after, or before, a write of the same document in any process.
        const [current] = await tx`SELECT revision FROM documents WHERE id = ${documentId} FOR UPDATE`;
        if (current?.revision !== revision) return false;
        await writeSearchEntries(tx, documentId, entries, await scopeOf(tx, documentId), pending, rowsThread);
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
      const filter = filterOf(query, control);
      const match = tsFilterQuery(words, filter);
      const candidates = tsFilterQuery(tsQuery(terms, ' & ')!, filter);
      // One snapshot for the window, what follows it and the rows of the page.
      return sql.begin('isolation level repeatable read read only', async (tx) => {
        const window = await rankedWindow(tx, match, words, candidates === match ? undefined : candidates);
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
