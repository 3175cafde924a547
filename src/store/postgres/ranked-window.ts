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

/** The newest entries read in order first: what share of them match says where to find the rest. */
const FIRST_ROWS = 5_000;

/**
 * Ranges expected to span up to this many ids are read in order, larger ones through the indexes:
 * GIN's bitmap of a common word costs as much as reading some 20,000 rows, whatever the range.
 */
const IN_ORDER_ROWS = 20_000;
/** Range of ids read at once after one that had no match: eight times it. */
const GROWTH = 8;
/**
 * A fetch of every match older than a point through GIN alone gives up past this many, having
 * read no more rows than that: some 1.5-3.5 µs a row, where GIN's bitmap of a common word costs
 * 5-10 ms, so that a fetch that gives up costs about what a second bitmap would.
 */
const FETCH_ALL = 10 * RANKED_MATCHES;
/** Where the rows read say at most this many matches are left, they are all fetched at once. */
const FETCH_EXPECTED = 2 * RANKED_MATCHES;

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
 * Where the range would be most of what is left, and the share read says its matches are few,
 * it fetches every older match through GIN alone instead: the id range's bitmap costs in
 * proportion to its length (20 ms for 500,000 ids), and a second range would build GIN's bitmap
 * again; unless the planner expects more than FETCH_ALL (a handful of matches says little), when
 * its estimate sizes the next range instead. Where the newest rows hold no match at all (one
 * large private catalog; a reader whose documents are all older) they say nothing of the rest,
 * and the planner's estimate of all the matches decides: every match is fetched at once where
 * it expects no more than FETCH_ALL. Its estimates of single words hold within a tenth; those of
 * phrases and of words that go together fall short, up to fiftyfold, and a fetch that finds more
 * than FETCH_ALL stops there, the ranges going on from what it found, where growing eightfold
 * from the newest rows would build GIN's bitmap twice for most such searches.
 *
 * `candidates`: the query with its phrases' words joined by & (tsQuery), where it has phrases. GIN
 * answers a phrase only by rechecking every row that holds all its words, across the table, and
 * PostgreSQL rechecks each before it tests the row's id against the range (it expects few rows of a
 * phrase, so it does not AND the range's bitmap in): "least privilege" as the admin read a range of
 * 52,500 ids by rechecking 6,909 rows, 75-140 ms, for the 732 in it. GIN answers the candidates
 * exactly, so the range is applied first and only the rows in it are tested for the phrase.
 */
export async function rankedWindow(
  tx: Sql,
  match: string,
  words: string,
  candidates?: string,
): Promise<{ id: number; rank: number }[]> {
  const rank = words ? `ts_rank(${RANK_WEIGHTS}, words, $2::tsquery)` : '0::real';
  const params = words ? [match, words] : [match];
  /** `rows` may name `candidates` as this parameter, given then as well. */
  const candidatesParam = `$${params.length + 1}::tsquery`;
  const read = async (rows: string, limit: number, extra: string[] = []) =>
    (
      await tx.unsafe(
        // Ranked once found: the innermost LIMIT comes first.
        `SELECT id, ${rank} AS rank FROM (
          SELECT id, words FROM (${rows}) r WHERE words @@ $1::tsquery ORDER BY id DESC LIMIT ${limit}
        ) m ORDER BY id DESC`,
        [...params, ...extra],
      )
    ).map((r) => ({ id: Number(r.id), rank: Number(r.rank) }));
  const throughIndexes = async <T>(query: () => Promise<T>): Promise<T> => {
    // Whatever the planner guesses: a bitmap of GIN's matches.
    await tx.unsafe('SET LOCAL enable_indexscan = off; SET LOCAL enable_seqscan = off');
    const result = await query();
    await tx.unsafe('SET LOCAL enable_indexscan = on; SET LOCAL enable_seqscan = on');
    return result;
  };
  /** The newest `need` matches below `edge`, or undefined where there are more than FETCH_ALL. */
  const fetchAll = async (edge: number, need: number) => {
    // `id + 0`: not a condition the primary key's index could take. The matches come in the
    // table's order; the newest of them are picked there, not sent here.
    const found = await throughIndexes(() =>
      tx.unsafe(
        `WITH m AS MATERIALIZED (
          SELECT id FROM search_entries WHERE words @@ $1::tsquery AND id + 0 < ${edge} LIMIT ${FETCH_ALL + 1}
        ) SELECT id, (SELECT count(*) FROM m) AS n FROM m ORDER BY id DESC LIMIT ${need}`,
        [match],
      ),
    );
    if (found.length > 0 && Number(found[0]!.n) > FETCH_ALL) return undefined;
    const newest = found.map((r) => Number(r.id));
    if (!words || newest.length === 0) return newest.map((id) => ({ id, rank: 0 }));
    const ranked = await tx.unsafe(
      `SELECT id, ts_rank(${RANK_WEIGHTS}, words, $1::tsquery) AS rank FROM search_entries WHERE id = ANY($2::bigint[])`,
      [words, newest],
    );
    const rankOf = new Map(ranked.map((r) => [Number(r.id), Number(r.rank)]));
    return newest.map((id) => ({ id, rank: rankOf.get(id)! }));
  };
  const [ends] = await tx.unsafe('SELECT min(id) AS first, max(id) AS last FROM search_entries');
  if (ends?.first === null || ends?.first === undefined) return [];
  const first = Number(ends.first);
  const last = Number(ends.last);
  // The newest FIRST_ROWS ids: as many rows, or fewer where entries were replaced or deleted.
  let edge = Math.max(first, last - FIRST_ROWS + 1);
  // OFFSET 0 keeps the planner from making the read an index lookup.
  const window = await read(
    `SELECT id, words FROM search_entries WHERE id >= ${edge} ORDER BY id DESC OFFSET 0`,
    RANKED_MATCHES,
  );
  let need = RANKED_MATCHES - window.length;
  let span = expectedSpan(need, window.length, last - edge + 1);
  let fetched = false;
  let planned: number | undefined;
  const estimate = async () => (planned ??= await plannedRows(tx, match));
  const fetchFirst = window.length === 0 && edge > first && (await estimate()) <= FETCH_ALL;
  while (need > 0 && edge > first) {
    const left = edge - first;
    // `span` holds `need` matches twice over: the matches expected in all that is left.
    const expectedLeft = (2 * need * left) / span;
    if (!fetched && (fetchFirst || (2 * span >= left && expectedLeft <= FETCH_EXPECTED))) {
      fetched = true;
      // A handful of matches among the newest rows says little: where the planner expects many
      // more (a word in one entry of each document, few of them among the newest), its estimate
      // sizes the next range, and the fetch, which would read FETCH_ALL rows to give up, is not made.
      const older = fetchFirst ? 0 : (await estimate()) - window.length;
      if (older > FETCH_ALL) span = expectedSpan(need, older, left);
      else {
        const all = await fetchAll(edge, need);
        if (all) {
          window.push(...all);
          break;
        }
        span = expectedSpan(need, FETCH_ALL, left);
        continue;
      }
    }
    const from = Math.max(first, edge - span);
    const range = `SELECT id, words FROM search_entries WHERE id >= ${from} AND id < ${edge}`;
    const more =
      span <= IN_ORDER_ROWS
        ? await read(`${range} ORDER BY id DESC OFFSET 0`, need)
        : await throughIndexes(() =>
            candidates === undefined
              ? read(range, need)
              : read(`${range} AND words @@ ${candidatesParam} OFFSET 0`, need, [candidates]),
          );
    window.push(...more);
    need -= more.length;
    span = expectedSpan(need, more.length, edge - from);
    edge = from;
  }
  return window;
}

/** The planner's estimate of the rows `match` finds: from the lexemes' frequencies ANALYZE sampled. */
export async function plannedRows(tx: Sql, match: string): Promise<number> {
  const [row] = await tx.unsafe('EXPLAIN (FORMAT JSON) SELECT id FROM search_entries WHERE words @@ $1::tsquery', [
    match,
  ]);
  const [plan] = (row as unknown as { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] })['QUERY PLAN'];
  return plan!.Plan['Plan Rows'];
}
