/**
 * Build step: compiles each release's JSON Schema with ajv into standalone CommonJS code, so a
 * server or CLI start loads ready validation functions instead of compiling for seconds.
 */
import { Ajv, _ } from 'ajv';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { schemaId, type JsonSchema } from './json-schema.js';

export function compileValidators(schema: JsonSchema, version: string, roots: string[]): string {
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
  ajv.addSchema(schema);
  const exports = Object.fromEntries(roots.map((root) => [root, `${schemaId(version)}#/definitions/model-${root}`]));
  return standaloneCode.default(ajv, exports);
}
