/**
 * What the crash test's clients sent and what they were told: the record every check after a
 * restart is made against. A request the server answered 2xx is acknowledged and must survive any
 * crash; one that got no answer (the server died with it in flight) is unknown until a restart
 * shows whether it took effect, and from then on it is held to that.
 */
export type Outcome = 'acked' | 'refused' | 'unknown';

export interface Attempt {
  /** The operation's name: create, put, delete, … */
  kind: string;
  documentId: string;
  /**
   * For a request that adds a revision: its mark and the sha-256 of the bytes sent. A content
   * write is marked by the document's metadata/version; an upload, which leaves the content as it
   * was but for one more back-matter resource, by that resource's title (the file name sent).
   */
  revision?: { marker: string; sha256: string; upload?: boolean };
  /** For an acknowledged upload: the resource its answer named, and the file hash it gave. */
  resource?: { uuid: string; sha256: string };
  /** For an upload: whether a check after a restart read its file back whole. */
  fileVerified?: boolean;
  /** Whether it removes the document. */
  deletes: boolean;
  /** performance.now() just before the request left and just after its answer arrived. */
  sentAt: number;
  answeredAt?: number;
  outcome: Outcome;
  status?: number;
  /** For an unknown attempt, what a restart showed: it took effect or it did not. */
  settled?: 'applied' | 'not-applied';
  /** The version number a restart found the revision under: it must keep it. */
  number?: number;
}

/** Whether the store must hold the attempt's effect, must not, or may either way. */
export function expectation(a: Attempt): 'present' | 'absent' | 'either' {
  if (a.outcome === 'acked' || a.settled === 'applied') return 'present';
  if (a.outcome === 'refused' || a.settled === 'not-applied') return 'absent';
  return 'either';
}

export class Ledger {
  readonly attempts: Attempt[] = [];
  /** The kinds of request the server has acknowledged at least once. */
  readonly ackedKinds = new Set<string>();
  private readonly byDocument = new Map<string, Attempt[]>();
  /** Documents that exist as far as the clients know and that no delete has been sent for: newest last. */
  private readonly live: string[] = [];
  private markers = 0;

  nextMarker(): string {
    return `w${++this.markers}`;
  }

  begin(kind: string, documentId: string, options: { revision?: Attempt['revision']; deletes?: boolean }): Attempt {
    const attempt: Attempt = {
      kind,
      documentId,
      deletes: options.deletes ?? false,
      sentAt: performance.now(),
      outcome: 'unknown',
      ...(options.revision ? { revision: options.revision } : {}),
    };
    this.attempts.push(attempt);
    const list = this.byDocument.get(documentId) ?? [];
    list.push(attempt);
    this.byDocument.set(documentId, list);
    return attempt;
  }

  answer(attempt: Attempt, status: number): void {
    attempt.answeredAt = performance.now();
    attempt.status = status;
    attempt.outcome = status >= 200 && status < 300 ? 'acked' : 'refused';
    if (attempt.outcome === 'acked') this.ackedKinds.add(attempt.kind);
  }

  documents(): IterableIterator<[string, Attempt[]]> {
    return this.byDocument.entries();
  }

  addLive(id: string): void {
    if (!this.live.includes(id)) this.live.push(id);
  }

  /** Takes a document out of the pool, so that nothing new is sent for it (a delete is on its way). */
  withdraw(id: string): void {
    const at = this.live.indexOf(id);
    if (at >= 0) this.live.splice(at, 1);
  }

  /**
   * A live document: half the time one of the few newest, so that clients often write to the same
   * document at once and revision numbering is contended.
   */
  pickLive(): string | undefined {
    if (this.live.length === 0) return undefined;
    const hot = Math.min(this.live.length, 4);
    const from = Math.random() < 0.5 ? this.live.length - hot : 0;
    return this.live[from + Math.floor(Math.random() * (this.live.length - from))];
  }
}
