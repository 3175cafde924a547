/**
 * The inputs of the store conformance tests: revisions whose bytes all derive from a content
 * string, so that every expected hash, size and text can be written out from it by hand.
 */
import type { Format } from '../../src/oscal/formats/index.js';
import { blobOf } from '../../src/service/blobs.js';
import type { AuditEntry, DocumentFields, ListQuery, RevisionInput, Visibility } from '../../src/store/types.js';

export const canonicalText = (content: string) =>
  `${JSON.stringify({ catalog: { uuid: content, metadata: { title: content } } }, null, 2)}\n`;
export const originalText = (content: string) =>
  `<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${content}"><metadata><title>${content}</title></metadata></catalog>`;
export const renditionText = (content: string, format: Format) =>
  format === 'json'
    ? canonicalText(content)
    : format === 'xml'
      ? `<?xml version="1.0" encoding="UTF-8"?>\n${originalText(content)}\n`
      : `catalog:\n  uuid: ${content}\n  metadata:\n    title: ${content}\n`;

export function fields(title: string, extra: Partial<DocumentFields> = {}): DocumentFields {
  return {
    title,
    version: '1.0',
    oscalVersion: '1.1.2',
    lastModified: '2024-05-01T12:00:00Z',
    documentIds: [],
    markings: [],
    ...extra,
  };
}

/**
 * A revision whose bytes all derive from `content`: two revisions share a blob exactly when they
 * share content (or are handed the same `original`). The JSON rendition is the canonical blob
 * itself, as the service stores it.
 */
export function revision(
  content: string,
  docFields: DocumentFields,
  options: {
    renditions?: Format[];
    pending?: Format[];
    author?: string;
    original?: string;
    originalFormat?: Format;
  } = {},
): RevisionInput {
  const canonical = blobOf(Buffer.from(canonicalText(content)), true);
  return {
    canonical,
    original: blobOf(Buffer.from(options.original ?? originalText(content))),
    originalFormat: options.originalFormat ?? 'xml',
    author: options.author ?? 'alice',
    fields: docFields,
    renditions: (options.renditions ?? ['json']).map((format) => ({
      format,
      blob: format === 'json' ? canonical : blobOf(Buffer.from(renditionText(content, format)), true),
    })),
    pendingFormats: options.pending ?? [],
  };
}

export const hashOf = (text: string) => blobOf(Buffer.from(text)).hash;
export const sizeOf = (text: string) => Buffer.byteLength(text);

export function newDoc(id: string, owner = 'alice', visibility: Visibility = 'private', model = 'catalog') {
  return { id, model, owner, visibility };
}

export const audit = (
  action: string,
  documentId: string,
  actor = 'alice',
  detail: Record<string, unknown> = { model: 'catalog' },
): AuditEntry => ({ actor, action, documentId, detail });

export function listQuery(query: Partial<ListQuery> = {}): ListQuery {
  return { model: 'catalog', sort: 'title', descending: false, limit: 100, ...query };
}
