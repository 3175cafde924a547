// Markup tree -> XML text, element names unprefixed (the caller places them in the
// OSCAL namespace).
import { MarkupError, type MarkupNode } from './types.js';

const VOID = new Set(['br', 'hr', 'img', 'insert']);
// Characters XML 1.0 cannot hold; with the u flag a surrogate in the class is an unpaired one.
const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF\uD800-\uDFFF]/u;
const TEXT_ESCAPES = /[&<>]/g;
const ATTRIBUTE_ESCAPES = /[&<>"\t\n\r]/g;
const ESCAPED: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function checkChars(text: string): void {
  const bad = NOT_XML.exec(text);
  if (bad !== null) {
    const code = (bad[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
    throw new MarkupError(`character U+${code} cannot appear in XML; remove it from the Markdown`);
  }
}

/** Escapes text content for XML. */
function escapeXmlText(text: string): string {
  checkChars(text);
  return text.replace(TEXT_ESCAPES, (ch) => ESCAPED[ch] as string);
}

function escapeAttribute(value: string): string {
  checkChars(value);
  // Whitespace characters as references: an XML parser would otherwise normalise them to spaces.
  return value.replace(ATTRIBUTE_ESCAPES, (ch) => ESCAPED[ch] as string);
}

/** Serialises markup nodes as XML. */
export function writeXml(nodes: MarkupNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (typeof node === 'string') {
      out += escapeXmlText(node);
      continue;
    }
    out += `<${node.name}`;
    for (const [name, value] of Object.entries(node.attrs)) out += ` ${name}="${escapeAttribute(value)}"`;
    out += node.children.length === 0 && VOID.has(node.name) ? '/>' : `>${writeXml(node.children)}</${node.name}>`;
  }
  return out;
}
