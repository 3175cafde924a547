// OSCAL markup (XML element tree) -> Markdown, in the layout NIST's converter writes:
// blocks joined by a blank line, "* " and "1. " list items each ending in "\n",
// code blocks fenced with ```, spaces and tabs kept (see InlineWriter.text for line breaks).
import { writeBlocks } from './block-writer.js';
import { MARKUP_LINE, MARKUP_MULTILINE } from './content-model.js';
import { InlineWriter } from './inline-writer.js';
import { LINE_START_SPECIAL } from './markdown-escape.js';
import type { MarkupElement, MarkupNode } from './types.js';

// Characters that stop text from being emitted as it is: Markdown syntax, or whitespace the general path weighs.
const NOT_PLAIN = /[\\`*_~^"[\]<&{\t\n\r]/;
const NOT_SPACE = /[^ ]/;
const XML_SPACE_ONLY = /^[ \t\n\r]*$/;

// Simple regular expressions and includes() are what V8 scans fastest; this runs on every value.
function isPlain(text: string): boolean {
  return !NOT_PLAIN.test(text) && !text.includes('  ') && NOT_SPACE.test(text);
}

function hasAttributes(el: MarkupElement): boolean {
  for (const name in el.attrs) if (Object.hasOwn(el.attrs, name)) return true;
  return false;
}

/** The text of a multiline value that is one plain paragraph, else undefined. */
function plainParagraph(nodes: MarkupNode[]): string | undefined {
  let text: string | undefined;
  for (const node of nodes) {
    if (typeof node === 'string') {
      if (!XML_SPACE_ONLY.test(node)) return undefined;
    } else {
      const only = node.children[0];
      if (text !== undefined || node.name !== 'p' || node.children.length !== 1 || typeof only !== 'string')
        return undefined;
      if (hasAttributes(node) || !isPlain(only) || LINE_START_SPECIAL.test(only)) return undefined;
      text = only;
    }
  }
  return text;
}

/**
 * Converts OSCAL markup, given as the children of a markup field's element, to the
 * Markdown NIST's JSON and YAML formats hold. Throws MarkupError for elements,
 * attributes or text the markup model does not allow there.
 */
export function markupToMarkdown(nodes: MarkupNode[], multiline: boolean): string {
  if (!multiline) {
    const only = nodes[0];
    if (nodes.length === 1 && typeof only === 'string' && isPlain(only)) return only;
    return new InlineWriter({ label: false, hardBreaks: true, blockLines: false }, true)
      .write(nodes, MARKUP_LINE)
      .finish();
  }
  const plain = plainParagraph(nodes);
  if (plain !== undefined) return plain;
  // Lists end with their own newline before the blank line, as NIST's converter writes them.
  return writeBlocks({ name: MARKUP_MULTILINE, attrs: {}, children: nodes })
    .map((b) => (b.list ? `${b.markdown}\n` : b.markdown))
    .join('\n\n');
}
