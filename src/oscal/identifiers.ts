import { randomUUID } from 'node:crypto';

/** The content identifier scheme (D2); the hyphenated spelling is read too, never written. */
export const CONTENT_UUID_SCHEME = 'http://oscal.io/oscal/identifier/contentuuid';
const CONTENT_UUID_ALIASES = new Set([CONTENT_UUID_SCHEME, 'http://oscal.io/oscal/identifier/content-uuid']);

/** Whether a document-id's scheme is the content identifier's (D2), in either spelling. */
export function isContentUuidScheme(scheme: unknown): boolean {
  return typeof scheme === 'string' && CONTENT_UUID_ALIASES.has(scheme);
}
export const EXTERNAL_UUID_SCHEME = 'http://oscal.io/oscal/identifier/externaluuid';

const V4_OR_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-[45][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isContentUuid(value: string): boolean {
  return V4_OR_V5.test(value);
}

interface DocumentId {
  scheme?: unknown;
  identifier?: unknown;
}

export type IdentifierOutcome =
  | { ok: true; id: string; generated: boolean }
  | { ok: false; reason: 'invalid' | 'mismatch' | 'several'; message: string };

/**
 * Applies the identifier rules of D2 to a document's metadata, in place: a content identifier
 * that is a v4/v5 UUID is kept (lower-cased, scheme spelled `contentuuid`); none gets `required`
 * (the path's id on PUT) or a generated v4; anything else is refused. Other entries, the
 * external identifier among them, are left byte for byte.
 */
export function applyContentIdentifier(metadata: Record<string, unknown>, required?: string): IdentifierOutcome {
  const ids = (Array.isArray(metadata['document-ids']) ? metadata['document-ids'] : []) as DocumentId[];
  const ours = ids.filter((d) => typeof d.scheme === 'string' && CONTENT_UUID_ALIASES.has(d.scheme));
  if (ours.length > 1)
    return {
      ok: false,
      reason: 'several',
      message: 'metadata/document-ids holds more than one content identifier; keep one',
    };
  const entry = ours[0];
  if (entry) {
    const value = String(entry.identifier);
    if (!isContentUuid(value)) {
      return {
        ok: false,
        reason: 'invalid',
        message: `the content identifier ${JSON.stringify(value)} in metadata/document-ids is not a version 4 or 5 UUID; remove it to have one assigned, or give a valid one`,
      };
    }
    const id = value.toLowerCase();
    if (required !== undefined && id !== required) {
      return {
        ok: false,
        reason: 'mismatch',
        message: `the content identifier in the body (${id}) differs from the one in the path (${required})`,
      };
    }
    entry.scheme = CONTENT_UUID_SCHEME;
    entry.identifier = id;
    return { ok: true, id, generated: false };
  }
  const id = required ?? randomUUID();
  metadata['document-ids'] = [{ scheme: CONTENT_UUID_SCHEME, identifier: id }, ...ids];
  return { ok: true, id, generated: required === undefined };
}

/**
 * Rule 6 of generic-interface 2.2: a client may send an empty document-ids array, and the
 * document then holds the server's entry. OSCAL allows no empty arrays (the schemas refuse them),
 * so this one is taken away before the content is checked; applyContentIdentifier adds the entry.
 * Only this array: any other empty array is still invalid.
 */
export function dropEmptyDocumentIds(metadata: unknown): void {
  if (typeof metadata !== 'object' || metadata === null) return;
  const ids = (metadata as Record<string, unknown>)['document-ids'];
  if (Array.isArray(ids) && ids.length === 0) delete (metadata as Record<string, unknown>)['document-ids'];
}
