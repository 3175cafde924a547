import { FAILSAFE_SCHEMA, load, YAMLException } from 'js-yaml';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { OscalError } from '../errors.js';
import type { ParsedDocument } from './document.js';
import { pointerSegments, type Locator } from './positions.js';
import { readTree } from './tree-reader.js';

/** An anchor (`&name`) opening a node; text merely containing "&" after a word does not match. */
const ANCHOR = /(?:^|[\s\[{,:-])&[^\s,\[\]{}]/;

/**
 * YAML is loaded with the failsafe schema, so every scalar arrives as the string written and the
 * model alone decides what is a number or a boolean (`version: 1.0` stays "1.0", a timestamp is
 * never turned into a Date).
 */
export function readYaml(text: string): ParsedDocument {
  let tree: unknown;
  try {
    tree = load(text, { schema: FAILSAFE_SCHEMA });
  } catch (e) {
    if (e instanceof YAMLException) {
      throw new OscalError('malformed', `not valid YAML: ${e.reason}`, e.mark ? { line: e.mark.line + 1, column: e.mark.column + 1 } : {});
    }
    throw e;
  }
  if (ANCHOR.test(text)) rejectAliases(tree);
  try {
    return readTree(tree, true);
  } catch (e) {
    throw e instanceof OscalError ? locateInYaml(text, e) : e;
  }
}

/**
 * An alias makes two places share one node, and nested aliases multiply (the "billion laughs"
 * shape). OSCAL never needs them, so a node reached twice is refused before anything walks it.
 */
function rejectAliases(tree: unknown): void {
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (seen.has(node)) throw new OscalError('forbidden-construct', 'YAML anchors and aliases are not accepted in OSCAL documents; write the content out in full');
    seen.add(node);
    for (const child of Object.values(node)) visit(child);
  };
  visit(tree);
}

/** Finds where JSON pointers are in YAML text; the text is parsed once for all of them. */
export function yamlLocator(text: string): Locator {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: false });
  const offsetOf = (segments: (string | number)[]): number | undefined => {
    const node = doc.getIn(segments, true);
    return isNode(node) ? node.range?.[0] : undefined;
  };
  return (path) => {
    const segments = pointerSegments(path);
    // A missing property has no node: point at the object that lacks it.
    const offset = offsetOf(segments) ?? (segments.length > 0 ? offsetOf(segments.slice(0, -1)) : undefined);
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
}

export function locateInYaml(text: string, error: OscalError): OscalError {
  if (error.path === undefined || error.line !== undefined) return error;
  Object.assign(error, yamlLocator(text)(error.path));
  return error;
}
