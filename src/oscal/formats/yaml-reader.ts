import { createRequire } from 'node:module';
import { OscalError, pointer } from '../errors.js';
import type { ParsedDocument } from './document.js';
import { pointerSegments, type Locator } from './positions.js';
import { MAX_NESTING, tooDeep } from './nesting.js';
import { readTree, type ReadProblems } from './tree-reader.js';
import { readBlockYaml } from './yaml-block-reader.js';

// The two YAML libraries take longer to load than most commands take to run (a fifth of
// `oscal-depot validate`'s start): they are loaded when YAML that our reader leaves is read or located.
const require = createRequire(import.meta.url);
const jsYaml = () => require('js-yaml') as typeof import('js-yaml');
const yaml = () => require('yaml') as typeof import('yaml');

/** An anchor (`&name`) opening a node; text merely containing "&" after a word does not match. */
const ANCHOR = /(?:^|[\s\[{,:-])&[^\s,\[\]{}]/;

/**
 * YAML is read with every scalar as the string written, so the model alone decides what is a
 * number or a boolean (`version: 1.0` stays "1.0", a timestamp is never turned into a Date). Block
 * style is read by our own reader; whatever it leaves, and every error, by js-yaml's failsafe load.
 * With `problems`, reads past what the model does not allow and records it there, as JSON does
 * (see readTree).
 */
export function readYaml(text: string, problems?: ReadProblems): ParsedDocument {
  const tree = readBlockYaml(text) ?? loadFailsafe(text);
  try {
    return readTree(tree, true, problems);
  } catch (e) {
    throw e instanceof OscalError ? locateInYaml(text, e) : e;
  }
}

/**
 * js-yaml's own depth limit only guards the stack: its count depends on the layout (under a limit
 * of 20 it refused as few as 19 nested collections), so the engine's limit is checked on the tree.
 */
const JS_YAML_MAX_DEPTH = 2 * MAX_NESTING + 2;

function loadFailsafe(text: string): unknown {
  const { FAILSAFE_SCHEMA, load, YAMLException } = jsYaml();
  let tree: unknown;
  try {
    tree = load(text, { schema: FAILSAFE_SCHEMA, maxDepth: JS_YAML_MAX_DEPTH });
  } catch (e) {
    if (e instanceof YAMLException) {
      const where = e.mark ? { line: e.mark.line + 1, column: e.mark.column + 1 } : {};
      // The exception carries no code; its depth refusal is told by its reason.
      if (e.reason.startsWith('nesting exceeded maxDepth')) throw tooDeep(where);
      throw new OscalError('malformed', `not valid YAML: ${e.reason}`, where);
    }
    throw e;
  }
  try {
    checkTree(tree, ANCHOR.test(text));
  } catch (e) {
    throw e instanceof OscalError ? locateInYaml(text, e) : e;
  }
  return tree;
}

/**
 * Refuses a tree that nests deeper than JSON and XML may, and, where the text has an anchor, one
 * in which a node is reached twice: an alias makes two places share one node, and nested aliases
 * multiply (the "billion laughs" shape). OSCAL never needs them.
 */
function checkTree(tree: unknown, mayShare: boolean): void {
  const seen = new Set<object>();
  const path: (string | number)[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (path.length >= MAX_NESTING) throw tooDeep({ path: pointer(path) });
    if (mayShare) {
      if (seen.has(node))
        throw new OscalError(
          'forbidden-construct',
          'YAML anchors and aliases are not accepted in OSCAL documents; write the content out in full',
        );
      seen.add(node);
    }
    for (const [key, child] of Object.entries(node)) {
      path.push(Array.isArray(node) ? Number(key) : key);
      visit(child);
      path.pop();
    }
  };
  visit(tree);
}

/** Finds where JSON pointers are in YAML text; the text is parsed once for all of them. */
export function yamlLocator(text: string): Locator {
  const { isNode, LineCounter, parseDocument } = yaml();
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
