import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseOscal } from '../../src/oscal/formats/index.js';
import { ResolutionError, resolveProfile, type ImportLoader } from '../../src/oscal/resolve/index.js';
import { validateDocument } from '../../src/oscal/validate/index.js';
import { SHARED } from './shared.js';

export const EXAMPLES = join(SHARED, 'profile-resolution', 'examples');

type Json = Record<string, any>;

/**
 * What two resolutions of one profile may differ in (the specification's metadata rules): the
 * catalog uuid, last-modified, and the resolution-tool and source-profile (a849dbc: resolution-source) marks.
 */
export function scrub(document: Json): Json {
  const catalog = structuredClone(document.catalog);
  delete catalog.uuid;
  const metadata = catalog.metadata;
  delete metadata['last-modified'];
  metadata.props = (metadata.props ?? []).filter((p: Json) => p.name !== 'resolution-tool');
  metadata.links = (metadata.links ?? []).filter(
    (l: Json) => l.rel !== 'source-profile' && l.rel !== 'resolution-source',
  );
  for (const key of ['props', 'links']) if (metadata[key].length === 0) delete metadata[key];
  return catalog;
}

/**
 * NIST's example catalogs declare oscal-version 1.0.0-rc2, a pre-release the readers refuse (only
 * releases are supported); their content is OSCAL 1.0.0, so the tests read them as that.
 */
export function readExample(path: string): Json {
  return parseOscal(
    readFileSync(path, 'utf8').replace(
      '<oscal-version>1.0.0-rc2</oscal-version>',
      '<oscal-version>1.0.0</oscal-version>',
    ),
  ).content;
}

/** Imports from the examples folder, relative to the importing file, as the command line reads them. */
export const examplesLoader: ImportLoader = async (href, base) => {
  const url = new URL(href, base);
  if (!existsSync(fileURLToPath(url)))
    throw new ResolutionError('import-not-found', `no file ${fileURLToPath(url)}`, href);
  return { document: readExample(fileURLToPath(url)), base: url.href };
};

export function exampleBase(name: string): string {
  return pathToFileURL(join(EXAMPLES, name)).href;
}

/** Where in-memory test documents live: hrefs resolve against it as URLs. */
export const MEMORY = 'https://docs.test/';

/** Serves documents by URL from memory, deep-frozen so that a resolver that changed its inputs would throw; counts loads. */
export function memoryLoader(documents: Record<string, Json>): ImportLoader & { calls: string[] } {
  const frozen = new Map(
    Object.entries(documents).map(([path, doc]) => [new URL(path, MEMORY).href, deepFreeze(structuredClone(doc))]),
  );
  const calls: string[] = [];
  const loader = async (href: string, base: string | undefined) => {
    const url = new URL(href, base ?? MEMORY).href;
    calls.push(url);
    const document = frozen.get(url);
    if (!document) throw new ResolutionError('import-not-found', `nothing at ${url}`, href);
    return { document, base: url };
  };
  return Object.assign(loader, { calls });
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Small in-memory documents for feature tests. */
export const R = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
export const KEEP = { name: 'keep', value: 'always' };
export const meta = (title: string, version = '1.1.2') => ({
  title,
  'last-modified': '2024-01-01T00:00:00Z',
  version: '1',
  'oscal-version': version,
});
export const ctl = (id: string, extra: Json = {}) => ({ id, title: `Control ${id}`, ...extra });
export const catalog = (body: Json, version = '1.1.2') => ({
  catalog: { uuid: R(9), metadata: meta('Catalog', version), ...body },
});
export const profile = (imports: Json[], extra: Json = {}, version = '1.1.2') => ({
  profile: { uuid: R(8), metadata: meta('Profile', version), imports, ...extra },
});
export const includeIds = (...ids: string[]) => ({ 'include-controls': [{ 'with-ids': ids }] });

/** Resolves a (frozen) profile over in-memory documents; checks that the result is a valid catalog; warnings as `code path [in profile]`. */
export async function resolveInMemory(
  profileDoc: Json,
  documents: Record<string, Json>,
  base = `${MEMORY}profile.json`,
) {
  const loader = memoryLoader(documents);
  const result = await resolveProfile(deepFreeze(structuredClone(profileDoc)), { loader, base });
  assert.deepEqual(validateDocument(result.document), [], 'the result is a valid catalog');
  return {
    catalog: result.document.content.catalog as Json,
    version: result.document.version,
    warnings: result.warnings.map((w) => `${w.code} ${w.path}${w.profile ? ` in ${w.profile}` : ''}`),
    loader,
  };
}

/** Controls and groups as `group{control(child child)}`, in output order; a group without an id by its title in quotes. */
export function outline(node: Json): string {
  return [
    ...(node.controls ?? []).map((c: Json) => c.id + (c.controls ? `(${outline(c)})` : '')),
    ...(node.groups ?? []).map((g: Json) => `${g.id ?? `"${g.title}"`}{${outline(g)}}`),
  ].join(' ');
}
export const ids = (list: Json[] | undefined) => (list ?? []).map((x) => x.id ?? x.uuid);
export const control = (node: Json, id: string): Json => {
  for (const c of node.controls ?? []) if (c.id === id) return c;
  for (const c of [...(node.controls ?? []), ...(node.groups ?? [])]) {
    const found = control(c, id);
    if (found) return found;
  }
  return undefined as unknown as Json;
};
