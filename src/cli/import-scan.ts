import { readFile } from 'node:fs/promises';
import { parseOscal, type Format } from '../oscal/formats/index.js';
import { contentDigest, contentUuidOf } from './content-digest.js';
import type { Source } from './import-sources.js';
import { describeError, readInput } from './io.js';

/** Visibility and grants, as GET …/access gives them and PUT takes them. */
export interface AccessSettings {
  visibility: string;
  grants: { principal: string; permission: string }[];
}

/** A file read and understood: which document it is, and a digest of what it says. */
export interface ScannedFile {
  path: string;
  format: Format;
  model: string;
  rootUuid: string;
  /** The content uuid it names in metadata/document-ids, if any. */
  contentUuid?: string;
  /** metadata/title as the JSON form has it (the list items' title). */
  title: string;
  digest: string;
  access?: AccessSettings;
}

export type ScanResult = { file: ScannedFile; problem?: never } | { file?: never; problem: string };

const MEDIA_TYPES: Record<Format, string> = {
  json: 'application/json',
  xml: 'application/xml',
  yaml: 'application/yaml',
};

export function mediaTypeOf(format: Format): string {
  return MEDIA_TYPES[format];
}

/**
 * Reads a file to learn its model, identity and digest; the parsed tree is not kept (the file is
 * read again when it is sent), so a large import does not hold every document in memory.
 */
export async function scanFile(source: Source): Promise<ScanResult> {
  try {
    const doc = parseOscal(readInput(source.path));
    const root = doc.content[doc.model] as { uuid?: unknown; metadata?: { title?: unknown } };
    const contentUuid = contentUuidOf(doc.content, doc.model);
    const file: ScannedFile = {
      path: source.path,
      format: doc.format,
      model: doc.model,
      rootUuid: String(root.uuid ?? '').toLowerCase(),
      title: String(root.metadata?.title ?? ''),
      digest: contentDigest(doc.content, doc.model),
      ...(contentUuid ? { contentUuid } : {}),
    };
    if (source.accessFile) file.access = await readAccess(source.accessFile);
    return { file };
  } catch (e) {
    return { problem: describeError(source.path, e) };
  }
}

async function readAccess(path: string): Promise<AccessSettings | undefined> {
  let value: Partial<AccessSettings>;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined; // not exported (the token could not see it), or not ours: nothing to restore
  }
  if (typeof value.visibility !== 'string' || !Array.isArray(value.grants)) return undefined;
  return {
    visibility: value.visibility,
    grants: value.grants.map((g) => ({ principal: String(g.principal), permission: String(g.permission) })),
  };
}
