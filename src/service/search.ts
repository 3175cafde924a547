import type { Identity } from '../auth/identity.js';
import { principalsOf } from '../auth/identity.js';
import { seesEveryDocument } from '../auth/policy.js';
import { refuse } from '../errors.js';
import { MODELS } from '../oscal/model/models.js';
import { searchEntriesOffThread, type SearchEntriesOf } from '../oscal/search/extract-thread.js';
import type { SearchStore } from '../store/interfaces/search.js';
import type {
  BlobStore,
  DocumentRecord,
  DocumentStore,
  RevisionStore,
  SearchCursor,
  SearchHit,
  SearchQuery,
} from '../store/types.js';
import { ContentGone, readRevisionWithBytes } from './content.js';

/** A hit with its document, for the list fields a result shows beside the object found. */
export interface SearchResult {
  hit: SearchHit;
  document: DocumentRecord;
}

export interface SearchRequest {
  q?: string;
  model?: string;
  controlId?: string;
  limit: number;
  cursor?: string;
}

const encode = (c: SearchCursor) => Buffer.from(JSON.stringify([c.rank, c.id])).toString('base64url');

function decode(cursor: string): SearchCursor {
  try {
    const [rank, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if ((rank === null || (typeof rank === 'number' && Number.isFinite(rank))) && Number.isSafeInteger(id))
      return { rank, id: id as number };
  } catch {
    // refused below
  }
  throw refuse('bad-request', 'the cursor is not one this server gave out');
}

/**
 * Full-text search (issue 22) over the current revision of every document the caller may read:
 * the store answers with located hits, ranked; documents are looked up once for their list fields.
 */
export class SearchService {
  /** `searchEntries`: as the writes extract them (services.ts); none leaves a document's entries as they are. */
  constructor(
    private readonly store: SearchStore & DocumentStore & RevisionStore & BlobStore,
    private readonly searchEntries: SearchEntriesOf = searchEntriesOffThread,
  ) {}

  async search(identity: Identity, request: SearchRequest): Promise<{ results: SearchResult[]; next?: string }> {
    const text = request.q?.trim() ?? '';
    if (text === '' && request.controlId === undefined) throw refuse('bad-request', 'give q, control-id or both');
    if (text.includes('\u0000')) throw refuse('bad-request', 'q may not contain a NUL character');
    const query: SearchQuery = { text, limit: request.limit + 1 };
    if (request.model !== undefined) query.model = request.model;
    if (request.controlId !== undefined) query.controlId = request.controlId;
    if (request.cursor !== undefined) query.after = decode(request.cursor);
    if (!seesEveryDocument(identity)) {
      query.readableBy = {
        principals: principalsOf(identity),
        ...(identity.kind === 'user' ? { userId: identity.name } : {}),
      };
    }
    const hits = await this.store.searchEntries(query);
    const page = hits.slice(0, request.limit);
    const documents = new Map(
      (await this.store.getDocuments([...new Set(page.map((h) => h.documentId))])).map((d) => [d.id, d]),
    );
    // A document deleted between the search and this read is left out.
    const results = page.flatMap((hit) => {
      const document = documents.get(hit.documentId);
      return document ? [{ hit, document }] : [];
    });
    const last = page.at(-1);
    return hits.length > request.limit && last
      ? { results, next: encode({ rank: last.rank, id: last.id }) }
      : { results };
  }

  /**
   * Indexes a document's current revision again; false when it changed or went meanwhile (its own
   * write indexed it). For stores filled before the index, restores, and a current version deleted.
   * Extracted off the event loop as a write's entries are: `serve` indexes while it serves, and
   * NIST's 800-53 catalog held the loop 30-120 ms for extraction, besides some 30 for its parse.
   */
  async indexCurrent(id: string): Promise<boolean> {
    const doc = await this.store.getDocument(id);
    if (!doc) return false;
    try {
      const stored = await readRevisionWithBytes(this.store, id, doc.revision);
      const entries = await this.searchEntries(stored.doc, stored.canonical);
      return entries !== undefined && (await this.store.indexRevision(id, doc.revision, entries));
    } catch (e) {
      if (e instanceof ContentGone) return false;
      throw e;
    }
  }

  /**
   * Indexes every document that has no entry (stored before the index, or before a migration that
   * emptied it); `done` after each. What `serve` runs in the background as it starts.
   */
  async indexUnindexed(done: (indexed: boolean) => void, stop: AbortSignal): Promise<void> {
    let after = '';
    for (;;) {
      const page = await this.store.unindexedDocuments(after, 200);
      for (const doc of page) {
        if (stop.aborted) return;
        done(await this.indexCurrent(doc.id));
      }
      if (page.length < 200) return;
      after = page.at(-1)!.id;
    }
  }

  /** Every document of the store, model by model, oldest first; `done` after each. */
  async reindexAll(done: (indexed: boolean) => void = () => {}): Promise<void> {
    for (const model of MODELS) {
      let after: { key: string; id: string } | undefined;
      for (;;) {
        const page = await this.store.listDocuments({
          model,
          limit: 200,
          sort: 'created',
          descending: false,
          ...(after ? { after } : {}),
        });
        for (const doc of page) done(await this.indexCurrent(doc.id));
        const last = page.at(-1);
        if (page.length < 200 || !last) break;
        after = { key: last.createdAt, id: last.id };
      }
    }
  }
}
