// markdown-it inline rules for the Markdown side of OSCAL markup.
import type { Delimiter, StateInline } from 'markdown-it';
import { isNcName } from './content-model.js';

const QUOTE = 0x22;

// markdown-it's own text rule, plus '"' so that the quote rule sees every quotation mark.
const STOPS = new Uint8Array(128);
for (const ch of '\n!#$%&*+-:<=>@[\\]^_`{}~"') STOPS[ch.charCodeAt(0)] = 1;

/** Consumes plain text up to the next character some rule may want. */
export function plainText(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  let pos = state.pos;
  while (pos < state.posMax) {
    const code = src.charCodeAt(pos);
    if (code < 128 && STOPS[code] === 1) break;
    pos++;
  }
  if (pos === state.pos) return false;
  if (!silent) state.pending += src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}

const INSERT = /\{\{[ \t]*insert[ \t]*:[ \t]*([^\s,{}]+)[ \t]*,[ \t]*([^\s,{}]+)[ \t]*\}\}/y;

/** `{{ insert: type, id-ref }}`, the Markdown form of <insert type id-ref/>. */
export function insertReference(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x7b || state.src.charCodeAt(start + 1) !== 0x7b) return false;
  INSERT.lastIndex = start;
  const match = INSERT.exec(state.src);
  if (match === null || start + match[0].length > state.posMax) return false;
  const [whole, type, idRef] = match as unknown as [string, string, string];
  if (!isNcName(type) || !isNcName(idRef)) return false;
  if (!silent) {
    const token = state.push('oscal_insert', 'insert', 0);
    token.attrs = [
      ['type', type],
      ['id-ref', idRef],
    ];
  }
  state.pos = start + whole.length;
  return true;
}

const WHITESPACE = /\s/u;

/**
 * '"' as a delimiter pair for <q>, the mapping the Metaschema spec gives (`"text"`);
 * literal quotation marks are written as `\"`, so every other '"' is a delimiter. A
 * '"' opens unless whitespace follows it and closes unless whitespace precedes it: the
 * stricter flanking rules of '*' would refuse <q>(x)</q> right after a letter.
 */
export function quoteDelimiters(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (silent || state.src.charCodeAt(start) !== QUOTE) return false;
  let end = start;
  while (state.src.charCodeAt(end) === QUOTE && end < state.posMax) end++;
  const before = start > 0 ? state.src[start - 1] : ' ';
  const after = end < state.posMax ? state.src[end] : ' ';
  const open = !WHITESPACE.test(after as string);
  const close = !WHITESPACE.test(before as string);
  for (let i = start; i < end; i++) {
    const token = state.push('text', '', 0);
    token.content = '"';
    // length 0 keeps the "rule of 3" of '*' emphasis out of the pairing.
    state.delimiters.push({ marker: QUOTE, length: 0, token: state.tokens.length - 1, end: -1, open, close });
  }
  state.pos = end;
  return true;
}

function pairQuotes(state: StateInline, delimiters: Delimiter[]): void {
  for (const opener of delimiters) {
    if (opener.marker !== QUOTE || opener.end < 0) continue;
    const open = state.tokens[opener.token];
    const close = state.tokens[(delimiters[opener.end] as Delimiter).token];
    if (open === undefined || close === undefined) continue;
    open.type = 'q_open';
    open.tag = 'q';
    open.nesting = 1;
    open.content = '';
    close.type = 'q_close';
    close.tag = 'q';
    close.nesting = -1;
    close.content = '';
  }
}

/** Turns the quotation marks that balance_pairs matched into q_open/q_close. */
export function quotePairs(state: StateInline): void {
  pairQuotes(state, state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) pairQuotes(state, meta.delimiters);
}
