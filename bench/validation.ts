import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parseOscal } from '../src/oscal/formats/index.js';
import { validateDocument } from '../src/oscal/validate/index.js';
import { medians, REV5_CATALOG, row, SHARED } from './measure.js';

const ROUNDS = 21;

/**
 * The floor: ajv validating the same (already parsed) catalog against NIST's official OSCAL 1.0.0
 * JSON Schema, compiled in this process with the options our build uses.
 */
function nistValidator(): (data: unknown) => boolean {
  const schema = JSON.parse(
    readFileSync(join(SHARED, 'oscal', 'schemas', 'v1.0.0', 'oscal_complete_schema.json'), 'utf8'),
  );
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

export function validationBench(): void {
  const doc = parseOscal(readFileSync(join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_catalog.json'), 'utf8'), 'json');
  const nist = nistValidator();
  if (!nist(doc.content) || validateDocument(doc).length)
    throw new Error('the catalog should be valid for both validators');
  const results = medians(
    [
      { name: 'nist', run: () => nist(doc.content) },
      { name: 'ours', run: () => validateDocument(doc) },
    ],
    ROUNDS,
  );
  const worker = fileURLToPath(new URL('./first-validation-worker.js', import.meta.url));
  const startup = JSON.parse(spawnSync(process.execPath, [worker], { encoding: 'utf8' }).stdout) as {
    fromStartMs: number;
    validateMs: number;
  };
  console.log(`\n== validation: NIST SP 800-53 rev5 catalog, already parsed, median of ${ROUNDS}`);
  console.log(row('floor: ajv + NIST 1.0.0 schema', results.get('nist')!, results.get('nist')!, 'floor'));
  console.log(row('validate (ours, 1.0.0)', results.get('ours')!, results.get('nist')!, 'floor', 'target <= 1.50x'));
  console.log(
    `first validation in a fresh process: ${startup.fromStartMs.toFixed(0)} ms from process start (validation itself ${startup.validateMs.toFixed(0)} ms)   (target < 1000 ms)`,
  );
}
