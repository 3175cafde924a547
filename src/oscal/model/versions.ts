import { readFileSync } from 'node:fs';

const GENERATED = new URL('../../../generated/', import.meta.url);

/** The OSCAL releases whose Metaschema was compiled at build time, oldest first. */
export const SUPPORTED_VERSIONS: readonly string[] = JSON.parse(
  readFileSync(new URL('versions.json', GENERATED), 'utf8'),
);

export function generatedFile(relative: string): URL {
  return new URL(relative, GENERATED);
}
