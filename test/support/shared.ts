import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Project root, whether running from test/ sources or the compiled dist/test/. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** ../shared beside the project, as CI lays it out. */
export const SHARED = join(PROJECT_ROOT, '..', 'shared');
if (!existsSync(SHARED)) throw new Error(`the shared data folder is missing: expected ${SHARED} beside the project`);

export const CONTENT = join(SHARED, 'content');
export const REV5_A849 = join(CONTENT, 'oscal-content@a849dbc', 'nist.gov', 'SP800-53', 'rev5');

export function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, ext));
    else if (name.endsWith(ext)) out.push(path);
  }
  return out;
}

/** NIST lays each set out as .../xml/x.xml, .../json/x.json, .../yaml/x.yaml. */
export function twin(path: string, format: 'xml' | 'json' | 'yaml'): string {
  return path.replace(/\/(xml|json|yaml)\/([^/]+)\.(xml|json|yaml)$/, `/${format}/$2.${format}`);
}

export function shortName(path: string): string {
  return relative(CONTENT, path);
}
