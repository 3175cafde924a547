// OSCAL Markdown (markup-line / markup-multiline) as the plain words a search matches.
import type { Token } from 'markdown-it';
import { isNcName } from '../markup/content-model.js';
import { markdownParser } from '../markup/markdown-parser.js';
import { linkedId } from './control-ids.js';

/**
 * Text that reads the same with or without a Markdown parser: nothing the inline grammar acts
 * on, no entity, no line break in a markup-line (so no block structure but a paragraph).
 * markdown-it's token objects cost far more than these tests, and most OSCAL prose passes them.
 */
const NOT_PLAIN = /[\\`*_~^"[\]<>&{}!#|\0]/;
const LINE_BREAK = /\r\n?|\n/;
/** A line starting so might open a list, heading, quote, rule or code block. */
const BLOCK_START = /^(?:\s*[-+=0-9]|\t| {4})/;
/**
 * Underscores between letters or digits (ac-2_smt), which CommonMark never reads as emphasis: both
 * sides flank a word, and `_` opens or closes only at a word's edge.
 */
const INNER_UNDERSCORES = /(?<=[\p{L}\p{N}])_+(?=[\p{L}\p{N}])/gu;
/**
 * The Markdown form of <insert>, whose id is what a reader searches for; and an inline link whose
 * text is plain and whose destination needs no unescaping, which reads as its fragment id (when it
 * names one) and then its text, as the parser's tokens do.
 */
const INLINE = /\{\{ insert: ([^\s,{}]+), ([^\s,{}]+) \}\}|\[([^[\]]*)\]\(([^\s()<>\\&`]*)\)/g;
/**
 * An asterisk is never part of a word, and one left in the parsed text is an emphasis a converter
 * spaced wrong: NIST's rev. 5 JSON writes `* Security ...*` where its XML has <em>. Dropped, so
 * both forms read alike.
 */
const ASTERISKS = /\*+/g;
/** Runs of whitespace, and whitespace other than a space: what collapsing to single spaces replaces. */
const SPACING = /\s{2,}|[^\S ]/g;

export const collapse = (text: string) => text.replace(SPACING, ' ').trim();

// The underscore test first: the lookbehind costs a fifth of extraction when run on every text.
const isPlain = (text: string, multiline: boolean) =>
  !NOT_PLAIN.test(text.includes('_') ? text.replace(INNER_UNDERSCORES, '') : text) &&
  (multiline || !LINE_BREAK.test(text));

/** The words of text the parser would leave as they are, or undefined when it needs the parser. */
function plainWords(markdown: string, multiline: boolean): string | undefined {
  if (multiline && markdown.split(LINE_BREAK).some((line) => BLOCK_START.test(line))) return undefined;
  let out = '';
  let last = 0;
  for (const m of markdown.matchAll(INLINE)) {
    const before = markdown.slice(last, m.index);
    if (!isPlain(before, multiline)) return undefined;
    if (m[2] !== undefined) {
      if (!isNcName(m[1]!) || !isNcName(m[2])) return undefined;
      out += `${before} ${m[2]} `;
    } else {
      if (!isPlain(m[3]!, false)) return undefined;
      const fragment = linkedId(m[4]!);
      out += `${before}${fragment === undefined ? '' : ` ${fragment} `}${m[3]!}`;
    }
    last = m.index + m[0].length;
  }
  const rest = markdown.slice(last);
  return isPlain(rest, multiline) ? out + rest : undefined;
}

function inlineWords(tokens: readonly Token[], out: string[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'code_inline':
        out.push(token.content);
        break;
      case 'oscal_insert':
        out.push(` ${token.attrGet('id-ref') ?? ''} `);
        break;
      case 'softbreak':
      case 'hardbreak':
        out.push(' ');
        break;
      case 'link_open': {
        // Like a link object's, a link within the document names a control or part a reader may search for.
        const fragment = linkedId(String(token.attrGet('href') ?? ''));
        if (fragment !== undefined) out.push(` ${fragment} `);
        break;
      }
      case 'image':
        // An image's words are its alt text, held as children.
        if (token.children) inlineWords(token.children, out);
        break;
    }
  }
}

/** The words of OSCAL Markdown through the parser: what plainWords must agree with. */
export function parsedWords(markdown: string, multiline: boolean): string {
  const md = markdownParser();
  const out: string[] = [];
  if (!multiline) {
    inlineWords(md.parseInline(markdown, {})[0]?.children ?? [], out);
    return out.join('').replace(ASTERISKS, ' ');
  }
  for (const token of md.parse(markdown, {})) {
    if (token.type === 'inline') inlineWords(token.children ?? [], out);
    else if (token.type === 'fence' || token.type === 'code_block') out.push(token.content);
    // Block boundaries separate words that the source put on different lines or cells.
    out.push(' ');
  }
  return out.join('').replace(ASTERISKS, ' ');
}

/** The words of OSCAL Markdown, markup removed; whitespace is left for the caller to collapse once. */
export function markupWords(markdown: string, multiline: boolean): string {
  return plainWords(markdown, multiline) ?? parsedWords(markdown, multiline);
}
