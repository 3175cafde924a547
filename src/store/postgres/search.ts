import type postgres from 'postgres';
import type { SearchEntry } from '../../oscal/search/extract.js';
import {
  controlKey,
  entryChanges,
  indexedWords,
  openingOf,
  parseSearch,
  snippetOf,
  storedEntry,
  tsQuery,
} from '../search-query.js';
import type { SearchHit, SearchStore } from '../types.js';
import { readableWhere, type Sql } from './connection.js';

/** Entries per INSERT: one JSON parameter each, so a catalog of thousands of controls takes a few round trips. */
const INSERT_ROWS = 1000;

/**
 * Replaces the document's entries with `entries`, inside the caller's transaction (which holds the
 * document's row, so writers of one document take turns). Entries equal to one already stored stay:
 * a revision changes a few objects, and each row written costs a tsvector and GIN updates.
 */
export async function writeSearchEntries(tx: Sql, id: string, entries: SearchEntry[]): Promise<void> {
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
  for (let i = 0; i < add.length; i += INSERT_ROWS) {
    const rows = add.slice(i, i + INSERT_ROWS).map((e) => ({
      path: e.path,
      kind: e.kind,
      key: e.key,
      title: e.title,
      text: e.text,
      control_ids: e.controlIds,
      heading: `${indexedWords(e.key ?? undefined)} ${indexedWords(e.title ?? undefined)}`,
      words: indexedWords(e.text),
    }));
    await tx`INSERT INTO search_entries (document_id, path, kind, key, title, text, control_ids, words)
      SELECT ${id}, r.path, r.kind, r.key, r.title, r.text, r.control_ids,
        setweight(to_tsvector('simple', r.heading), 'A') || setweight(to_tsvector('simple', r.words), 'B')
      FROM jsonb_to_recordset(${tx.json(rows)})
        AS r(path text, kind text, key text, title text, text text, control_ids text[], heading text, words text)`;
  }
}

export function postgresSearch(sql: postgres.Sql): SearchStore {
  return {
    async indexRevision(documentId, revision, entries) {
      return sql.begin(async (tx) => {
        // The row lock orders this after, or before, a write of the same document in any process.
        const [current] = await tx`SELECT revision FROM documents WHERE id = ${documentId} FOR UPDATE`;
        if (current?.revision !== revision) return false;
        await writeSearchEntries(tx, documentId, entries);
        return true;
      });
    },
    async searchEntries(query) {
      const terms = parseSearch(query.text);
      const control = query.controlId === undefined ? undefined : controlKey(query.controlId);
      const tsquery = tsQuery(terms);
      if (control === '' || (tsquery === '' && control === undefined)) return [];
      const params: unknown[] = [];
      const p = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      const match: string[] = [];
      let rank = '0::real';
      if (tsquery) {
        const q = `to_tsquery('simple', ${p(tsquery)})`;
        match.push(`words @@ ${q}`);
        rank = `ts_rank(words, ${q})`;
      }
      if (control !== undefined) match.push(`control_ids @> ARRAY[${p(control)}]::text[]`);
      const where: string[] = [];
      if (query.model !== undefined) where.push(`d.model = ${p(query.model)}`);
      if (query.readableBy) where.push(readableWhere(query.readableBy, p, 'd.'));
      if (query.after) {
        // A real's text form reads back as the same real: the cursor's rank compares exactly.
        const afterRank = p(query.after.rank);
        where.push(`(m.rank < ${afterRank}::real OR (m.rank = ${afterRank}::real AND m.id > ${p(query.after.id)}))`);
      }
      // The matches are found once, through the GIN index, whatever the planner guesses of their
      // number (without statistics it guesses a few, and would repeat the index scan per document
      // of a model); the rows' text is read for the page only.
      const rows = await sql.unsafe(
        `WITH m AS MATERIALIZED (
          SELECT id, document_id, ${rank} AS rank FROM search_entries WHERE ${match.join(' AND ')}
        ), page AS (
          SELECT m.id, m.rank, d.model FROM m JOIN documents d ON d.id = m.document_id
          ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY m.rank DESC, m.id LIMIT ${p(query.limit)}
        )
        SELECT page.id, e.document_id, page.model, e.path, e.kind, e.key, e.title, e.text, page.rank
        FROM page JOIN search_entries e ON e.id = page.id ORDER BY page.rank DESC, page.id`,
        params as postgres.ParameterOrJSON<never>[],
      );
      return rows.map((r) => {
        const text = r.text as string;
        const hit: SearchHit = {
          id: Number(r.id),
          documentId: r.document_id as string,
          model: r.model as string,
          path: r.path as string,
          kind: r.kind as string,
          snippet: terms.length
            ? (snippetOf(text, terms) ??
              snippetOf((r.title as string | null) ?? '', terms) ??
              snippetOf((r.key as string | null) ?? '', terms) ??
              openingOf(text))
            : openingOf(text),
          rank: Number(r.rank),
        };
        if (r.key !== null) hit.key = r.key as string;
        if (r.title !== null) hit.title = r.title as string;
        return hit;
      });
    },
  };
}
