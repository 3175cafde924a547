import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { OscalError } from '../errors.js';
import type { ParsedDocument } from './document.js';
import { jsonOffsets } from './json-offsets.js';
import { checkJsonNesting } from './nesting.js';
import { positionAt, positionsIn, type Locator } from './positions.js';
import { readTree, type ReadProblems } from './tree-reader.js';

/** With `problems`, reads past what the model does not allow and records it there (see readTree). */
export function readJson(text: string, problems?: ReadProblems): ParsedDocument {
  checkJsonNesting(text);
  let tree: unknown;
  try {
    tree = JSON.parse(text);
  } catch {
    throw syntaxError(text);
  }
  try {
    return readTree(tree, false, problems);
  } catch (e) {
    throw e instanceof OscalError ? locateInJson(text, e) : e;
  }
}

/** JSON.parse says little about where; the slower tolerant parser is asked only after a failure. */
function syntaxError(text: string): OscalError {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  const where = first ? positionAt(text, first.offset) : { line: 1, column: 1 };
  const what = first
    ? printParseErrorCode(first.error)
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
    : 'syntax error';
  return new OscalError('malformed', `not valid JSON: ${what}`, where);
}

/** Finds where these JSON pointers are in the text, in one pass for all of them. */
export function jsonLocator(text: string, paths: readonly string[]): Locator {
  const offsets = jsonOffsets(text, paths);
  const positionOf = positionsIn(text);
  return (path) => {
    const offset = offsets.get(path);
    return offset === undefined ? undefined : positionOf(offset);
  };
}

/** Adds line and column to an error that carries a JSON pointer. */
export function locateInJson(text: string, error: OscalError): OscalError {
  if (error.path === undefined || error.line !== undefined) return error;
  Object.assign(error, jsonLocator(text, [error.path])(error.path));
  return error;
}
