/**
 * NIST's official JSON Schemas of the OSCAL 1.0.x releases (../shared/oscal/schemas), compiled
 * with plain ajv, as an oracle that owes nothing to our Metaschema compiler.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/**
 * NIST's official XSD of each document's release, by xmllint (Debian's libxml2-utils), one
 * process per release for the whole batch: starting xmllint and loading the XSD dominate.
 */
export function xsdVerdicts(docs: readonly { xml: string; version: string }[]): XsdVerdict[] {
  const work = mkdtempSync(join(tmpdir(), 'oscal-xsd-'));
  try {
    const verdicts: XsdVerdict[] = [];
    const byVersion = new Map<string, number[]>();
    docs.forEach(({ version }, i) => byVersion.set(version, [...(byVersion.get(version) ?? []), i]));
    for (const [version, indexes] of byVersion) {
      const files = indexes.map((i) => {
        const file = join(work, `doc-${i}.xml`);
        writeFileSync(file, docs[i]!.xml);
        return file;
      });
      const schema = join(SCHEMAS, `v${version}`, 'oscal_complete_schema.xsd');
      const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schema, ...files], { encoding: 'utf8', maxBuffer: 64 << 20 });
      if (run.error) throw run.error;
      indexes.forEach((i, k) => {
        const file = files[k]!;
        const lines = run.stderr.split('\n').filter((l) => l.startsWith(`${file}:`));
        const valid = run.stderr.includes(`${file} validates`);
        if (!valid && !run.stderr.includes(`${file} fails to validate`)) throw new Error(`xmllint said nothing about ${file}:\n${run.stderr}`);
        verdicts[i] = { valid, errors: lines.map((l) => l.slice(file.length + 1)) };
      });
    }
    return verdicts;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface XsdVerdict {
  valid: boolean;
  /** xmllint's messages, without the file name. */
  errors: string[];
}
