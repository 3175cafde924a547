/**
 * A web of documents for constraint tests that reach across documents: NIST's ssp-example SSP,
 * importing a profile by `../profile/{uuid}`, which imports a catalog by `../catalog/{uuid}`.
 * The same relative hrefs name stored documents on the server (POSTed at /oscal/v1/{model}) and
 * files in the CLI (laid out as {dir}/{model}/{uuid}), so one constraint set sees the same web both ways.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT, PROJECT_ROOT } from './shared.js';

type Json = Record<string, any>;

export const SETS_DIR = join(PROJECT_ROOT, 'test', 'fixtures', 'constraints');
export const CATALOG_UUID = '5c0e1a2b-3d4f-4a5b-8c6d-7e8f9a0b1c2d';
export const PROFILE_UUID = '6d1f2b3c-4e5a-4b6c-9d7e-8f9a0b1c2d3e';
export const TEST_NS = 'https://example.org/ns/oscal-depot-test';

/** The server takes a document's content uuid from document-ids (generic-interface 2.2); these use their own uuid. */
const CONTENT_UUID_SCHEME = 'http://oscal.io/oscal/identifier/contentuuid';
const documentIds = (uuid: string) => [{ scheme: CONTENT_UUID_SCHEME, identifier: uuid }];
const meta = (title: string, uuid: string) => ({
  title,
  'last-modified': '2024-01-01T00:00:00Z',
  version: '1',
  'oscal-version': '1.1.2',
  'document-ids': documentIds(uuid),
});

export function webCatalog(uuid = CATALOG_UUID): Json {
  return {
    catalog: {
      uuid,
      metadata: meta('Audit controls', uuid),
      controls: ['au-1', 'au-2', 'au-3'].map((id) => ({
        id,
        title: `Control ${id}`,
        parts: [{ id: `${id}_smt`, name: 'statement', prose: `The ${id} statement.` }],
      })),
    },
  };
}

export function webProfile(): Json {
  return {
    profile: {
      uuid: PROFILE_UUID,
      metadata: meta('Audit baseline', PROFILE_UUID),
      imports: [{ href: `../catalog/${CATALOG_UUID}`, 'include-controls': [{ 'with-ids': ['au-1', 'au-2'] }] }],
    },
  };
}

/** ssp-example, importing the baseline above and declaring a hosting tier (which the test set restricts). */
export function webSsp(): Json {
  const doc = JSON.parse(
    readFileSync(join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json'), 'utf8'),
  ) as Json;
  const ssp = doc['system-security-plan'];
  ssp.metadata['document-ids'] = documentIds(ssp.uuid);
  ssp['import-profile'].href = `../profile/${PROFILE_UUID}`;
  ssp['system-characteristics'].props.push({ name: 'hosting-tier', ns: TEST_NS, value: 'shared' });
  return doc;
}

/** Writes the documents as the CLI reads them; the path of each, by model. */
export function layOut(dir: string, docs: Json[]): Record<string, string> {
  const paths: Record<string, string> = {};
  for (const doc of docs) {
    const model = Object.keys(doc)[0]!;
    mkdirSync(join(dir, model), { recursive: true });
    paths[model] = join(dir, model, doc[model].uuid);
    writeFileSync(paths[model], JSON.stringify(doc, null, 2));
  }
  return paths;
}
