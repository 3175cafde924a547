import { OscalError } from '../errors.js';
import { detectFormat, parseOscal, type Format, type ParsedDocument } from '../formats/index.js';
import { modelFor } from '../model/model.js';
import { validatorsFor } from './compiled.js';
import type { ValidationIssue, ValidationResult } from './issues.js';
import { locateIssues } from './locate.js';
import { describeErrors } from './messages.js';

export type { ValidationIssue, ValidationResult } from './issues.js';

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
  return describeErrors(validate.errors ?? [], modelFor(doc.version), doc.content, options.maxIssues);
}

/** Reads and checks a document in any format; every issue carries its line and column when known. */
export function validateText(text: string, options: ValidateOptions & { format?: Format } = {}): ValidationResult {
  const format = options.format ?? detectFormat(text);
  let doc: ParsedDocument;
  try {
    doc = parseOscal(text, format);
  } catch (e) {
    if (!(e instanceof OscalError)) throw e;
    const issue: ValidationIssue = { code: e.code, path: e.path ?? '', message: e.message };
    if (e.line !== undefined) issue.line = e.line;
    if (e.column !== undefined) issue.column = e.column;
    return { valid: false, format, issues: [issue] };
  }
  const issues = validateDocument(doc, options);
  locateIssues(text, format, issues);
  return { valid: issues.length === 0, model: doc.model, version: doc.version, format, issues };
}
