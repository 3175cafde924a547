import {
  checkConstraints,
  severity,
  type ConstraintOptions,
  type ConstraintResult,
  type Level,
} from '../constraints/index.js';
import { OscalError } from '../errors.js';
import { detectFormat, type Format, type ParsedDocument } from '../formats/index.js';
import { readJson } from '../formats/json-reader.js';
import { readXml } from '../formats/xml-reader.js';
import type { ReadProblems } from '../formats/tree-reader.js';
import { readYaml } from '../formats/yaml-reader.js';
import { modelFor } from '../model/model.js';
import { SUPPORTED_VERSIONS } from '../model/versions.js';
import { validatorsFor } from './compiled.js';
import type { ConstraintSummary, ValidationIssue, ValidationResult } from './issues.js';
import { locateIssues } from './locate.js';
import { describeErrors } from './messages.js';
import { setAsideDisagreements } from './schema-disagreements.js';

export type { ConstraintSummary, ValidationIssue, ValidationResult } from './issues.js';

export interface ValidateOptions {
  /** The model the caller expects (e.g. the endpoint's); another model is an issue of its own. */
  expectedModel?: string;
  /** Describe at most this many issues: describing each costs, and a document may have millions. */
  maxIssues?: number;
}

/**
 * Checks a parsed document against the JSON Schema of the release it declares, using that
 * model's own schema (not a oneOf of all models, whose errors would be noise).
 */
export function validateDocument(doc: ParsedDocument, options: ValidateOptions = {}): ValidationIssue[] {
  if (options.expectedModel !== undefined && doc.model !== options.expectedModel) {
    return [
      {
        code: 'unexpected-model',
        path: `/${doc.model}`,
        message: `expected a ${options.expectedModel} document, but this is a ${doc.model}`,
      },
    ];
  }
  const validate = validatorsFor(doc.version)[doc.model];
  if (!validate) {
    return [
      {
        code: 'model-not-in-version',
        path: `/${doc.model}`,
        message: `${doc.model} is not a model of OSCAL ${doc.version}`,
      },
    ];
  }
  if (validate(doc.content)) return [];
  const model = modelFor(doc.version);
  const { errors, warnings } = setAsideDisagreements(validate, model, doc.content, [...(validate.errors ?? [])]);
  return [...describeErrors(errors, model, doc.content, options.maxIssues), ...warnings];
}

/** Whether any issue is at ERROR or above (schema and reading issues have no level: they are errors). */
export function hasErrors(issues: readonly ValidationIssue[]): boolean {
  return issues.some((i) => atLeast(i.level, 'ERROR'));
}

/** Reads and checks a document in any format against its schema; every issue carries its line and column when known. */
export function validateText(text: string, options: ValidateOptions & { format?: Format } = {}): ValidationResult {
  const { format, doc, unread, problems } = read(text, options.format, options.maxIssues);
  if (!doc) return { valid: false, format, issues: [unread] };
  const issues = withReadingProblems(problems, validateDocument(doc, options));
  locateIssues(text, format, issues);
  return { valid: !hasErrors(issues), model: doc.model, version: doc.version, format, issues };
}

type ReadOutcome =
  | { format: Format; doc: ParsedDocument; problems: ValidationIssue[]; unread?: never }
  | { format: Format; doc?: never; problems?: never; unread: ValidationIssue };

const BOM = '\uFEFF';
/** Reading problems recorded when no limit is given; more are skipped unrecorded. */
const MAX_READING_PROBLEMS = 10_000;

/**
 * The document and what its reading found that the model does not allow, or the issue that
 * stopped its reading. JSON and YAML are read past such problems, so that one run reports them
 * together with the schema's findings (a missing required field beside an unknown property);
 * so is XML, past unknown elements and attributes and values it cannot type. A document that
 * declares no release is read as `assumeVersion`.
 */
function read(
  text: string,
  given: Format | undefined,
  maxIssues = MAX_READING_PROBLEMS,
  assumeVersion?: string,
): ReadOutcome {
  const format = given ?? detectFormat(text);
  const problems: ReadProblems = {
    found: [],
    limit: Math.min(maxIssues, MAX_READING_PROBLEMS),
    ...(assumeVersion !== undefined ? { assumeVersion } : {}),
  };
  try {
    return { format, doc: readLeniently(text, format, problems), problems: problems.found.map(readingIssue) };
  } catch (e) {
    if (!(e instanceof OscalError)) throw e;
    return { format, unread: readingIssue(e) };
  }
}

function readLeniently(text: string, format: Format, problems: ReadProblems): ParsedDocument {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (format === 'json') return readJson(body, problems);
  if (format === 'yaml') return readYaml(body, problems);
  return readXml(body, undefined, problems);
}

/**
 * Reading problems first, then the schema's issues except those at or below a value a reading
 * problem names: a value of the wrong type was left in the tree, and the schema would report it
 * again in other words.
 */
function withReadingProblems(problems: ValidationIssue[], schemaIssues: ValidationIssue[]): ValidationIssue[] {
  if (problems.length === 0) return schemaIssues;
  const recorded = new Set(problems.map((p) => p.path));
  // Each prefix of the pointer is looked up, so thousands of issues cost thousands of lookups, not millions.
  const covered = (path: string) => {
    for (let p = path; p !== ''; p = p.slice(0, p.lastIndexOf('/'))) if (recorded.has(p)) return true;
    return false;
  };
  return [...problems, ...schemaIssues.filter((i) => !covered(i.path))];
}

export function readingIssue(e: OscalError): ValidationIssue {
  const issue: ValidationIssue = { code: e.code, path: e.path ?? '', message: e.message };
  if (e.line !== undefined) issue.line = e.line;
  if (e.column !== undefined) issue.column = e.column;
  return issue;
}

export interface FullValidateOptions extends ValidateOptions, ConstraintOptions {
  format?: Format;
  /** Check the schema (the default); oscal-cli's --disable-schema-validation turns it off. */
  schema?: boolean;
  /** Check the Metaschema constraints (the default); oscal-cli's --disable-constraint-validation turns it off. */
  constraints?: boolean;
  /** The release to check a document that declares none against; the newest when not given. */
  oscalVersion?: string;
  /** The base for the document once it is read, when it depends on what the document is (in place of `base`). */
  baseOf?: (doc: ParsedDocument) => string;
}

/**
 * NIST's whole definition of valid, as the reference implementation applies it: the schema of
 * the declared release, then the release's own constraints and any external constraint sets,
 * whatever the schema found. Constraints run over whatever tree the reader could build (what
 * it could not read is left out), so a deliberately partial document still gets a verdict on
 * every rule (docs/decisions/0094-constraints-run-whatever-schema.md).
 */
export async function validateFully(text: string, options: FullValidateOptions = {}): Promise<ValidationResult> {
  const assumed = options.oscalVersion ?? NEWEST_VERSION;
  const { format, doc, unread, problems } = read(text, options.format, options.maxIssues, assumed);
  if (!doc) return { valid: false, format, issues: [unread], constraintsChecked: false };
  const base = options.baseOf ? { base: options.baseOf(doc) } : {};
  const result = await checkParsed(doc, problems, { ...options, ...base });
  if (!declaresVersion(doc)) result.issues.unshift(assumedVersionNote(doc, options.oscalVersion !== undefined));
  locateIssues(text, format, result.issues, doc.version);
  return { ...result, format };
}

/** validateFully for a document already read; issues carry no source positions. */
export function validateParsed(doc: ParsedDocument, options: FullValidateOptions = {}): Promise<ValidationResult> {
  return checkParsed(doc, [], options);
}

async function checkParsed(
  doc: ParsedDocument,
  readingProblems: ValidationIssue[],
  options: FullValidateOptions,
): Promise<ValidationResult> {
  // Reading problems are what the schema would say of the parts that could not be read.
  const schemaIssues =
    options.schema === false ? [] : withReadingProblems(readingProblems, validateDocument(doc, options));
  const base = { model: doc.model, version: doc.version };
  if (options.constraints === false) {
    return { ...base, valid: !hasErrors(schemaIssues), issues: schemaIssues, constraintsChecked: false };
  }
  const checked = await checkConstraints(doc, options);
  const issues = [...schemaIssues, ...constraintIssues(checked)];
  return { ...base, valid: !hasErrors(issues), issues, constraintsChecked: true, constraints: summaries(checked) };
}

const NEWEST_VERSION = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]!;

function declaresVersion(doc: ParsedDocument): boolean {
  const body = doc.content[doc.model] as { metadata?: { 'oscal-version'?: unknown } } | undefined;
  return body?.metadata?.['oscal-version'] !== undefined;
}

function assumedVersionNote(doc: ParsedDocument, chosen: boolean): ValidationIssue {
  return {
    code: 'version-assumed',
    path: `/${doc.model}/metadata`,
    level: 'INFORMATIONAL',
    message: chosen
      ? `the document declares no metadata/oscal-version; it was checked against OSCAL ${doc.version}, the release asked for`
      : `the document declares no metadata/oscal-version; it was checked against OSCAL ${doc.version}, the newest release (the oscal-version option chooses another)`,
  };
}

/** Whether an issue is at `level` or more severe; issues without a level are errors. */
export function atLeast(level: Level | undefined, threshold: Level): boolean {
  return severity(level ?? 'ERROR') >= severity(threshold);
}

/** Constraint findings as validation issues (no source positions yet). */
export function constraintIssues(result: ConstraintResult): ValidationIssue[] {
  return result.findings.map((f) => ({
    code: f.processingError ? 'constraint-error' : `constraint-${f.kind}`,
    path: f.path,
    message: f.message,
    level: f.level,
    constraintId: f.constraintId,
    metapath: f.metapath,
    source: f.source,
  }));
}

const SARIF_NS = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0';

function summaries(result: ConstraintResult): ConstraintSummary[] {
  return [...result.outcomes.values()].map(({ constraint: c, source, applied, held, failed }) => {
    const help = c.props?.find((p) => p.name === 'help-url' && (p.namespace === undefined || p.namespace === SARIF_NS));
    return {
      id: c.id,
      kind: c.kind,
      level: c.level,
      source,
      applied,
      held,
      failed,
      ...(c.formalName ? { formalName: c.formalName } : {}),
      ...(c.description ? { description: c.description } : {}),
      ...(help ? { helpUrl: help.value } : {}),
    };
  });
}
