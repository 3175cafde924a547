// OSCAL Markdown (markup-line / markup-multiline) as the plain words a search matches.
import type { Token } from 'markdown-it';
import { markdownParser } from '../markup/markdown-parser.js';
import { linkedId } from './control-ids.js';

/**
 * Text that reads the same with or without a Markdown parser: nothing the inline grammar acts
 * on, no entity, no line break (so no block structure but a paragraph). markdown-it's token
 * objects cost far more than this test, and most OSCAL prose passes it.
 */
const NOT_PLAIN = /[\\`*_~^"[\]<>&{}!#|\n\r]/;
/** A line starting so might open a list, heading, quote, rule or code block. */
const BLOCK_START = /^(?:\s*[-+=0-9]|\t| {4})/;
/** The Markdown form of <insert>: the id it names is what a reader searches for. */
const INSERT = /\{\{ insert: ([^\s,{}]+), ([^\s,{}]+) \}\}/g;
/**
 * An asterisk is never part of a word, and one left in the parsed text is an emphasis a converter
 * spaced wrong: NIST's rev. 5 JSON writes `* Security ...*` where its XML has <em>. Dropped, so
 * both forms read alike.
 */
const ASTERISKS = /\*+/g;
/** Runs of whitespace, and whitespace other than a space: what collapsing to single spaces replaces. */
const SPACING = /\s{2,}|[^\S ]/g;

export const collapse = (text: string) => text.replace(SPACING, ' ').trim();

function isPlain(text: string, multiline: boolean): boolean {
  return !NOT_PLAIN.test(text) && !(multiline && BLOCK_START.test(text));
}

/** Plain text with inserts as their ids, or undefined when anything else needs the parser. */
function plainWithInserts(markdown: string, multiline: boolean): string | undefined {
  let out = '';
  let last = 0;
  INSERT.lastIndex = 0;
  for (let m = INSERT.exec(markdown); m !== null; m = INSERT.exec(markdown)) {
    const before = markdown.slice(last, m.index);
    if (!isPlain(before, multiline && last === 0)) return undefined;
    out += `${before} ${m[2]!} `;
    last = INSERT.lastIndex;
  }
  const rest = last === 0 ? markdown : markdown.slice(last);
  if (!isPlain(rest, multiline && last === 0)) return undefined;
  return out + rest;
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

function parsedWords(markdown: string, multiline: boolean): string {
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
  return plainWithInserts(markdown, multiline) ?? parsedWords(markdown, multiline);
}
