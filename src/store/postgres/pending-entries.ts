/**
 * GIN's fast update puts the search entries a write adds into the index's pending list, which
 * every search reads through and which is merged into the index proper in bulk. Left to
 * PostgreSQL, the write that finds the list over gin_pending_list_limit (4 MB) merges it inside
 * its own transaction: one write in a hundred or so took 100-200 ms more. The store merges it in
 * the background instead, as autovacuum would, short of the limit: the entries stay in the
 * index throughout (a search reads the pending list), so nothing is searchable later for it.
 */
import type postgres from 'postgres';

/**
 * Entries written by this process between merges: about 3 MB of pending list as NIST's prose makes
 * them (some 800 bytes an entry), short of the limit, so PostgreSQL's writers rarely merge first.
 * A merge costs less an entry the more it merges at once, so smaller merges would cost more in all.
 */
export const MERGE_AFTER_ENTRIES = 4_000;

export interface PendingEntries {
  /**
   * After a write added `entries` search entries, inside its transaction: a merge may start before
   * it commits, as merging moves what is pending whatever its transaction (autovacuum's does too).
   */
  wrote(entries: number): void;
  /** Waits for a merge under way, before the pool closes. */
  settle(): Promise<void>;
}

export function pendingEntries(sql: postgres.Sql): PendingEntries {
  let written = 0;
  let merging: Promise<void> | undefined;
  return {
    wrote(entries) {
      written += entries;
      if (written < MERGE_AFTER_ENTRIES || merging) return;
      written = 0;
      // A merge that fails (the pool closing; a role that does not own the index, which only its
      // owner may merge) loses nothing: the entries stay pending, and the next merge, autovacuum
      // or a writer over the limit takes them.
      merging = sql`SELECT gin_clean_pending_list('search_entries_words'::regclass)`
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => (merging = undefined));
    },
    settle: async () => merging,
  };
}
