/**
 * Build step: compiles each release's JSON Schema with ajv into standalone CommonJS code, so a
 * server or CLI start loads ready validation functions instead of compiling for seconds.
 */
import { Ajv, _ } from 'ajv';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { DATATYPES } from './compile-ir.js';
import { datatypeRef, schemaId, type JsonSchema } from './json-schema.js';

function newAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    // Choices are written as not-required pairs, which name properties defined one level up.
    strictRequired: false,
    allowUnionTypes: true,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats.default(ajv);
  // Internationalized host names are left to the pattern-free datatype; ajv-formats has no check for them.
  ajv.addFormat('idn-hostname', true);
  return ajv;
}

export function compileValidators(schema: JsonSchema, version: string, roots: string[]): string {
  const ajv = newAjv();
  ajv.addSchema(schema);
  const exports = Object.fromEntries(roots.map((root) => [root, `${schemaId(version)}#/definitions/model-${root}`]));
  return appendInPlace(standaloneCode.default(ajv, exports));
}

/**
 * One validator per Metaschema datatype, from the same datatype schema the model schemas use:
 * the `matches` constraint's datatype check (a value given as JSON: number, boolean or string).
 */
export function compileDatatypeValidators(datatypes: Record<string, JsonSchema>): string {
  const ajv = newAjv();
  ajv.addSchema({ $id: DATATYPES_ID, definitions: datatypes });
  const exports = Object.fromEntries(DATATYPES.map((type) => [type, `${DATATYPES_ID}${datatypeRef(type)}`]));
  return standaloneCode.default(ajv, exports);
}

const DATATYPES_ID = 'urn:oscal-depot:schema:metaschema-datatypes';

/** ajv's code for a referenced schema's errors, which copies the whole list each time. */
const CONCAT = /vErrors = vErrors === null \? ([\w.]+)\.errors : vErrors\.concat\(\1\.errors\)/g;

/**
 * With allErrors, ajv gathers the errors of referenced schemas by concatenation: a document with
 * n invalid items then costs n² (minutes for 100 000 bad props). The errors are appended in place.
 */
function appendInPlace(code: string): string {
  const appendErrors = 'function appendErrors(to, from) { for (const e of from) to.push(e); return to; }\n';
  const rewritten = code.replace(CONCAT, 'vErrors = vErrors === null ? $1.errors : appendErrors(vErrors, $1.errors)');
  if (rewritten.includes('vErrors.concat('))
    throw new Error('ajv generated an error concatenation of a form this build does not rewrite');
  return rewritten.replace('"use strict";', `"use strict";${appendErrors}`);
}
