import { checkConstraints, severity, type ConstraintOptions, type ConstraintResult, type Level } from '../constraints/index.js';
import { OscalError } from '../errors.js';
import { detectFormat, parseOscal, type Format, type ParsedDocument } from '../formats/index.js';
import { modelFor } from '../model/model.js';
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
    return [{ code: 'unexpected-model', path: `/${doc.model}`, message: `expected a ${options.expectedModel} document, but this is a ${doc.model}` }];
  }
  const validate = validatorsFor(doc.version)[doc.model];
  if (!validate) {
    return [{ code: 'model-not-in-version', path: `/${doc.model}`, message: `${doc.model} is not a model of OSCAL ${doc.version}` }];
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
  const { format, doc, unread } = read(text, options.format);
  if (!doc) return { valid: false, format, issues: [unread] };
  const issues = validateDocument(doc, options);
  locateIssues(text, format, issues);
  return { valid: !hasErrors(issues), model: doc.model, version: doc.version, format, issues };
}

/** The document, or the issue that stopped its reading. */
function read(text: string, given: Format | undefined): { format: Format; doc: ParsedDocument; unread?: never } | { format: Format; doc?: never; unread: ValidationIssue } {
  const format = given ?? detectFormat(text);
  try {
    return { format, doc: parseOscal(text, format) };
  } catch (e) {
    if (!(e instanceof OscalError)) throw e;
    return { format, unread: readingIssue(e) };
  }
}

export function readingIssue(e: OscalError): ValidationIssue {
  const issue: ValidationIssue = { code: e.code, path: e.path ?? '', message: e.message };
  if (e.line !== undefined) issue.line = e.line;
  if (e.column !== undefined) issue.column = e.column;
  return issue;
}

export interface FullValidateOptions extends ValidateOptions, ConstraintOptions {
  format?: Format;
  /** Check the Metaschema constraints too (the default), after the schema. */
  constraints?: boolean;
  /** The base for the document once it is read, when it depends on what the document is (in place of `base`). */
  baseOf?: (doc: ParsedDocument) => string;
}

/**
 * NIST's whole definition of valid: the schema of the declared release, then (on a document the
 * schema accepts, since constraints read the model's structure) the release's own constraints
 * and any external constraint sets.
 */
export async function validateFully(text: string, options: FullValidateOptions = {}): Promise<ValidationResult> {
  const { format, doc, unread } = read(text, options.format);
  if (!doc) return { valid: false, format, issues: [unread], constraintsChecked: false };
  const result = await validateParsed(doc, options.baseOf ? { ...options, base: options.baseOf(doc) } : options);
  locateIssues(text, format, result.issues);
  return { ...result, format };
}

/** validateFully for a document already read; issues carry no source positions. */
export async function validateParsed(doc: ParsedDocument, options: FullValidateOptions = {}): Promise<ValidationResult> {
  const schemaIssues = validateDocument(doc, options);
  const base = { model: doc.model, version: doc.version };
  if (hasErrors(schemaIssues) || options.constraints === false) {
    return { ...base, valid: !hasErrors(schemaIssues), issues: schemaIssues, constraintsChecked: false };
  }
  const checked = await checkConstraints(doc, options);
  const issues = [...schemaIssues, ...constraintIssues(checked)];
  return { ...base, valid: !hasErrors(issues), issues, constraintsChecked: true, constraints: summaries(checked) };
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
  return [...result.outcomes.values()].map(({ constraint: c, source, applied, failed }) => {
    const help = c.props?.find((p) => p.name === 'help-url' && (p.namespace === undefined || p.namespace === SARIF_NS));
    return {
      id: c.id, kind: c.kind, level: c.level, source, applied, failed,
      ...(c.formalName ? { formalName: c.formalName } : {}),
      ...(c.description ? { description: c.description } : {}),
      ...(help ? { helpUrl: help.value } : {}),
    };
  });
}
