import type { Format } from '../../oscal/formats/index.js';
import type { BlobInput } from '../types.js';

/** A revision in each format: made within its write, by a job, or on request (ContentService). */
export interface RenditionStore {
  getRendition(id: string, revision: number, format: Format): Promise<{ hash: string; size: number } | undefined>;
  /** Does nothing when the document is gone (deleted while the rendition was made). */
  putRendition(id: string, revision: number, format: Format, blob: BlobInput): Promise<void>;
}
