import type { ParsedDocument } from '../oscal/formats/index.js';
import type { DocumentFields } from '../store/types.js';
import { metadataAliases } from './aliases.js';

/** The metadata of a document that has been read and checked (every OSCAL model has one). */
export function metadataOf(content: Record<string, unknown>, model: string): Record<string, unknown> {
  return (content[model] as { metadata: Record<string, unknown> }).metadata;
}

/** The list fields of D4, read from a document's metadata. */
export function fieldsOf(content: Record<string, unknown>, model: string): DocumentFields {
  const metadata = metadataOf(content, model);
  const props = Array.isArray(metadata.props) ? (metadata.props as { name?: unknown; value?: unknown }[]) : [];
  const fields: DocumentFields = {
    title: String(metadata.title ?? ''),
    version: String(metadata.version ?? ''),
    oscalVersion: String(metadata['oscal-version'] ?? ''),
    lastModified: String(metadata['last-modified'] ?? ''),
    documentIds: Array.isArray(metadata['document-ids']) ? metadata['document-ids'] : [],
    markings: props.filter((p) => p.name === 'marking').map((p) => String(p.value)),
  };
  if (typeof metadata.published === 'string') fields.published = metadata.published;
  if (typeof metadata.remarks === 'string') fields.remarks = metadata.remarks;
  const aliases = metadataAliases(content, model);
  if (aliases.length) fields.aliases = aliases;
  return fields;
}

export type Resource = Record<string, unknown> & { uuid: string };

/** The document's back-matter resources (the live array, for in-place edits). */
export function resourcesOf(doc: ParsedDocument): Resource[] {
  const root = doc.content[doc.model] as { 'back-matter'?: { resources?: Resource[] } };
  return root['back-matter']?.resources ?? [];
}
