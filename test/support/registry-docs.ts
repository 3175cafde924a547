/** OSCAL JSON documents and multipart bodies for the registry tests (/api/v1, /api/upload). */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT } from './shared.js';

/** registry-api 2.1 (plus D1's mapping-collections): model → plural URL segment. */
export const PLURAL: Record<string, string> = {
  catalog: 'catalogs',
  profile: 'profiles',
  'component-definition': 'component-definitions',
  'system-security-plan': 'system-security-plans',
  'assessment-plan': 'assessment-plans',
  'assessment-results': 'assessment-results',
  'plan-of-action-and-milestones': 'plans-of-action-and-milestones',
  'mapping-collection': 'mapping-collections',
};

const NIST = join(CONTENT, 'oscal-content@88bb8de', 'examples');
const SAMPLE_FILES: Record<string, string> = {
  catalog: join(NIST, 'catalog/json/basic-catalog.json'),
  profile: join(
    CONTENT,
    'oscal-content@a849dbc/nist.gov/SP800-53/rev5/json/NIST_SP-800-53_rev5_LOW-baseline_profile.json',
  ),
  'component-definition': join(NIST, 'component-definition/json/example-component-definition.json'),
  'system-security-plan': join(NIST, 'ssp/json/ssp-example.json'),
  'assessment-plan': join(NIST, 'ap/json/ifa_assessment-plan-example.json'),
  'assessment-results': join(NIST, 'ar/json/ifa_assessment-results-example.json'),
  'plan-of-action-and-milestones': join(NIST, 'poam/json/ifa_plan-of-action-and-milestones.json'),
};

/** NIST has no mapping collection in the shared content: a minimal valid OSCAL 1.2.0 one. */
function mappingCollection(): Record<string, any> {
  return {
    'mapping-collection': {
      uuid: randomUUID(),
      metadata: { title: 'Mapping', 'last-modified': '2024-01-01T00:00:00Z', version: '1', 'oscal-version': '1.2.0' },
      provenance: {
        method: 'human',
        'matching-rationale': 'semantic',
        status: 'draft',
        'mapping-description': 'A test mapping.',
      },
      mappings: {
        uuid: randomUUID(),
        'source-resource': { type: 'catalog', href: '#a' },
        'target-resource': { type: 'catalog', href: '#b' },
        maps: [
          {
            uuid: randomUUID(),
            relationship: 'equivalent-to',
            sources: [{ type: 'control', 'id-ref': 'ac-1' }],
            targets: [{ type: 'control', 'id-ref': 'ac-1' }],
          },
        ],
      },
    },
  };
}

const cache = new Map<string, string>();

export interface DocOptions {
  /** Root uuid; a fresh v4 when absent. */
  uuid?: string;
  title?: string;
  /** metadata/version, the registry's document-version. */
  version?: string;
  lastModified?: string;
  /** metadata/document-ids to set (replacing any). */
  documentIds?: { scheme: string; identifier: string }[];
}

/** A deep copy of a sample of the model with a fresh root uuid and the given metadata edits. */
export function sampleDoc(model: string, options: DocOptions = {}): Record<string, any> {
  let doc: Record<string, any>;
  if (model === 'mapping-collection') {
    doc = mappingCollection();
  } else {
    const file = SAMPLE_FILES[model];
    if (!file) throw new Error(`no sample for ${model}`);
    if (!cache.has(file)) cache.set(file, readFileSync(file, 'utf8'));
    doc = JSON.parse(cache.get(file)!);
  }
  const root = doc[model];
  root.uuid = options.uuid ?? randomUUID();
  const metadata = root.metadata;
  if (options.title !== undefined) metadata.title = options.title;
  if (options.version !== undefined) metadata.version = options.version;
  if (options.lastModified !== undefined) metadata['last-modified'] = options.lastModified;
  if (options.documentIds !== undefined) metadata['document-ids'] = options.documentIds;
  return doc;
}

export function metadataOf(doc: Record<string, any>): Record<string, any> {
  const model = Object.keys(doc).find((k) => k !== '$schema')!;
  return doc[model].metadata;
}

/** A multipart/form-data body built by hand, so the test controls every part. */
export function multipartBody(
  parts: { name: string; filename?: string; contentType?: string; content: string | Buffer }[],
): { body: Buffer; contentType: string } {
  const boundary = `----registry-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(
      Buffer.from(`${head}\r\n`),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
