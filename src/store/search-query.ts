/**
 * What both backends' search shares: the query language, said once and translated to an FTS5
 * MATCH expression (SQLite) and a tsquery (PostgreSQL); the scope tokens by which the index itself
 * filters by reader, model and control; the words the PostgreSQL index is built from; the cleaning
 * of entries before they are stored; the ranked window a page is cut from, and the hits' snippets.
 *
 * A query is words, all of which must match; "a phrase"; a prefix (crypt*); an id (ac-2.1,
 * AC-2(1)), which is a phrase of its parts. Everything else a user may type (quotes left open,
 * parentheses, NEAR, AND/OR/NOT, `:`, `^`, `&`, `!`, a lone `*`) is a separator: the translations
 * put only runs of letters and digits into the expression they build, so no input is a syntax error
 * or changes the expression's structure.
 */
import { createHash } from 'node:crypto';
import type { SearchEntry } from '../oscal/search/extract.js';
import type { SearchCursor, SearchHit, SearchQuery } from './types.js';

export interface SearchTerm {
  /** Runs of letters and digits as typed: SQLite's tokenizer folds them itself. */
  parts: string[];
  /** The last part matches as a prefix. */
  prefix: boolean;
}

/** What unicode61 keeps in a token (letters, digits, marks, private use); all else separates. */
const PART = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const ENDS_IN_STAR = /[\p{L}\p{N}\p{M}\p{Co}]\*+$/u;
/** A quoted phrase (the closing quote may be missing) with an optional `*`, or a run without quotes or spaces. */
const TERM = /"([^"]*)"?(\*?)|[^\s"]+/gu;
/** Bounds on what a hostile query can make the database do. */
const MAX_TERMS = 32;
const MAX_PARTS = 32;

export function parseSearch(text: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const m of text.matchAll(TERM)) {
    const quoted = m[1] !== undefined;
    const body = quoted ? m[1]! : m[0];
    const parts = (body.match(PART) ?? []).slice(0, MAX_PARTS);
    if (parts.length === 0) continue;
    terms.push({ parts, prefix: quoted ? m[2] === '*' : ENDS_IN_STAR.test(body) });
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** Letters and digits only, lower-cased, without diacritics: what unicode61 with remove_diacritics does, for PostgreSQL. */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * `derive`, remembering what it gave: control ids repeat in every entry within a control and across
 * documents, and are a catalog's few thousand at most (the memory is emptied past that).
 */
function remembered(derive: (value: string) => string): (value: string) => string {
  const known = new Map<string, string>();
  return (value) => {
    let derived = known.get(value);
    if (derived === undefined) {
      if (known.size === 10_000) known.clear();
      derived = derive(value);
      known.set(value, derived);
    }
    return derived;
  };
}

/**
 * The key a control id is filtered by: ac-2.1, AC-2(1) and ac-02.01 (Rev. 5's padded form) are
 * all "ac 2 1", ac-21 is "ac 21". Empty for an id without letters or digits.
 */
export const controlKey = remembered((id) =>
  words(id)
    .map((w) => w.replace(/^0+(?=\d)/, ''))
    .join(' '),
);

/**
 * What a hit must carry besides the words, as scope tokens of its entry: every one of `all` (the
 * model, the control) and, for a caller who does not see every document, one of `anyOf` (public,
 * owned by them, granted to one of their principals). The index answers access and filters
 * itself, so a search never walks matches the caller may not see.
 */
export interface SearchFilter {
  all: string[];
  anyOf?: string[];
}

/**
 * Scope tokens: a letter for what they say and the hex of the value's UTF-8 bytes, so any model,
 * owner, principal or control key is one token that tokenizers keep whole and never fold (a user
 * `Alice` is not `alice`). Words are never searched in the scope (SQLite's column filter;
 * PostgreSQL prefixes them with `#`, which no indexed word holds), so no text can pass for one.
 */
/** Longer values are named by their SHA-256 instead: a PostgreSQL lexeme holds at most 2,047 bytes. */
const HEX_BYTES = 256;
function hex(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  return bytes.length <= HEX_BYTES ? bytes.toString('hex') : `x${createHash('sha256').update(bytes).digest('hex')}`;
}
const PUBLIC = 'vpublic';
export const modelToken = (model: string) => `m${hex(model)}`;
export const controlToken = remembered((key) => `c${hex(key)}`);
const ownerToken = (user: string) => `o${hex(user)}`;
const grantToken = (principal: string) => `g${hex(principal)}`;

/** Who may read a document, as the scope tokens of each of its entries. */
export interface DocumentScope {
  model: string;
  owner: string;
  visibility: string;
  /** Principals holding any grant on it (every permission reads). */
  grantees: string[];
}

/** The tokens of a document's model and owner, which never change. */
export const fixedTokens = (d: DocumentScope) => [modelToken(d.model), ownerToken(d.owner)];

/** The tokens of who else may read it: they change with the document's visibility and grants. */
export const sharingTokens = (d: DocumentScope) => [
  ...(d.visibility === 'public' ? [PUBLIC] : []),
  ...d.grantees.map(grantToken),
];

/** The scope tokens every entry of the document carries. */
export const documentTokens = (d: DocumentScope) => [...fixedTokens(d), ...sharingTokens(d)];

/** An entry's scope tokens: its document's (documentTokens), and the controls it is about. */
export const entryTokens = (document: string[], entry: Pick<StoredEntry, 'controlIds'>) => [
  ...document,
  ...entry.controlIds.map(controlToken),
];

/** The filter a query's model, control and reader make; documents read by the same rule as readableWhere. */
export function filterOf(query: Pick<SearchQuery, 'model' | 'readableBy'>, control: string | undefined): SearchFilter {
  const all: string[] = [];
  if (query.model !== undefined) all.push(modelToken(query.model));
  if (control !== undefined) all.push(controlToken(control));
  if (!query.readableBy) return { all };
  const { userId, principals } = query.readableBy;
  return {
    all,
    anyOf: [PUBLIC, ...(userId === undefined ? [] : [ownerToken(userId)]), ...principals.map(grantToken)],
  };
}

/** The FTS5 expression: each term a quoted phrase of its parts over the columns words search, and the filter's scope tokens. */
export function ftsMatch(terms: SearchTerm[], filter: SearchFilter = { all: [] }): string {
  const clauses: string[] = [];
  if (terms.length) {
    const phrases = terms.map((t) => `"${t.parts.join(' ')}"${t.prefix ? ' *' : ''}`);
    clauses.push(`{key title text} : (${phrases.join(' AND ')})`);
  }
  for (const token of filter.all) clauses.push(`scope : "${token}"`);
  if (filter.anyOf) clauses.push(`scope : (${filter.anyOf.map((t) => `"${t}"`).join(' OR ')})`);
  return clauses.join(' AND ');
}

/** PostgreSQL's lexeme for a scope token. */
export const scopeLexeme = (token: string) => `#${token}`;

/** Id words are short: longer ones are left to the phrase (and a lexeme must stay under 2,047 bytes). */
const LETTERS = /^\p{L}{1,64}$/u;
const DIGITS = /^\p{N}{1,64}$/u;

/**
 * The lexeme PostgreSQL keeps for an id's words (ac 2 1): an id is a phrase of common words, which
 * a GIN index can only answer by rechecking every row holding all three. `#i:` + the words, for a
 * letters word followed by one or two digit words, at every place the words run so: the phrase
 * ac 2 1 is in a text exactly when the lexeme is.
 */
const idLexeme = (ws: string[]) => `#i:${ws.join('-')}`;
const isId = (ws: string[]) =>
  ws.length >= 2 && ws.length <= 3 && LETTERS.test(ws[0]!) && ws.slice(1).every((w) => DIGITS.test(w));

/** The id lexemes of a text's words (as `words` splits them). */
export function idLexemes(ws: string[]): string[] {
  const out = new Set<string>();
  for (let i = 0; i < ws.length - 1; i++) {
    // Most words are not followed by a number: that test first, and for ASCII by its first character.
    const next = ws[i + 1]!;
    const c = next.charCodeAt(0);
    if ((c < 128 && (c < 48 || c > 57)) || !DIGITS.test(next) || !LETTERS.test(ws[i]!)) continue;
    out.add(idLexeme(ws.slice(i, i + 2)));
    if (i + 2 < ws.length && DIGITS.test(ws[i + 2]!)) out.add(idLexeme(ws.slice(i, i + 3)));
  }
  return [...out];
}

/** A tsquery literal's lexeme: words and tokens hold no quote or backslash, but say so safely. */
const QUOTED = /['\\]/;
const lexeme = (text: string, prefix = false) =>
  `'${QUOTED.test(text) ? text.replace(/['\\]/g, '\\$&') : text}'${prefix ? ':*' : ''}`;

/**
 * PostgreSQL's longest lexeme, in bytes: to_tsvector leaves longer words out of the index, so a
 * query holding one finds nothing.
 */
const LONGEST_WORD = 2047;

/**
 * The words of a query as a tsquery literal (for ::tsquery, which takes lexemes as given): phrases
 * with <->, terms with &. Undefined when a word is too long to have been indexed. With `phrase`
 * ' & ', what PostgreSQL's search reads a range through GIN with (ranked-window.ts).
 */
export function tsQuery(terms: SearchTerm[], phrase: ' <-> ' | ' & ' = ' <-> '): string | undefined {
  const phrases: string[] = [];
  for (const t of terms) {
    const ws = words(t.parts.join(' '));
    if (ws.length === 0) continue;
    if (ws.some((w) => Buffer.byteLength(w) > LONGEST_WORD)) return undefined;
    if (!t.prefix && isId(ws)) phrases.push(lexeme(idLexeme(ws)));
    else phrases.push(`(${ws.map((w, i) => lexeme(w, t.prefix && i === ws.length - 1)).join(phrase)})`);
  }
  return phrases.join(' & ');
}

/** The words and the filter as one tsquery literal. */
export function tsFilterQuery(words: string, filter: SearchFilter): string {
  const clauses = words ? [`(${words})`] : [];
  for (const token of filter.all) clauses.push(lexeme(scopeLexeme(token)));
  if (filter.anyOf) clauses.push(`(${filter.anyOf.map((t) => lexeme(scopeLexeme(t))).join(' | ')})`);
  return clauses.join(' & ');
}

/**
 * How many of the newest matches a query ranks: fifteen pages of twenty. Ranking every match of a
 * word that is in most objects (bm25 or ts_rank reads each one's positions) costs time in
 * proportion to the store; the newest this many are ranked, best first, and any further matches
 * follow them, newest first. A query matching fewer is ranked whole. Each ranked match is a row
 * found, read and scored, many of them kilobytes (a profile's entry names hundreds of controls):
 * a thousand made PostgreSQL's p99 63 ms in the search bench, this many 39.
 */
export const RANKED_MATCHES = 300;

export interface PagedHit {
  id: number;
  rank: number | null;
}

/**
 * A page from the ranked window (the newest RANKED_MATCHES matches, newest first, with their
 * ranks) after the cursor: the window's hits best first, ties in the order they were written (a
 * control's parts in document order). `from`: where the
 * unranked matches continue (ids below it, newest first), when the page wants more than the
 * window holds after the cursor and the window was full; undefined when there are none.
 */
export function rankedPage(
  window: { id: number; rank: number }[],
  after: SearchCursor | undefined,
  limit: number,
): { hits: PagedHit[]; from?: number } {
  if (after && after.rank === null) return { hits: [], from: after.id };
  const rest = after
    ? window.filter((h) => h.rank < after.rank! || (h.rank === after.rank && h.id > after.id))
    : window;
  const hits = [...rest].sort((a, b) => b.rank - a.rank || a.id - b.id).slice(0, limit);
  if (hits.length === limit || window.length < RANKED_MATCHES) return { hits };
  // The window came newest first: its last is its oldest.
  return { hits, from: window.at(-1)!.id };
}

/**
 * A tsvector holds at most 1 MiB and positions up to 16,383, so an object's words beyond this many
 * characters could only fail the write or be lost anyway.
 */
const INDEXED_CHARACTERS = 100_000;

/** The words PostgreSQL indexes for a text: as `words` gives them, so the document and the query split alike. */
export function indexedWords(text: string | undefined): string[] {
  return text ? words(text.slice(0, INDEXED_CHARACTERS)) : [];
}

/** A tsvector's largest position (later words share it) and most positions kept for one lexeme. */
const LAST_POSITION = 16_383;
const POSITIONS_KEPT = 255;

/**
 * An entry's tsvector as a literal, made here from the words the query side makes too: the heading
 * (key and title) weighted A, positions from 1, the text after it unweighted (D: a letter less to
 * send and parse for each of its positions; the ranking weighs D as B), then `lexemes` (scope and
 * id lexemes) without positions. What to_tsvector('simple') made of the same words, the heading's
 * set to weight A and the text's joined after it, but PostgreSQL parses this in a third of the
 * time its text parser takes, and no word is split other than `words` splits it. Words too long to
 * be a lexeme are left out, as tsQuery makes a query holding one find nothing.
 */
export function tsVectorLiteral(heading: string[], text: string[], lexemes: string[]): string {
  const literals = new Map<string, Positions>();
  const last = addPositions(literals, heading, 0, true);
  // As tsvector || does: the text's positions follow the heading's last position kept.
  addPositions(literals, text, last, false);
  let out = '';
  for (const { literal } of literals.values()) out += literal + ' ';
  return out + lexemes.map((l) => lexeme(l)).join(' ');
}

/** A lexeme's literal so far, and how many positions of weight A (heading) and D (text) it holds. */
interface Positions {
  literal: string;
  a: number;
  d: number;
}

/**
 * Adds the positions of `ws` (after `offset`) to `literals`, weighted A for the heading and D (no
 * letter) for the text, as many for each word and weight as to_tsvector keeps; none for a word too
 * long to be a lexeme. Returns the last position kept. This runs for every word written: two counters, where
 * one keyed by the weight and a template string a position took half as long again.
 */
function addPositions(literals: Map<string, Positions>, ws: string[], offset: number, heading: boolean): number {
  const weight = heading ? 'A' : '';
  let last = offset;
  for (let i = 0; i < ws.length; i++) {
    const word = ws[i]!;
    if (word.length * 3 > LONGEST_WORD && Buffer.byteLength(word) > LONGEST_WORD) continue;
    const at = offset + i + 1;
    const position = (at < LAST_POSITION ? at : LAST_POSITION) + weight;
    const known = literals.get(word);
    if (known === undefined)
      // Letters and digits only (`words`): nothing a tsvector literal would need quoted.
      literals.set(word, { literal: `${word}:${position}`, a: heading ? 1 : 0, d: heading ? 0 : 1 });
    else if ((heading ? known.a : known.d) < POSITIONS_KEPT) {
      known.literal += ',' + position;
      if (heading) known.a++;
      else known.d++;
    } else continue;
    last = at;
  }
  return last;
}

/** Where a snippet's matched words begin and end: control characters no document text keeps (see `storedEntry`). */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';
/** PostgreSQL refuses NUL in text; the marks must be unambiguous. Both go, with the other C0 controls but tab and line ends. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export interface StoredEntry {
  path: string;
  kind: string;
  key: string | null;
  title: string | null;
  text: string;
  /** Control keys (controlKey), each once. */
  controlIds: string[];
}

export function storedEntry(entry: SearchEntry): StoredEntry {
  const clean = (s: string) => s.replace(CONTROLS, ' ');
  return {
    path: clean(entry.path),
    kind: clean(entry.kind),
    key: entry.key === undefined ? null : clean(entry.key),
    title: entry.title === undefined ? null : clean(entry.title),
    text: clean(entry.text),
    controlIds: [...new Set(entry.controlIds.map(controlKey).filter((k) => k !== ''))],
  };
}

/**
 * What makes two stored entries the same row: a replace keeps those, and only writes the others.
 * Stored strings hold no C0 control (storedEntry), so these separate the fields unambiguously.
 */
function entrySignature(e: StoredEntry): string {
  return [e.path, e.kind, e.key ?? '\u0001', e.title ?? '\u0001', e.text, e.controlIds.join('\u0001')].join('\u0000');
}

/** The stored entries not already among `old` (by signature), and the ids of the old ones to delete. */
export function entryChanges<Id>(
  old: { id: Id; entry: StoredEntry }[],
  wanted: StoredEntry[],
): { drop: Id[]; add: StoredEntry[] } {
  if (old.length === 0) return { drop: [], add: wanted };
  const signatures = old.map(({ entry }) => entrySignature(entry));
  const kept = new Map<string, number>();
  for (const s of signatures) kept.set(s, (kept.get(s) ?? 0) + 1);
  const add = wanted.filter((e) => {
    const s = entrySignature(e);
    const n = kept.get(s) ?? 0;
    if (n === 0) return true;
    kept.set(s, n - 1);
    return false;
  });
  // What is left in `kept` is old rows no wanted entry took, by signature: drop that many of each.
  const drop = old.flatMap(({ id }, i) => {
    const s = signatures[i]!;
    const n = kept.get(s) ?? 0;
    if (n === 0) return [];
    kept.set(s, n - 1);
    return [id];
  });
  return { drop, add };
}

const SNIPPET_TOKENS = 24;
const TOKEN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const ASCII = /^[\x00-\x7f]*$/;

interface Token {
  start: number;
  end: number;
  word: string;
}

/** A token as `words` reads it, joined: most are ASCII, for which that is only lower case. */
const tokenWord = (token: string) => (ASCII.test(token) ? token.toLowerCase() : words(token).join(''));

/**
 * A snippet made as FTS5's snippet() makes one, for PostgreSQL (whose ts_headline splits ids as
 * ac, -2, 1 and so would not mark them): about SNIPPET_TOKENS words around the first match, each
 * matched phrase between MARK_START and MARK_END, "…" where text was cut. Undefined when no term
 * matches the text. The text is read only as far as the snippet needs: an entry's text may run to
 * many kilobytes, and a page makes twenty snippets while its caller waits.
 */
export function snippetOf(text: string, terms: SearchTerm[]): string | undefined {
  const phrases = terms.map((t) => ({ ws: words(t.parts.join(' ')), prefix: t.prefix })).filter((p) => p.ws.length);
  if (phrases.length === 0) return undefined;
  // Most texts a page's hits carry do not hold the words (they matched in the title or key):
  // in ASCII, a word not within the lower-cased text is in none of its tokens.
  if (ASCII.test(text)) {
    const lower = text.toLowerCase();
    if (!phrases.some((p) => lower.includes(p.ws[0]!))) return undefined;
  }
  const longest = Math.max(...phrases.map((p) => p.ws.length));
  const tokens: Token[] = [];
  const marked: { from: number; to: number }[] = [];
  const matchFrom = (i: number) => {
    for (const { ws, prefix } of phrases) {
      const last = ws.length - 1;
      let k = 0;
      for (; k <= last; k++) {
        const token = tokens[i + k]?.word;
        if (token === undefined || !(k === last && prefix ? token.startsWith(ws[k]!) : token === ws[k])) break;
      }
      if (k > last) marked.push({ from: i, to: i + last });
    }
  };
  // Phrases are matched from a token once the longest could end there; past the first match's
  // window and the longest phrase after it, no token changes the snippet.
  let checked = 0;
  for (const m of text.matchAll(TOKEN)) {
    tokens.push({ start: m.index, end: m.index + m[0].length, word: tokenWord(m[0]) });
    for (; checked <= tokens.length - longest; checked++) matchFrom(checked);
    if (marked.length && tokens.length > Math.max(0, marked[0]!.from - 4) + SNIPPET_TOKENS + longest) break;
  }
  for (; checked < tokens.length; checked++) matchFrom(checked);
  if (marked.length === 0) return undefined;
  const first = Math.max(0, Math.min(marked[0]!.from - 4, tokens.length - SNIPPET_TOKENS));
  return excerpt(text, tokens, first, marked);
}

/** A stored entry's row as a hit: the snippet where the words matched (text, then title, then key), else the text's opening. */
export function hitOf(
  row: {
    document_id: string;
    model: string;
    path: string;
    kind: string;
    key: string | null;
    title: string | null;
    text: string;
  },
  paged: { id: number; rank: number | null },
  terms: SearchTerm[],
): SearchHit {
  const hit: SearchHit = {
    id: paged.id,
    documentId: row.document_id,
    model: row.model,
    path: row.path,
    kind: row.kind,
    snippet:
      (terms.length &&
        (snippetOf(row.text, terms) ?? snippetOf(row.title ?? '', terms) ?? snippetOf(row.key ?? '', terms))) ||
      openingOf(row.text),
    rank: paged.rank,
  };
  if (row.key !== null) hit.key = row.key;
  if (row.title !== null) hit.title = row.title;
  return hit;
}

/** The beginning of a text, when no term is in it (a search by control id alone). */
export function openingOf(text: string): string {
  const tokens: Omit<Token, 'word'>[] = [];
  // One token past the snippet says whether it was cut.
  for (const m of text.matchAll(TOKEN)) {
    tokens.push({ start: m.index, end: m.index + m[0].length });
    if (tokens.length > SNIPPET_TOKENS) break;
  }
  return excerpt(text, tokens, 0, []);
}

function excerpt(
  text: string,
  tokens: { start: number; end: number }[],
  first: number,
  marked: { from: number; to: number }[],
): string {
  if (tokens.length === 0) return '';
  const last = Math.min(tokens.length, first + SNIPPET_TOKENS) - 1;
  // Overlapping and adjacent matches make one marked run, as FTS5 marks them.
  const inMatch = new Set<number>();
  for (const m of marked) for (let i = m.from; i <= m.to; i++) inMatch.add(i);
  let out = first > 0 ? '…' : text.slice(0, tokens[0]!.start);
  // Where the text not yet written starts, and where the marked run being written does.
  let after = tokens[first]!.start;
  let run = 0;
  for (let i = first; i <= last; i++) {
    const t = tokens[i]!;
    out += text.slice(after, t.start);
    if (inMatch.has(i) && (i === first || !inMatch.has(i - 1))) {
      out += MARK_START;
      run = t.start;
    }
    out += text.slice(t.start, t.end);
    after = t.end;
    if (inMatch.has(i) && (i === last || !inMatch.has(i + 1))) {
      // An id's closing parenthesis is part of it: AC-2(1) is marked whole, not as AC-2(1 and a ).
      if (text[after] === ')' && opened(text.slice(run, after))) out += text[after++];
      out += MARK_END;
    }
  }
  return out + (last < tokens.length - 1 ? '…' : text.slice(after));
}

/** Whether `text` opens more parentheses than it closes. */
function opened(text: string): boolean {
  let depth = 0;
  for (const ch of text) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
  return depth > 0;
}
