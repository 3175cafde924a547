/**
 * NIST's official JSON Schemas of the OSCAL 1.0.x releases (../shared/oscal/schemas), compiled
 * with plain ajv, and their official XSDs, read by libxml2, as an oracle that owes nothing to
 * our Metaschema compiler.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { XmlDocument, XmlLibError, XsdValidator } from 'libxml2-wasm';
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
    if (!NIST_SCHEMA_VERSIONS.includes(version))
      throw new Error(`NIST published no JSON Schema for OSCAL ${version} here`);
    // Not strict: the oracle takes the schemas as NIST published them, without ajv's opinions on schema style.
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    validate = ajv.compile(
      JSON.parse(readFileSync(join(SCHEMAS, `v${version}`, 'oscal_complete_schema.json'), 'utf8')),
    );
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
  const own = verdict.errors.filter(
    (e) =>
      e.keyword !== 'oneOf' &&
      !(e.instancePath === '' && (e.keyword === 'required' || e.keyword === 'additionalProperties')),
  );
  // A document with a wrong root has nothing but those.
  return (own.length ? own : verdict.errors).map(describe);
}

const xsdValidators = new Map<string, XsdValidator>();

/**
 * The one place XML meets an XSD: NIST's official XSD of `version`, by libxml2 (the npm package
 * libxml2-wasm: the same schema validator as Debian's xmllint, in process, with the same verdicts
 * and messages). Loading the 9,000-line XSD dominates, so each release's is compiled once per
 * process and kept; a document that is not well-formed XML is invalid, with the parser's messages.
 */
export function xsdVerdict(xml: string, version: string): XsdVerdict {
  let validator = xsdValidators.get(version);
  if (!validator) {
    if (!NIST_SCHEMA_VERSIONS.includes(version)) throw new Error(`NIST published no XSD for OSCAL ${version} here`);
    const schema = join(SCHEMAS, `v${version}`, 'oscal_complete_schema.xsd');
    const schemaDoc = XmlDocument.fromString(readFileSync(schema, 'utf8'), { url: schema });
    try {
      validator = XsdValidator.fromDoc(schemaDoc);
    } finally {
      schemaDoc.dispose();
    }
    xsdValidators.set(version, validator);
  }
  const messages = (e: unknown) => {
    if (!(e instanceof XmlLibError)) throw e;
    return e.details.map((d) => `${d.line}: ${d.message.trim()}`);
  };
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (e) {
    return { valid: false, errors: messages(e) };
  }
  try {
    validator.validate(doc);
    return { valid: true, errors: [] };
  } catch (e) {
    return { valid: false, errors: messages(e) };
  } finally {
    doc.dispose();
  }
}

/** NIST's XSD verdict on each document, of its own release. */
export function xsdVerdicts(docs: readonly { xml: string; version: string }[]): XsdVerdict[] {
  return docs.map(({ xml, version }) => xsdVerdict(xml, version));
}

export interface XsdVerdict {
  valid: boolean;
  /** libxml2's messages, each after the line it is about: as xmllint prints them, without the file name. */
  errors: string[];
}
