import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { OscalError } from '../errors.js';
import type { ParsedDocument } from './document.js';
import { checkJsonNesting } from './nesting.js';
import { pointerSegments, positionAt, positionsIn, type Locator } from './positions.js';
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

/** Finds where JSON pointers are in the text; the text is parsed once for all of them. */
export function jsonLocator(text: string): Locator {
  const root = parseTree(text);
  const positionOf = positionsIn(text);
  return (path) => {
    const node = root && findNodeAtLocation(root, pointerSegments(path));
    if (!node) return undefined;
    return positionOf(node.parent?.type === 'property' ? node.parent.offset : node.offset);
  };
}

/** Adds line and column to an error that carries a JSON pointer. */
export function locateInJson(text: string, error: OscalError): OscalError {
  if (error.path === undefined || error.line !== undefined) return error;
  Object.assign(error, jsonLocator(text)(error.path));
  return error;
}
