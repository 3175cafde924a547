import type { DocumentRecord } from '../../store/types.js';

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
    // Beyond generic-interface 2.3: false for a draft stored with findings at the reject level (?keep-findings=true).
    valid: doc.valid,
  };
}
