/**
 * Build step: compiles every vendored OSCAL release's Metaschema into its IR, binding tables,
 * JSON Schema and compiled validators under dist/generated/, so that no running process ever
 * reads Metaschema XML or compiles a schema.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindingsFromIR } from './bindings.js';
import { compileIR } from './compile-ir.js';
import { generateJsonSchema, loadDatatypes } from './json-schema.js';
import { datatypesOf } from './release-datatypes.js';
import { compileDatatypeValidators, compileValidators } from './validators.js';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const vendorDir = join(projectRoot, 'vendor', 'nist-oscal-metaschema');
const outDir = join(projectRoot, 'dist', 'generated');
const datatypes = loadDatatypes(join(projectRoot, 'vendor', 'nist-metaschema-datatypes', 'metaschema-datatypes.json'));

const started = performance.now();
for (const dir of ['ir', 'bindings', 'schemas', 'validators']) mkdirSync(join(outDir, dir), { recursive: true });
const versions: string[] = [];
for (const tag of readdirSync(vendorDir).filter((d) => /^v\d+\.\d+\.\d+$/.test(d))) {
  // Some releases kept an older schema-version inside the modules; the release tag is authoritative.
  const ir = { ...compileIR(join(vendorDir, tag, 'oscal_complete_metaschema.xml')), version: tag.slice(1) };
  const schema = generateJsonSchema(ir, datatypesOf(ir.version, datatypes));
  writeFileSync(join(outDir, 'ir', `${tag}.json`), JSON.stringify(ir));
  writeFileSync(join(outDir, 'bindings', `${tag}.json`), JSON.stringify(bindingsFromIR(ir)));
  writeFileSync(join(outDir, 'schemas', `oscal-${ir.version}.json`), JSON.stringify(schema, null, 1));
  writeFileSync(join(outDir, 'validators', `${tag}.cjs`), compileValidators(schema, ir.version, Object.keys(ir.roots)));
  versions.push(ir.version);
}
writeFileSync(join(outDir, 'versions.json'), JSON.stringify(versions));
writeFileSync(join(outDir, 'validators', 'datatypes.cjs'), compileDatatypeValidators(datatypes));
console.log(`metaschema: compiled ${versions.length} OSCAL releases in ${Math.round(performance.now() - started)} ms`);
