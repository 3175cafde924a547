// Escaping of literal text for the Markdown writer. The aim is Markdown that reads back
// as the same text and that matches NIST's converter, which escapes only what the
// Metaschema spec lists (* ` ~ ^ and "), so everything else is escaped only where
// CommonMark (as configured in markdown-parser.ts) would otherwise read it as markup.

/** Characters that may need a backslash somewhere inside a line. */
const INLINE_SPECIAL = /[\\`*_~^"[\]<&{]/;
const ENTITY_LIKE = /^&(?:#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)/;
// What would start an autolink (<scheme:…> or <user@host>); other '<' is literal since HTML is off.
const AUTOLINK_LIKE = /^<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@)/;
const WORD_CHAR = /[\p{L}\p{N}]/u;
// What markdown-it's delimiter scanning counts as whitespace and as punctuation.
const SPACE_CHAR = /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/;
const PUNCTUATION_CHAR = /[\p{P}\p{S}]/u;
const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether CommonMark counts `ch` as neither whitespace nor punctuation when it decides if '*' opens or closes. */
export function isFlankingLetter(ch: string | undefined): boolean {
  return ch !== undefined && !SPACE_CHAR.test(ch) && !PUNCTUATION_CHAR.test(ch);
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}

/** Where a text sits, as far as escaping is concerned. */
export interface TextSurroundings {
  /** Inside `[…]` (link text or image alt), where any bracket could end it. */
  inLabel: boolean;
  /** The character written just before the text; undefined at a line start or when not known. */
  before: string | undefined;
  /** Inside emphasis written with '*', whose closing '*' a literal one could take over. */
  inStarEmphasis: boolean;
}

/**
 * Whether a literal '*' can stay unescaped: CommonMark can use it neither to open
 * emphasis nor to close one. NIST's converter wrote `<em> text</em>` as "* text*", which
 * reads back as literal asterisks; leaving inert ones unescaped lets that string round-trip.
 */
function isInertStar(before: string | undefined, after: string | undefined, inStarEmphasis: boolean): boolean {
  if (before === undefined || after === undefined || before === '*' || after === '*') return false;
  // Astral neighbours are rare; escaping is always correct, so do not reason about them.
  if (SURROGATE.test(before) || SURROGATE.test(after)) return false;
  const spaceBefore = SPACE_CHAR.test(before);
  const spaceAfter = SPACE_CHAR.test(after);
  const punctBefore = PUNCTUATION_CHAR.test(before);
  const punctAfter = PUNCTUATION_CHAR.test(after);
  const canOpen = !spaceAfter && (!punctAfter || spaceBefore || punctBefore);
  const canClose = !spaceBefore && (!punctBefore || spaceAfter || punctAfter);
  // Every '*' that could open is escaped, so only an enclosing emphasis could be closed.
  return !canOpen && !(canClose && inStarEmphasis);
}

/** Escapes text that sits inside a line of inline Markdown. */
export function escapeInline(text: string, where: TextSurroundings): string {
  if (!INLINE_SPECIAL.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    switch (ch) {
      case '\\':
      case '`':
      case '~':
      case '^':
      case '"':
        out += '\\' + ch;
        break;
      case '*':
        out += isInertStar(i === 0 ? where.before : text[i - 1], text[i + 1], where.inStarEmphasis) ? '*' : '\\*';
        break;
      case '_': {
        // A run of '_' inside a word (AU-02_ODP, m03_22.pdf) cannot delimit emphasis.
        let end = i;
        while (text[end] === '_') end++;
        const run = text.slice(i, end);
        out += isWordChar(text[i - 1]) && isWordChar(text[end]) ? run : run.replace(/_/g, '\\_');
        i = end - 1;
        break;
      }
      case '[':
        out += where.inLabel ? '\\[' : '[';
        break;
      case ']':
        // Without reference definitions only "](" can close a link.
        out += where.inLabel || text[i + 1] === '(' ? '\\]' : ']';
        break;
      case '<':
        out += AUTOLINK_LIKE.test(text.slice(i, i + 72)) ? '\\<' : '<';
        break;
      case '&':
        out += ENTITY_LIKE.test(text.slice(i, i + 40)) ? '\\&' : '&';
        break;
      case '{':
        // "{{" could open an insert.
        out += text[i + 1] === '{' ? '\\{' : '{';
        break;
      default:
        out += ch;
    }
  }
  return out;
}

/** Characters that could start a block when they begin a line (after at most one space). */
export const LINE_START_SPECIAL = /^ ?[#>*+=|:\-0-9]/;
const LIST_BULLET = /^[-+*](?:[ \t]|$)/;
const DASH_LINE = /^(?:-+[ \t]*|(?:-[ \t]*){3,})$/; // setext underline or thematic break
const EQUALS_LINE = /^=+[ \t]*$/;
const TABLE_DELIMITER_ROW = /^[|:-][ \t|:-]*$/;
const ORDERED_MARKER = /^[0-9]{1,9}[.)](?:[ \t]|$)/;

/**
 * Escapes what would start a block construct when `escaped` (already inline-escaped
 * text) begins a line of a paragraph, list item or the line after a hard break.
 */
export function escapeLineStart(escaped: string): string {
  if (!LINE_START_SPECIAL.test(escaped)) return escaped;
  const lead = escaped[0] === ' ' ? ' ' : '';
  const rest = escaped.slice(lead.length);
  const ch = rest[0];
  if (ch === '#' || ch === '>') return lead + '\\' + rest;
  // An inert '*' (see isInertStar) is still a bullet at the start of a line.
  if (LIST_BULLET.test(rest)) return lead + '\\' + rest;
  if (DASH_LINE.test(rest) || EQUALS_LINE.test(rest) || (TABLE_DELIMITER_ROW.test(rest) && rest.includes('-'))) {
    return lead + '\\' + rest;
  }
  const ordered = ORDERED_MARKER.exec(rest);
  if (ordered !== null) {
    const dot = ordered[0].search(/[.)]/);
    return lead + rest.slice(0, dot) + '\\' + rest.slice(dot);
  }
  return escaped;
}

/** A heading's closing sequence of '#' would be dropped by the parser. */
export function escapeHeadingEnd(content: string): string {
  const m = /(^|[ \t])(#+)$/.exec(content);
  if (m === null) return content;
  const at = m.index + (m[1] as string).length;
  return content.slice(0, at) + '\\' + content.slice(at);
}

/**
 * Text inside ~sub~ / ^sup^: markdown-it-sub/sup take the raw text, unescape
 * backslash-punctuation and backslash-space, and refuse unescaped spaces. Characters
 * that could start another token are escaped so the closing marker is found.
 */
export function escapeScript(text: string): string {
  return text.replace(/\s/g, ' ').replace(/[\\~^`[\]<&{ ]/g, '\\$&');
}

/** A code span whose fence and padding keep its content verbatim. */
export function codeSpan(content: string): string {
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end when both ends have one, unless all are spaces (U+0020 only).
  const pad =
    content.startsWith('`') ||
    content.endsWith('`') ||
    (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content));
  return pad ? `${fence} ${content} ${fence}` : fence + content + fence;
}

/** A fence for a code block that no line of `content` can close. */
export function codeFence(content: string): string {
  let longest = 2;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(longest + 1);
}

function escapeEntities(text: string): string {
  return text.includes('&')
    ? text.replace(/&/g, (amp, at: number) => (ENTITY_LIKE.test(text.slice(at, at + 40)) ? '\\&' : amp))
    : text;
}

function parensBalanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/** A link or image destination that reads back as exactly `href`. Null if it cannot be written (line breaks). */
export function linkDestination(href: string): string | null {
  if (/[\n\r]/.test(href)) return null;
  if (href !== '' && !/[\s<>\\\x00-\x1F]/.test(href) && parensBalanced(href)) return escapeEntities(href);
  return '<' + escapeEntities(href.replace(/[<>\\]/g, '\\$&')) + '>';
}

/** A link or image title in double quotes. */
export function linkTitle(title: string): string {
  return '"' + escapeEntities(title.replace(/[\\"]/g, '\\$&')) + '"';
}
