/**
 * Real NIST documents made recognisable: each copy gets its own title, root uuid and a marker
 * string in its remarks, so that a response can be searched for any byte of one particular copy.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT, REV5_A849 } from './shared.js';

export const CONTENT_UUID_SCHEME = 'http://oscal.io/oscal/identifier/contentuuid';

/** NIST's small example catalog (16 KB). */
export const BASIC_CATALOG_JSON = join(
  CONTENT,
  'oscal-content@88bb8de',
  'examples',
  'catalog',
  'json',
  'basic-catalog.json',
);
/** The 800-53 rev5 privacy baseline resolved catalog (554 KB: above the size rendered inline). */
export const PRIVACY_RESOLVED_JSON = join(
  REV5_A849,
  'json',
  'NIST_SP-800-53_rev5_PRIVACY-baseline-resolved-profile_catalog.json',
);

export interface MarkedDoc {
  /** The JSON content as posted. */
  content: { catalog: { uuid: string; metadata: Record<string, unknown> } & Record<string, unknown> };
  body: string;
  title: string;
  rootUuid: string;
  marker: string;
}

const cache = new Map<string, string>();
function source(path: string): string {
  let text = cache.get(path);
  if (text === undefined) cache.set(path, (text = readFileSync(path, 'utf8')));
  return text;
}

/** A copy of a NIST catalog with a unique title, root uuid and remarks marker (and, if given, a content uuid). */
export function markedCatalog(label: string, options: { path?: string; contentUuid?: string } = {}): MarkedDoc {
  const content = JSON.parse(source(options.path ?? BASIC_CATALOG_JSON)) as MarkedDoc['content'];
  const tag = randomBytes(6).toString('hex');
  const title = `Depot fixture ${label} ${tag}`;
  const marker = `zqx-${tag}-distinctive-marker`;
  const rootUuid = randomUUID();
  const metadata = content.catalog.metadata;
  content.catalog.uuid = rootUuid;
  metadata.title = title;
  metadata.remarks = typeof metadata.remarks === 'string' ? `${marker}\n\n${metadata.remarks}` : marker;
  if (options.contentUuid)
    metadata['document-ids'] = [{ scheme: CONTENT_UUID_SCHEME, identifier: options.contentUuid }];
  return { content, body: JSON.stringify(content, null, 2), title, rootUuid, marker };
}

/** The same document with another title, as a PUT body. */
export function retitled(doc: MarkedDoc, title: string): string {
  const copy = structuredClone(doc.content);
  copy.catalog.metadata.title = title;
  return JSON.stringify(copy, null, 2);
}
