import type { DocumentRecord, SortKey } from '../../store/types.js';

/** A content list item (generic-interface 2.3, D4). */
export function listItem(doc: DocumentRecord): Record<string, unknown> {
  return {
    'content-uuid': doc.id,
    title: doc.title,
    ...(doc.published !== undefined ? { published: doc.published } : {}),
    'last-modified': doc.lastModified,
    version: doc.version,
    'oscal-version': doc.oscalVersion,
    'document-ids': doc.documentIds,
    markings: doc.markings,
    ...(doc.remarks !== undefined ? { remarks: doc.remarks } : {}),
  };
}

export const SORTS = ['title', '-title', 'last-modified', '-last-modified', 'created', '-created'] as const;

export function parseSort(sort: (typeof SORTS)[number]): { sort: SortKey; descending: boolean } {
  return { sort: sort.replace(/^-/, '') as SortKey, descending: sort.startsWith('-') };
}

/** The value a page boundary is taken at, per sort key (as the store orders it). */
export function sortValue(doc: DocumentRecord, sort: SortKey): string {
  return sort === 'title' ? doc.title.toLowerCase() : sort === 'last-modified' ? doc.lastModified : doc.createdAt;
}

/** Cursors are opaque to clients: the boundary's sort value and id. */
export function encodeCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { key: string; id: string } | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { key: value[0], id: value[1] };
  } catch {
    // fall through: not one of ours
  }
  return undefined;
}
