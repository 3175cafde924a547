import { MarkupError, markupToMarkdown, type MarkupNode } from '../markup/index.js';
import { failAt } from './xml-reader-errors.js';
import { XMLNS_NS, type NamespaceScopes, type Attribute } from './xml-namespaces.js';

/**
 * Markup content (the prose of markup-line and markup-multiline fields, and the unwrapped prose
 * blocks of an assembly) is captured as a tree of MarkupElement and text nodes while it is read,
 * and converted to Markdown once its element closes.
 */

const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** The attributes of a markup element (the first `count` of `attributes`), without namespace declarations. */
export function markupAttributes(
  attributes: readonly Attribute[],
  count: number,
  namespaces: NamespaceScopes,
): Record<string, string> {
  let attrs = NO_ATTRIBUTES;
  for (let i = 0; i < count; i++) {
    const { name, value } = attributes[i]!;
    if (namespaces.attributeUri(name) === XMLNS_NS) continue;
    if (attrs === NO_ATTRIBUTES) attrs = {};
    attrs[name] = value;
  }
  return attrs;
}

/** Adds text to captured markup, joining it to text just before it. */
export function appendText(nodes: MarkupNode[], text: string): void {
  const last = nodes.length - 1;
  if (last >= 0 && typeof nodes[last] === 'string') nodes[last] = (nodes[last] as string) + text;
  else nodes.push(text);
}

/**
 * The Markdown of captured markup. A problem in it is reported where the offending markup element
 * starts, or at `line` and `column` when the converter does not know.
 */
export function markdownOf(nodes: MarkupNode[], multiline: boolean, line: number, column: number): string {
  try {
    return markupToMarkdown(nodes, multiline);
  } catch (e) {
    if (e instanceof MarkupError) failAt('invalid-markup', e.message, e.line ?? line, e.column ?? column);
    throw e;
  }
}

/** The text of captured markup without its elements: what a lenient read keeps of markup it cannot convert. */
export function plainText(nodes: readonly MarkupNode[]): string {
  let text = '';
  for (const node of nodes) text += typeof node === 'string' ? node : plainText(node.children);
  return text;
}
