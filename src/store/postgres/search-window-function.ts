/**
 * The PostgreSQL functions that find a search's ranked window (ranked-window.ts says how), made
 * by migration 13. They run in the server so that a search is one statement there, where the
 * same steps sent from here were some fifteen round trips, each 0.2-0.6 ms on a loopback
 * connection and more where the database is on another host. A change of them is a new
 * migration that replaces them.
 *
 * Every read is EXECUTEd, so that it is planned for its own ids and query, as the statements sent
 * from here were: a plan cached for any range would pick one way of reading for all of them.
 * Integers are written into the SQL with %s (format() with integer arguments); queries are
 * parameters ($1 the match, $2 the words to rank by, $3 a phrase's candidates).
 */
import { RANK_WEIGHTS } from './ranked-window.js';

/** `sql` as the text of a string literal. */
const quoted = (sql: string) => sql.replaceAll("'", "''");

export const SEARCH_WINDOW_FUNCTIONS = `
  -- How many ids back 'need' matches are expected, from 'found' in the last 'rows': twice that,
  -- should older rows match less; eight times the rows where they held none.
  CREATE FUNCTION search_window_span(need integer, found double precision, rows bigint)
  RETURNS bigint LANGUAGE sql IMMUTABLE
  AS $$ SELECT CASE WHEN found > 0 THEN ceil(2.0 * need * rows / found)::bigint ELSE 8 * rows END $$;

  -- The newest 'lim' matches among 'rows' (a query of id and words), newest first, ranked.
  CREATE FUNCTION search_window_read(rows text, lim integer, match tsquery, words tsquery, candidates tsquery,
    OUT ids bigint[], OUT ranks real[])
  LANGUAGE plpgsql VOLATILE
  AS $$
  BEGIN
    EXECUTE format(
      'SELECT coalesce(array_agg(id ORDER BY id DESC), ''{}''), coalesce(array_agg(rank ORDER BY id DESC), ''{}'')
       FROM (SELECT id, %s AS rank FROM (
         SELECT id, words FROM (%s) r WHERE words @@ $1 ORDER BY id DESC LIMIT %s
       ) m) ranked',
      CASE WHEN words IS NULL THEN '0::real' ELSE 'ts_rank(${quoted(RANK_WEIGHTS)}, words, $2)' END,
      rows, lim)
    INTO ids, ranks USING match, words, candidates;
  END $$;

  -- The planner's estimate of the rows 'match' finds, from the lexemes' frequencies ANALYZE sampled.
  CREATE FUNCTION search_window_planned(match tsquery) RETURNS double precision
  LANGUAGE plpgsql VOLATILE
  AS $$
  DECLARE
    plan json;
  BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) SELECT id FROM search_entries WHERE words @@ $1' INTO plan USING match;
    RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::double precision;
  END $$;

  CREATE FUNCTION search_window(match tsquery, words tsquery, candidates tsquery, ranked integer)
  RETURNS TABLE (id bigint, rank real)
  LANGUAGE plpgsql VOLATILE
  AS $$
  #variable_conflict use_column
  DECLARE
    -- The newest ids read in order first: what share of them match says where to find the rest.
    first_rows CONSTANT bigint := 5000;
    -- Ranges expected to span up to this many ids are read in order, larger ones through the
    -- indexes: GIN's bitmap of a common word costs as much as reading some 20,000 rows.
    in_order_rows CONSTANT bigint := 20000;
    -- A fetch of every match older than a point through GIN alone gives up past this many, having
    -- read no more rows than that: some 1.5-3.5 us a row, where GIN's bitmap of a common word
    -- costs 5-10 ms, so that a fetch that gives up costs about what a second bitmap would.
    fetch_all CONSTANT integer := 10 * ranked;
    -- Where the rows read say at most this many matches are left, they are all fetched at once.
    fetch_expected CONSTANT integer := 2 * ranked;
    first_id bigint;
    last_id bigint;
    edge bigint;
    range_from bigint;
    range_rows text;
    need integer;
    span bigint;
    fetched boolean := false;
    fetch_first boolean := false;
    planned double precision;
    older double precision;
    total bigint;
    ids bigint[];
    ranks real[];
    more_ids bigint[];
    more_ranks real[];
  BEGIN
    SELECT min(e.id), max(e.id) INTO first_id, last_id FROM search_entries e;
    IF first_id IS NULL THEN RETURN; END IF;
    -- The newest first_rows ids: as many rows, or fewer where entries were replaced or deleted.
    -- OFFSET 0 keeps the planner from making the read an index lookup.
    edge := greatest(first_id, last_id - first_rows + 1);
    SELECT r.ids, r.ranks INTO ids, ranks FROM search_window_read(
      format('SELECT id, words FROM search_entries WHERE id >= %s ORDER BY id DESC OFFSET 0', edge),
      ranked, match, words, candidates) r;
    need := ranked - cardinality(ids);
    span := search_window_span(need, cardinality(ids), last_id - edge + 1);
    IF cardinality(ids) = 0 AND edge > first_id THEN
      planned := search_window_planned(match);
      fetch_first := planned <= fetch_all;
    END IF;
    WHILE need > 0 AND edge > first_id LOOP
      IF NOT fetched AND (fetch_first OR (2 * span >= edge - first_id
          AND 2.0 * need * (edge - first_id) / span <= fetch_expected)) THEN
        fetched := true;
        IF fetch_first THEN
          older := 0;
        ELSE
          older := coalesce(planned, search_window_planned(match)) - cardinality(ids);
        END IF;
        IF older > fetch_all THEN
          span := search_window_span(need, older, edge - first_id);
        ELSE
          -- Every match older than the edge through GIN alone, giving up past fetch_all.
          -- id + 0: not a condition the primary key's index could take. The newest are picked here.
          PERFORM set_config('enable_indexscan', 'off', true), set_config('enable_seqscan', 'off', true);
          EXECUTE format(
            'WITH m AS MATERIALIZED (
               SELECT id FROM search_entries WHERE words @@ $1 AND id + 0 < %s LIMIT %s
             ) SELECT coalesce(array_agg(id ORDER BY id DESC), ''{}''), (SELECT count(*) FROM m)
             FROM (SELECT id FROM m ORDER BY id DESC LIMIT %s) newest',
            edge, fetch_all + 1, need)
          INTO more_ids, total USING match;
          PERFORM set_config('enable_indexscan', 'on', true), set_config('enable_seqscan', 'on', true);
          IF total <= fetch_all THEN
            IF words IS NULL OR cardinality(more_ids) = 0 THEN
              more_ranks := array_fill(0::real, ARRAY[cardinality(more_ids)]);
            ELSE
              EXECUTE 'SELECT array_agg(ts_rank(${quoted(RANK_WEIGHTS)}, words, $1) ORDER BY id DESC)
                FROM search_entries WHERE id = ANY($2)'
              INTO more_ranks USING words, more_ids;
            END IF;
            ids := ids || more_ids;
            ranks := ranks || more_ranks;
            EXIT;
          END IF;
          span := search_window_span(need, fetch_all, edge - first_id);
          CONTINUE;
        END IF;
      END IF;
      range_from := greatest(first_id, edge - span);
      range_rows := format('SELECT id, words FROM search_entries WHERE id >= %s AND id < %s', range_from, edge);
      IF span <= in_order_rows THEN
        SELECT r.ids, r.ranks INTO more_ids, more_ranks
        FROM search_window_read(range_rows || ' ORDER BY id DESC OFFSET 0', need, match, words, candidates) r;
      ELSE
        -- Whatever the planner guesses: a bitmap of GIN's matches ANDed with the range's.
        PERFORM set_config('enable_indexscan', 'off', true), set_config('enable_seqscan', 'off', true);
        IF candidates IS NOT NULL THEN
          range_rows := range_rows || ' AND words @@ $3 OFFSET 0';
        END IF;
        SELECT r.ids, r.ranks INTO more_ids, more_ranks
        FROM search_window_read(range_rows, need, match, words, candidates) r;
        PERFORM set_config('enable_indexscan', 'on', true), set_config('enable_seqscan', 'on', true);
      END IF;
      ids := ids || more_ids;
      ranks := ranks || more_ranks;
      need := need - cardinality(more_ids);
      span := search_window_span(need, cardinality(more_ids), edge - range_from);
      edge := range_from;
    END LOOP;
    RETURN QUERY SELECT w.id, w.rank FROM unnest(ids, ranks) WITH ORDINALITY AS w(id, rank, n) ORDER BY w.n;
  END $$;
`;
