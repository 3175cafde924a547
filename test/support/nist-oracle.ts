/**
 * NIST's official JSON Schemas of the OSCAL 1.0.x releases (../shared/oscal/schemas), compiled
 * with plain ajv, as an oracle that owes nothing to our Metaschema compiler.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED } from './shared.js';

const SCHEMAS = join(SHARED, 'oscal', 'schemas');

/** Releases NIST published a JSON Schema for in ../shared, oldest first. */
export const NIST_SCHEMA_VERSIONS: readonly string[] = readdirSync(SCHEMAS)
  .filter((d) => /^v\d+\.\d+\.\d+$/.test(d))
  .map((d) => d.slice(1))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

const compiled = new Map<string, ValidateFunction>();

/** Compiling one of these schemas takes a quarter of a second; each is compiled once per process. */
function validatorFor(version: string): ValidateFunction {
  let validate = compiled.get(version);
  if (!validate) {
    if (!NIST_SCHEMA_VERSIONS.includes(version)) throw new Error(`NIST published no JSON Schema for OSCAL ${version} here`);
    // Not strict: the oracle takes the schemas as NIST published them, without ajv's opinions on schema style.
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, `v${version}`, 'oscal_complete_schema.json'), 'utf8')));
    compiled.set(version, validate);
  }
  return validate;
}

export interface OracleVerdict {
  valid: boolean;
  errors: ErrorObject[];
}

/** Judges an OSCAL JSON document with NIST's complete schema of `version`. */
export function nistVerdict(json: unknown, version: string): OracleVerdict {
  const validate = validatorFor(version);
  const valid = validate(json);
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

/**
 * The complete schema is a oneOf over the models, so an invalid document also collects one
 * "wrong root" error per other model; these are the errors about the document itself.
 */
export function relevantErrors(verdict: OracleVerdict): string[] {
  const describe = (e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`;
  const own = verdict.errors.filter((e) => e.keyword !== 'oneOf' && !(e.instancePath === '' && (e.keyword === 'required' || e.keyword === 'additionalProperties')));
  // A document with a wrong root has nothing but those.
  return (own.length ? own : verdict.errors).map(describe);
}
