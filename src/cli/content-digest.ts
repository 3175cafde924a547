import { createHash } from 'node:crypto';

/** The content identifier's scheme (D2), in the spelling written and the one also read. */
const CONTENT_UUID_SCHEMES = new Set([
  'http://oscal.io/oscal/identifier/contentuuid',
  'http://oscal.io/oscal/identifier/content-uuid',
]);

type DocumentId = { scheme?: unknown; identifier?: unknown };

function metadataOf(content: Record<string, unknown>, model: string): Record<string, unknown> {
  const root = content[model] as { metadata?: Record<string, unknown> } | undefined;
  return root?.metadata ?? {};
}

function documentIds(metadata: Record<string, unknown>): DocumentId[] {
  return Array.isArray(metadata['document-ids']) ? (metadata['document-ids'] as DocumentId[]) : [];
}

/** The content uuid a document carries in metadata/document-ids (lower-cased, as the server keeps it). */
export function contentUuidOf(content: Record<string, unknown>, model: string): string | undefined {
  const entry = documentIds(metadataOf(content, model)).find(
    (d) => typeof d.scheme === 'string' && CONTENT_UUID_SCHEMES.has(d.scheme),
  );
  return typeof entry?.identifier === 'string' ? entry.identifier.toLowerCase() : undefined;
}

/**
 * A digest of what a document says, the same for a file and for the server's copy of it: the
 * JSON form with object keys sorted (XML, YAML and JSON of one document read to the same tree,
 * but not always with keys in the same order), and without the content identifier, which the
 * server adds to a document that comes without one.
 */
export function contentDigest(content: Record<string, unknown>, model: string): string {
  const root = content[model] as Record<string, unknown>;
  const metadata = metadataOf(content, model);
  const ids = documentIds(metadata).filter(
    (d) => !(typeof d.scheme === 'string' && CONTENT_UUID_SCHEMES.has(d.scheme)),
  );
  const { 'document-ids': _ids, ...rest } = metadata;
  const normalized = {
    ...content,
    [model]: { ...root, metadata: ids.length ? { ...rest, 'document-ids': ids } : rest },
  };
  return createHash('sha256').update(JSON.stringify(normalized, sortedKeys)).digest('hex');
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k]]),
  );
}
