/**
 * Which matches of a search PostgreSQL ranks, and how it finds them (rankedWindow).
 */
import { RANKED_MATCHES } from '../search-query.js';
import type { Sql } from './connection.js';

/**
 * ts_rank's weights for D, C, B and A: the heading's positions are A, the text's D, and D counts
 * as B does by default (0.4), so rows written while the text was weighted B rank the same.
 */
export const RANK_WEIGHTS = `'{0.4, 0.2, 0.4, 1.0}'::real[]`;

/**
 * The newest RANKED_MATCHES matches, ranked. The planner cannot tell how many rows a query
 * matches (words are not independent: "access" and "control" go together, a model's documents
 * share their words), and its guess picks between reading rows newest first until enough match
 * (right for a common word, a hundred times too slow for a rare one) and fetching every match the
 * GIN index gives to sort them (the reverse). So the store measures instead: it reads the newest
 * 5,000 rows in order, and from the share of them that match expects how far back the rest
 * lie. It reads that range of ids in order if it is short, else fetches its matches through both
 * indexes at once (GIN's matches and the id range ANDed as bitmaps, so only matching rows are
 * read), and so on further back, each range judged from the last, until the window is full.
 * Where the range would be most of what is left, and the share read says its matches are few,
 * it fetches every older match through GIN alone instead: the id range's bitmap costs in
 * proportion to its length (20 ms for 500,000 ids), and a second range would build GIN's bitmap
 * again; unless the planner expects more than 3,000, ten windows (a handful of matches says little), when
 * its estimate sizes the next range instead. Where the newest rows hold no match at all (one
 * large private catalog; a reader whose documents are all older) they say nothing of the rest,
 * and the planner's estimate of all the matches decides: every match is fetched at once where
 * it expects no more than 3,000. Its estimates of single words hold within a tenth; those of
 * phrases and of words that go together fall short, up to fiftyfold, and a fetch that finds more
 * than 3,000 stops there, the ranges going on from what it found, where growing eightfold
 * from the newest rows would build GIN's bitmap twice for most such searches.
 *
 * `candidates`: the query with its phrases' words joined by & (tsQuery), where it has phrases. GIN
 * answers a phrase only by rechecking every row that holds all its words, across the table, and
 * PostgreSQL rechecks each before it tests the row's id against the range (it expects few rows of a
 * phrase, so it does not AND the range's bitmap in): "least privilege" as the admin read a range of
 * 52,500 ids by rechecking 6,909 rows, 75-140 ms, for the 732 in it. GIN answers the candidates
 * exactly, so the range is applied first and only the rows in it are tested for the phrase.
 *
 * The steps run in the server, in search_window (search-window-function.ts): one statement here.
 */
export async function rankedWindow(
  tx: Sql,
  match: string,
  words: string,
  candidates?: string,
): Promise<{ id: number; rank: number }[]> {
  const rows = await tx`SELECT id, rank FROM search_window(${match}::tsquery, ${words || null}::tsquery,
    ${candidates ?? null}::tsquery, ${RANKED_MATCHES}::integer)`;
  return rows.map((r) => ({ id: Number(r.id), rank: Number(r.rank) }));
}
