/**
 * Where the official XSD and JSON Schema of one OSCAL release disagree on content, the content
 * is accepted and the disagreement reported as a WARNING, so that a document a program publishes
 * as valid XML is not refused for the JSON Schema's stricter reading, and nobody is left unaware.
 */
import { pointerSegments } from '../formats/positions.js';
import type { AjvError, CompiledValidator } from './compiled.js';
import type { ValidationIssue } from './issues.js';
import { targetAt, valueAt } from './model-paths.js';
import type { OscalModel } from '../model/model.js';

export const SCHEMA_DISAGREEMENT = 'schema-disagreement';

/**
 * From 1.1.0 the JSON Schema types markup-line by the pattern ^[^\n]+$, which refuses an empty
 * string, while the XSD's markup-line is mixed content that may be empty (`<title/>`).
 */
function isEmptyMarkupLine(e: AjvError, model: OscalModel, content: unknown): boolean {
  if (e.keyword !== 'pattern') return false;
  const path = segmentsOf(e.instancePath);
  return valueAt(content, path) === '' && targetAt(model, path).type === 'markup-line';
}

function segmentsOf(pointer: string): string[] {
  return pointerSegments(pointer).map(String);
}

/** A copy of `content` with the value at each pointer replaced. */
function withValues(content: unknown, pointers: readonly string[], value: string): unknown {
  const copy = structuredClone(content);
  for (const pointer of pointers) {
    const path = segmentsOf(pointer);
    (valueAt(copy, path.slice(0, -1)) as Record<string, unknown>)[path[path.length - 1]!] = value;
  }
  return copy;
}

/**
 * The schema's errors once disagreements are set aside, and a warning for each. The document is
 * checked again with a stand-in value where each one was, since an error inside a branch of a
 * oneOf or anyOf also fails the branch, and the stand-in shows what else is wrong.
 */
export function setAsideDisagreements(
  validate: CompiledValidator,
  model: OscalModel,
  content: unknown,
  errors: AjvError[],
): { errors: AjvError[]; warnings: ValidationIssue[] } {
  const empty = [...new Set(errors.filter((e) => isEmptyMarkupLine(e, model, content)).map((e) => e.instancePath))];
  if (empty.length === 0) return { errors, warnings: [] };
  const remaining = validate(withValues(content, empty, 'x')) ? [] : [...(validate.errors ?? [])];
  const warnings = empty.map((path): ValidationIssue => ({
    code: SCHEMA_DISAGREEMENT,
    level: 'WARNING',
    path,
    message: `${segmentsOf(path).at(-1)} is empty: NIST's OSCAL ${model.version} XML Schema accepts an empty markup-line, its JSON Schema does not (pattern ^[^\\n]+$); accepted as the XML Schema reads it`,
  }));
  return { errors: remaining, warnings };
}
