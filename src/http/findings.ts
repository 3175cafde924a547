import type { ValidationIssue } from '../oscal/validate/index.js';
import type { StoredFinding } from '../store/types.js';

/** A finding as both interfaces give it: in the error detail's terms (kebab-case), level always said. */
export function findingJson(f: ValidationIssue | StoredFinding): Record<string, unknown> {
  return {
    code: f.code,
    level: f.level ?? 'ERROR',
    ...(f.constraintId !== undefined ? { 'constraint-id': f.constraintId } : {}),
    message: f.message,
    path: f.path,
    ...(f.metapath !== undefined ? { metapath: f.metapath } : {}),
    ...(f.line !== undefined ? { line: f.line } : {}),
    ...(f.column !== undefined ? { column: f.column } : {}),
    ...(f.source !== undefined ? { source: f.source } : {}),
  };
}
