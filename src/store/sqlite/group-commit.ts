interface Queued {
  body: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes that reach the store in the same turn of the event loop share one transaction: one sync
 * of the WAL to disk and one FTS5 segment for all of them, where each paid its own. Under load
 * the turn holds several (each write's parse, checks and renditions run before it gets here);
 * alone, a write waits only for the turn to end.
 *
 * A write is answered only once the shared transaction has committed. When any write of the
 * group fails, none of the group is kept and each runs again in a transaction of its own, so a
 * failure is only its own write's and the others commit as they would have alone.
 */
export class GroupCommit {
  private queue: Queued[] = [];
  private following = false;

  /** `transaction`: runs its body in a write transaction of its own, the group's or a single write's. */
  constructor(private readonly transaction: <T>(body: () => T) => T) {}

  /** While the second or a later write of a shared transaction runs: others' changes are pending in it. */
  get followsOthers(): boolean {
    return this.following;
  }

  run<T>(body: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.commit());
      this.queue.push({ body, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private commit(): void {
    const group = this.queue;
    this.queue = [];
    const results = group.length > 1 ? this.together(group) : undefined;
    if (results) {
      group.forEach((w, i) => w.resolve(results[i]));
      return;
    }
    for (const w of group) {
      try {
        w.resolve(this.transaction(w.body));
      } catch (e) {
        w.reject(e);
      }
    }
  }

  /** The group's results, or undefined when one failed and the transaction was rolled back. */
  private together(group: Queued[]): unknown[] | undefined {
    try {
      return this.transaction(() =>
        group.map((w, i) => {
          this.following = i > 0;
          return w.body();
        }),
      );
    } catch {
      return undefined;
    } finally {
      this.following = false;
    }
  }
}
