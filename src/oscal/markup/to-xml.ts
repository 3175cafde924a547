// Markdown (as held in OSCAL JSON and YAML) -> OSCAL markup as XML text.
import { markdownParser } from './markdown-parser.js';
import { simpleMarkdownToXml } from './simple-markdown.js';
import { tokensToMarkup } from './tokens-to-markup.js';
import { writeXml } from './xml-writer.js';

// Markdown with none of these is plain text to markdown-it's inline grammar; the
// control characters and surrogates go the slow way so that the XML writer rejects them.
const INLINE_SIGNIFICANT = /[\\`*_~^"[\]<&{\n\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
// Also significant in multiline values: what can start a block, and tabs (indentation).
const BLOCK_START = /^(?: {0,3}[#>+=|:\-0-9]| {4})/;
const SPACES_ONLY = /^ *$/;

function escapeGreaterThan(text: string): string {
  return text.includes('>') ? text.replace(/>/g, '&gt;') : text;
}

/**
 * Converts the Markdown of a markup-line or markup-multiline value to OSCAL markup XML:
 * inline content for markup-line, a sequence of blocks for markup-multiline. markup-line
 * is read with the inline grammar only, so block syntax ("- x", "# x") is literal text
 * there. Raw HTML is literal text too. Throws MarkupError for Markdown that OSCAL markup
 * cannot hold.
 */
export function markdownToXml(markdown: string, multiline: boolean): string {
  if (!INLINE_SIGNIFICANT.test(markdown)) {
    if (!multiline) return escapeGreaterThan(markdown);
    if (SPACES_ONLY.test(markdown)) return '';
    if (!BLOCK_START.test(markdown) && !markdown.includes('\t')) return `<p>${escapeGreaterThan(markdown)}</p>`;
  }
  const simple = simpleMarkdownToXml(markdown, multiline);
  if (simple !== undefined) return simple;
  const md = markdownParser();
  const tokens = multiline ? md.parse(markdown, {}) : md.parseInline(markdown, {});
  return writeXml(tokensToMarkup(tokens, multiline));
}
