import { readFileSync } from 'node:fs';
import { generatedFile } from '../model/versions.js';
import type { ModelConstraints } from './model.js';

const loaded = new Map<string, ModelConstraints>();

/** The constraints of one OSCAL release's modules, as the build step compiled them; read on first use. */
export function modelConstraints(version: string): ModelConstraints {
  let table = loaded.get(version);
  if (!table) {
    table = JSON.parse(readFileSync(generatedFile(`constraints/v${version}.json`), 'utf8')) as ModelConstraints;
    loaded.set(version, table);
  }
  return table;
}
