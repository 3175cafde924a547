import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliBench } from './cli.js';
import { constraintBench } from './constraint-validation.js';
import { xmlBench, yamlBench } from './conversion.js';
import { diffBench } from './diff.js';
import { httpBench, httpPostgresBench } from './http.js';
import { httpWritesBench } from './http-writes.js';
import { largeCatalogBench } from './large-catalog.js';
import { resolveBench } from './resolve.js';
import { searchBench } from './search.js';
import { validationBench } from './validation.js';
import { webBench } from './web.js';

/**
 * Each group runs in its own process: what one group leaves in the heap and in V8's inline caches
 * would otherwise slow the next (the XML read measured 30% slower after the YAML libraries ran).
 * Every ratio compares figures measured in the same process.
 */
const groups: Record<string, () => unknown> = {
  xml: xmlBench,
  yaml: yamlBench,
  validation: validationBench,
  constraints: constraintBench,
  resolve: resolveBench,
  diff: diffBench,
  large: largeCatalogBench,
  http: httpBench,
  'http-postgres': httpPostgresBench,
  'http-writes': httpWritesBench,
  search: searchBench,
  web: webBench,
  cli: cliBench,
};

const only = process.argv[2];
if (only) {
  await groups[only]!();
} else {
  console.log(`oscal-depot benchmarks on node ${process.version}, ${new Date().toISOString()}`);
  for (const name of Object.keys(groups)) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), name], { stdio: 'inherit' });
    if (r.status !== 0) process.exitCode = 1;
  }
}
