import type { SearchEntry } from '../../oscal/search/extract.js';
import type { SearchHit, SearchQuery } from '../types.js';

/**
 * Full-text search over the current revision of every document: entries are written with each
 * revision (RevisionInput.search) and go with the document.
 */
export interface SearchStore {
  /**
   * The entries matching the query in documents the caller may read (readableBy, as
   * listDocuments applies it): the newest RANKED_MATCHES best first, ties in the order written, then any
   * others newest first. A query without any word and without a control id finds nothing.
   */
  searchEntries(query: SearchQuery): Promise<SearchHit[]>;

  /**
   * Writes a document's entries as those of `revision`, if that is still its current revision:
   * false when the document changed or went meanwhile (its own write indexed it, or it is gone).
   * How `reindex` fills the index beside servers that write.
   */
  indexRevision(documentId: string, revision: number, entries: SearchEntry[]): Promise<boolean>;

  /**
   * Documents without any entry, by id after `after`: every indexed document has one at least
   * (its own), so these were stored before the index, or before a change that emptied it.
   */
  unindexedDocuments(after: string, limit: number): Promise<{ id: string; revision: number }[]>;
}
