import { FORMATS, serializeOscal, type Format, type ParsedDocument } from '../oscal/formats/index.js';
import type { BlobInput } from '../store/types.js';
import { blobOf } from './blobs.js';

/** The JSON form as stored and served: indented, like NIST's published files. */
export function canonicalJson(doc: ParsedDocument): Buffer {
  return Buffer.from(JSON.stringify(doc.content, null, 2) + '\n');
}

export function renditionBlob(doc: ParsedDocument, format: Format): BlobInput {
  return blobOf(Buffer.from(serializeOscal(doc, format)), true);
}

/** The renditions to make now, and the formats left to workers. */
export function planRenditions(
  doc: ParsedDocument,
  canonical: Buffer,
  canonicalBlob: BlobInput,
  inlineLimit: number,
): { renditions: { format: Format; blob: BlobInput }[]; pendingFormats: Format[] } {
  const json = { format: 'json' as const, blob: canonicalBlob };
  const others = FORMATS.filter((f) => f !== 'json');
  if (canonical.length > inlineLimit) return { renditions: [json], pendingFormats: others };
  return {
    renditions: [json, ...others.map((format) => ({ format, blob: renditionBlob(doc, format) }))],
    pendingFormats: [],
  };
}
