/**
 * Build step: compiles every vendored OSCAL release's Metaschema into its IR and binding tables
 * under dist/generated/, so that no running process ever reads Metaschema XML.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindingsFromIR } from './bindings.js';
import { compileIR } from './compile-ir.js';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const vendorDir = join(projectRoot, 'vendor', 'nist-oscal-metaschema');
const outDir = join(projectRoot, 'dist', 'generated');

const started = performance.now();
mkdirSync(join(outDir, 'ir'), { recursive: true });
mkdirSync(join(outDir, 'bindings'), { recursive: true });
const versions: string[] = [];
for (const tag of readdirSync(vendorDir).filter((d) => /^v\d+\.\d+\.\d+$/.test(d))) {
  // Some releases kept an older schema-version inside the modules; the release tag is authoritative.
  const ir = { ...compileIR(join(vendorDir, tag, 'oscal_complete_metaschema.xml')), version: tag.slice(1) };
  writeFileSync(join(outDir, 'ir', `${tag}.json`), JSON.stringify(ir));
  writeFileSync(join(outDir, 'bindings', `${tag}.json`), JSON.stringify(bindingsFromIR(ir)));
  versions.push(ir.version);
}
writeFileSync(join(outDir, 'versions.json'), JSON.stringify(versions));
console.log(`metaschema: compiled ${versions.length} OSCAL releases in ${Math.round(performance.now() - started)} ms`);
