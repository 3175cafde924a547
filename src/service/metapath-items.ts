/**
 * A Metapath result as both interfaces show it: each item of the sequence as a small JSON object
 * (a node by its Metapath, JSON pointer and a short text; an atomic value with its type), and an
 * error of the expression with its line and column in it.
 */
import {
  isNode,
  metapathOf,
  MetapathError,
  stringOf,
  type Atomic,
  type Item,
  type MetaNode,
} from '../oscal/metapath/index.js';
import { typeOf, XArray, XFunction, XMap } from '../oscal/metapath/items.js';

export interface NodeResult {
  kind: 'node';
  metapath: string;
  pointer: string;
  text: string;
}

export interface AtomicResult {
  kind: 'atomic';
  type: string;
  /** xs:boolean as a JSON boolean, xs:integer as a JSON number where it is exact; others as their canonical text. */
  value: string | number | boolean;
  /** The value was longer than the caller takes, and `value` holds its start. */
  'value-truncated'?: true;
}

/** Maps, arrays and functions (XPath 3.1), rendered as JSON: nodes by their Metapath, atomic values as above. */
export interface OtherResult {
  kind: 'map' | 'array' | 'function';
  value: unknown;
  /** Members were left out, or strings cut, to keep within the caller's length. */
  'value-truncated'?: true;
}

export type ResultItem = NodeResult | AtomicResult | OtherResult;

export interface ResultSequence {
  /** How many items the expression gave. */
  count: number;
  /** Whether `items` holds only the first of them. */
  truncated: boolean;
  items: ResultItem[];
}

/** Characters of an assembly's text: enough to recognise it on one line. */
const ASSEMBLY_TEXT = 60;

export interface ResultLimits {
  /** Items given at most; the count is of all. */
  maxItems?: number;
  /** Characters of an atomic value, or of a field's or flag's text, given at most. */
  maxValueLength?: number;
}

export function resultSequence(items: readonly Item[], limits: ResultLimits = {}): ResultSequence {
  const shown = items.slice(0, limits.maxItems ?? items.length);
  return {
    count: items.length,
    truncated: shown.length < items.length,
    items: shown.map((item) => resultItem(item, limits.maxValueLength)),
  };
}

export function resultItem(item: Item, maxValueLength = Infinity): ResultItem {
  if (isNode(item))
    return { kind: 'node', metapath: metapathOf(item), pointer: item.pointer(), text: nodeText(item, maxValueLength) };
  if (item instanceof XMap || item instanceof XArray || item instanceof XFunction) {
    const rendering = new Rendering(maxValueLength);
    const value = rendering.json(item);
    const kind = item instanceof XMap ? 'map' : item instanceof XArray ? 'array' : 'function';
    return rendering.truncated ? { kind, value, 'value-truncated': true } : { kind, value };
  }
  const value = atomicJson(item);
  if (typeof value === 'string' && value.length > maxValueLength)
    return {
      kind: 'atomic',
      type: `xs:${typeOf(item)}`,
      value: value.slice(0, maxValueLength),
      'value-truncated': true,
    };
  return { kind: 'atomic', type: `xs:${typeOf(item)}`, value };
}

/** One line of the command's output: a node's Metapath and text, a tab between; any other item as its text. */
export function resultLine(item: ResultItem): string {
  switch (item.kind) {
    case 'node':
      return item.text === '' ? item.metapath : `${item.metapath}\t${item.text}`;
    case 'atomic':
      return String(item.value);
    default:
      return JSON.stringify(item.value);
  }
}

/**
 * A field's or flag's value; of an assembly, the start of the values of the fields below it, a
 * space between (its string value runs them together: "Policy and Proceduresorganization-defined …"),
 * read only as far as the line shows.
 */
function nodeText(node: MetaNode, maxLength: number): string {
  if (node.kind === 'field' || node.kind === 'flag') return cut(collapse(node.stringValue()), maxLength);
  let text = '';
  const visit = (n: MetaNode): void => {
    for (const child of n.children()) {
      if (text.length > ASSEMBLY_TEXT) return;
      if (child.kind === 'field') text += ` ${child.stringValue()}`;
      else visit(child);
    }
  };
  visit(node);
  return cut(collapse(text), ASSEMBLY_TEXT);
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}…` : text);

function atomicJson(value: Atomic): string | number | boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  return stringOf(value);
}

/**
 * Maps and arrays as JSON, within a budget (the characters of their strings, and one for every
 * other value): a map over a whole catalog, or an array of ten million integers, is cut short.
 */
class Rendering {
  truncated = false;

  constructor(private left: number) {}

  json(item: Item): unknown {
    if (isNode(item)) return this.text(metapathOf(item));
    if (item instanceof XMap) {
      const out: Record<string, unknown> = {};
      for (const { key, value } of item.entries.values()) {
        if (!this.spend(1)) break;
        out[stringOf(key)] = this.sequence(value);
      }
      return out;
    }
    if (item instanceof XArray) {
      const out: unknown[] = [];
      for (const member of item.members) {
        if (!this.spend(1)) break;
        out.push(this.sequence(member));
      }
      return out;
    }
    if (item instanceof XFunction) return this.text(`${item.name || 'function'}#${item.arity}`);
    const value = atomicJson(item as Atomic);
    return typeof value === 'string' ? this.text(value) : value;
  }

  /** A sequence inside a map or array: one item as itself, none as null, several as a JSON array. */
  private sequence(items: readonly Item[]): unknown {
    if (items.length === 1) return this.json(items[0]!);
    if (items.length === 0) return null;
    const out: unknown[] = [];
    for (const item of items) {
      if (!this.spend(1)) break;
      out.push(this.json(item));
    }
    return out;
  }

  private text(value: string): string {
    const kept = value.slice(0, Math.max(this.left, 0));
    this.spend(value.length);
    return kept;
  }

  private spend(cost: number): boolean {
    if (this.left < cost) this.truncated = true;
    this.left -= cost;
    return this.left >= 0;
  }
}

/** A Metapath error as a person reads it: where in the expression (line and column), what, and its W3C code. */
export interface ExpressionProblem {
  code: string;
  message: string;
  line?: number;
  column?: number;
}

export function expressionProblem(
  e: Pick<MetapathError, 'code' | 'message' | 'position'>,
  expression: string,
): ExpressionProblem {
  if (e.position === undefined) return { code: e.code, message: e.message };
  const before = expression.slice(0, e.position);
  const line = before.split('\n').length;
  const column = e.position - before.lastIndexOf('\n');
  // The parser says "(at character N)" of the expression as one line; line and column replace it.
  return { code: e.code, message: e.message.replace(/ \(at character \d+\)$/, ''), line, column };
}

/** "at line 1, column 7: unexpected ")" [XPST0003]" */
export function problemText(problem: ExpressionProblem): string {
  const where = problem.line !== undefined ? `at line ${problem.line}, column ${problem.column}: ` : '';
  return `${where}${problem.message} [${problem.code}]`;
}
