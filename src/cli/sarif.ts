import type { ValidationResult } from '../oscal/validate/index.js';

/** A SARIF 2.1.0 log: one result per issue, located by file, line and column, and by JSON pointer. */
export function sarifLog(results: (ValidationResult & { file: string })[]): unknown {
  const rules = new Set<string>();
  const sarifResults = results.flatMap((r) =>
    r.issues.map((issue) => {
      rules.add(issue.code);
      const region = issue.line !== undefined ? { region: { startLine: issue.line, startColumn: issue.column ?? 1 } } : {};
      return {
        ruleId: issue.code,
        level: 'error',
        message: { text: issue.message },
        locations: [{
          physicalLocation: { artifactLocation: { uri: r.file === '-' ? 'stdin' : r.file }, ...region },
          logicalLocations: [{ fullyQualifiedName: issue.path || '/', kind: 'element' }],
        }],
      };
    }),
  );
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'oscal-depot', rules: [...rules].sort().map((id) => ({ id })) } }, results: sarifResults }],
  };
}
