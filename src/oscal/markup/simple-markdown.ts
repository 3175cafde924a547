// A fast path for the Markdown most OSCAL prose is made of: paragraphs of plain text,
// {{ insert: … }} and [text](destination) links. On such input markdown-it's result is
// known without running it (its token objects dominate the cost), so the XML is
// written directly. Anything else returns undefined and goes through markdown-it.
import { isNcName } from './content-model.js';

// Characters that make text something other than plain text to the inline grammar
// (see INLINE_SIGNIFICANT in to-xml.ts), plus '!' which could turn "[" into an image.
const NOT_PLAIN = /[\\`*_~^"[\]<&{!\n\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
const PIECES = /\{\{ insert: ([^\s,{}]+), ([^\s,{}]+) \}\}|\[([^\]]*)\]\(([^)]*)\)/g;
// A destination markdown-it takes verbatim and that needs no escaping in an attribute.
const SIMPLE_DESTINATION = /^[^\s()<>\\&"'`\x00-\x1F]+$/;
// Anchored, so that it looks at the start only; tabs (indentation) are looked for apart.
const BLOCK_START = /^(?: {0,3}[#>*+=|:\-0-9]| {4}| *$)/;

function plainXml(text: string): string | undefined {
  if (NOT_PLAIN.test(text)) return undefined;
  return text.includes('>') ? text.replace(/>/g, '&gt;') : text;
}

function inlineXml(markdown: string): string | undefined {
  let xml = '';
  let last = 0;
  PIECES.lastIndex = 0;
  for (let m = PIECES.exec(markdown); m !== null; m = PIECES.exec(markdown)) {
    const before = plainXml(markdown.slice(last, m.index));
    if (before === undefined) return undefined;
    xml += before;
    const [, type, idRef, text, href] = m;
    if (type !== undefined && idRef !== undefined) {
      if (!isNcName(type) || !isNcName(idRef)) return undefined;
      xml += `<insert type="${type}" id-ref="${idRef}"/>`;
    } else {
      const label = plainXml(text as string);
      if (label === undefined || !SIMPLE_DESTINATION.test(href as string)) return undefined;
      xml += `<a href="${href as string}">${label}</a>`;
    }
    last = PIECES.lastIndex;
  }
  const rest = plainXml(markdown.slice(last));
  return rest === undefined ? undefined : xml + rest;
}

/** The XML for Markdown within the simple subset, or undefined if it is outside it. */
export function simpleMarkdownToXml(markdown: string, multiline: boolean): string | undefined {
  if (!multiline) return inlineXml(markdown);
  let xml = '';
  for (const paragraph of markdown.split('\n\n')) {
    if (BLOCK_START.test(paragraph) || paragraph.includes('\t')) return undefined;
    const inline = inlineXml(paragraph);
    if (inline === undefined) return undefined;
    xml += `<p>${inline}</p>`;
  }
  return xml;
}
