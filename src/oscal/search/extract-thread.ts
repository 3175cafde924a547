import type { ParsedDocument } from '../formats/document.js';
import { threadCalls } from '../../thread-calls.js';
import { searchEntriesOf, type SearchEntry } from './extract.js';

/**
 * A write's search entries; none leaves the document's entries as they were (the search bench's
 * writes without the index).
 */
export type SearchEntriesOf = (doc: ParsedDocument, canonical: Buffer) => Promise<SearchEntry[] | undefined>;

/** What the thread is sent: the document's canonical JSON (its content as JSON.stringify wrote it). */
export interface ExtractInput {
  json: Uint8Array;
  model: string;
  version: string;
}

const EXTRACT_SCRIPT = new URL('./extract-worker.js', import.meta.url);

/** Extraction on a thread (searchEntriesOffThread), and a way to stop it. */
export interface ExtractionThread {
  entriesOf: SearchEntriesOf;
  /** Stops the thread; a write still waiting for it has its entries extracted on the event loop. */
  close(): Promise<void>;
}

/**
 * A document's search entries, extracted on a thread of their own from its canonical JSON (which
 * parses to the same content, keys in the same order) while the event loop checks, compresses and
 * renders the same content: extraction took some 0.3-0.4 ms of a write's time on the event loop,
 * which on SQLite is the thread every write of the process runs its statements on. A thread that
 * fails costs the write only time: its entries are extracted on the event loop.
 */
export function extractionThread(): ExtractionThread {
  const thread = threadCalls<ExtractInput, SearchEntry[]>(EXTRACT_SCRIPT);
  return {
    entriesOf: (doc, canonical) =>
      thread.call({ json: canonical, model: doc.model, version: doc.version }).catch(() => searchEntriesOf(doc)),
    close: () => thread.close(),
  };
}

/**
 * The process's: extraction keeps no state between documents, one thread keeps up with writes
 * many times over, and it starts at the first write and never holds the process open while idle.
 */
export const searchEntriesOffThread: SearchEntriesOf = extractionThread().entriesOf;
