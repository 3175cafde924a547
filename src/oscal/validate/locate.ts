import type { Format } from '../formats/document.js';
import { jsonLocator } from '../formats/json-reader.js';
import type { Locator } from '../formats/positions.js';
import { xmlPositions } from '../formats/xml-reader.js';
import { yamlLocator } from '../formats/yaml-reader.js';
import type { ValidationIssue } from './issues.js';

function xmlLocator(text: string, version?: string): Locator {
  const positions = xmlPositions(text, version);
  // An attribute or a missing child has no element of its own: use the closest enclosing one.
  return (path) => {
    for (let p = path; ; p = p.slice(0, p.lastIndexOf('/'))) {
      const found = positions.get(p);
      if (found || p === '') return found;
    }
  };
}

/** Each reads the text once for all the paths (JSON's looks for those paths alone). */
const LOCATORS: Record<Format, (text: string, paths: readonly string[], version?: string) => Locator> = {
  json: jsonLocator,
  yaml: yamlLocator,
  xml: (text, _paths, version) => xmlLocator(text, version),
};

/**
 * Adds the source line and column to issues found on the parsed document. Only done when there
 * are issues, so a valid document never pays for position tracking. `version` is the release an
 * XML document that declares none was read as.
 */
export function locateIssues(
  text: string,
  format: Format,
  issues: Pick<ValidationIssue, 'path' | 'line' | 'column'>[],
  version?: string,
): void {
  const todo = issues.filter((i) => i.line === undefined);
  if (todo.length === 0) return;
  const locate = LOCATORS[format](
    text,
    todo.map((i) => i.path),
    version,
  );
  for (const issue of todo) {
    const at = locate(issue.path);
    if (at) {
      issue.line = at.line;
      issue.column = at.column;
    }
  }
}
