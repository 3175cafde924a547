import type { Level } from '../constraints/index.js';
import type { ConstraintSummary, ValidationIssue, ValidationResult } from './issues.js';

/** A result and the file (or, on the server, the document) it is about. */
export type FileResult = ValidationResult & { file: string };

const SARIF_LEVEL: Record<Level, 'error' | 'warning' | 'note'> = {
  CRITICAL: 'error',
  ERROR: 'error',
  WARNING: 'warning',
  INFORMATIONAL: 'note',
  DEBUG: 'note',
};

interface Rule {
  id: string;
  name?: string;
  shortDescription?: { text: string };
  helpUri?: string;
  defaultConfiguration?: { level: string };
  properties?: Record<string, unknown>;
}

function ruleOf(summary: ConstraintSummary): Rule {
  return {
    id: summary.id,
    ...(summary.formalName ? { name: summary.formalName } : {}),
    ...(summary.description ? { shortDescription: { text: summary.description } } : {}),
    ...(summary.helpUrl ? { helpUri: summary.helpUrl } : {}),
    defaultConfiguration: { level: SARIF_LEVEL[summary.level] },
    properties: { kind: summary.kind, source: summary.source },
  };
}

function artifact(file: string): string {
  return file === '-' ? 'stdin' : file;
}

function ruleIdOf(issue: ValidationIssue): string {
  return issue.constraintId ?? issue.code;
}

/**
 * A SARIF 2.1.0 log: one rule per constraint (with its formal name, description and help URL)
 * or schema check, and one result per issue, located by file, line and column and by JSON
 * pointer and Metapath. With `includePass`, each constraint that held on some node and failed on
 * none gets a result of kind "pass", so a reader can tell it from one that did not apply; a
 * constraint that could not be evaluated, or whose closed list left out a value another
 * constraint allowed, has no pass (as metaschema-java reports).
 */
export function sarifLog(results: FileResult[], includePass = false): unknown {
  const known = new Map<string, ConstraintSummary>();
  for (const r of results) for (const c of r.constraints ?? []) known.set(c.id, c);
  const sarifResults = results.flatMap((r) => {
    const failures = r.issues.map((issue) => {
      const ruleId = ruleIdOf(issue);
      const region =
        issue.line !== undefined ? { region: { startLine: issue.line, startColumn: issue.column ?? 1 } } : {};
      const logical = [{ fullyQualifiedName: issue.path || '/', kind: 'element' }];
      if (issue.metapath) logical.push({ fullyQualifiedName: issue.metapath, kind: 'element' });
      return {
        ruleId,
        kind: 'fail',
        level: SARIF_LEVEL[issue.level ?? 'ERROR'],
        message: { text: issue.message },
        locations: [
          { physicalLocation: { artifactLocation: { uri: artifact(r.file) }, ...region }, logicalLocations: logical },
        ],
      };
    });
    const passes = includePass
      ? (r.constraints ?? [])
          .filter((c) => c.held && !c.failed)
          .map((c) => ({
            ruleId: c.id,
            kind: 'pass',
            level: 'none',
            message: { text: `${c.formalName ?? c.id} holds` },
            locations: [{ physicalLocation: { artifactLocation: { uri: artifact(r.file) } } }],
          }))
      : [];
    return [...failures, ...passes];
  });
  // The rules the results name; a constraint that did not apply is not in the log at all.
  const rules = new Map<string, Rule>();
  for (const { ruleId } of sarifResults) {
    if (!rules.has(ruleId)) {
      const summary = known.get(ruleId);
      rules.set(ruleId, summary ? ruleOf(summary) : { id: ruleId });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'oscal-depot',
            rules: [...rules.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
          },
        },
        results: sarifResults,
      },
    ],
  };
}
