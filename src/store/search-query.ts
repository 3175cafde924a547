/**
 * What both backends' search shares: the query language, said once and translated to an FTS5
 * MATCH expression (SQLite) and a tsquery (PostgreSQL), the words the PostgreSQL index is built
 * from, and the cleaning of entries before they are stored.
 *
 * A query is words, all of which must match; "a phrase"; a prefix (crypt*); an id (ac-2.1,
 * AC-2(1)), which is a phrase of its parts. Everything else a user may type (quotes left open,
 * parentheses, NEAR, AND/OR/NOT, `:`, `^`, `&`, `!`, a lone `*`) is a separator: the translations
 * put only runs of letters and digits into the expression they build, so no input is a syntax error
 * or changes the expression's structure.
 */
import type { SearchEntry } from '../oscal/search/extract.js';

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
 * The key a control id is filtered by: ac-2.1, AC-2(1) and ac-02.01 (Rev. 5's padded form) are
 * all "ac 2 1", ac-21 is "ac 21". Empty for an id without letters or digits.
 */
export function controlKey(id: string): string {
  return words(id)
    .map((w) => w.replace(/^0+(?=\d)/, ''))
    .join(' ');
}

/** The FTS5 expression: each term a quoted phrase of its parts, over the columns a user's words search. */
export function ftsMatch(terms: SearchTerm[]): string {
  const phrases = terms.map((t) => `"${t.parts.join(' ')}"${t.prefix ? ' *' : ''}`);
  return `{key title text} : (${phrases.join(' AND ')})`;
}

/** The FTS5 expression finding the entries about a control (then checked exactly against control_ids). */
export function ftsControlMatch(key: string): string {
  return `control_ids : "${key}"`;
}

/** The text of a to_tsquery('simple', …): each lexeme quoted, phrases with <->, all terms with &. */
export function tsQuery(terms: SearchTerm[]): string {
  const phrases: string[] = [];
  for (const t of terms) {
    const ws = words(t.parts.join(' '));
    if (ws.length === 0) continue;
    phrases.push(`(${ws.map((w, i) => `'${w}'${t.prefix && i === ws.length - 1 ? ':*' : ''}`).join(' <-> ')})`);
  }
  return phrases.join(' & ');
}

/**
 * A tsvector holds at most 1 MiB and positions up to 16,383, so an object's words beyond this many
 * characters could only fail the write or be lost anyway.
 */
const INDEXED_CHARACTERS = 100_000;

/** The words PostgreSQL indexes for a text: as `words` gives them, so the document and the query split alike. */
export function indexedWords(text: string | undefined): string {
  return text ? words(text.slice(0, INDEXED_CHARACTERS)).join(' ') : '';
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

/**
 * A snippet made as FTS5's snippet() makes one, for PostgreSQL (whose ts_headline splits ids as
 * ac, -2, 1 and so would not mark them): about SNIPPET_TOKENS words around the first match, each
 * matched phrase between MARK_START and MARK_END, "…" where text was cut. Undefined when no term
 * matches the text.
 */
export function snippetOf(text: string, terms: SearchTerm[]): string | undefined {
  const tokens = [...text.matchAll(TOKEN)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    word: words(m[0]).join(''),
  }));
  const marked: { from: number; to: number }[] = [];
  const phrases = terms.map((t) => ({ ws: words(t.parts.join(' ')), prefix: t.prefix })).filter((p) => p.ws.length);
  for (let i = 0; i < tokens.length; i++) {
    for (const { ws, prefix } of phrases) {
      const last = ws.length - 1;
      const matches = ws.every((w, k) => {
        const token = tokens[i + k]?.word;
        return token !== undefined && (k === last && prefix ? token.startsWith(w) : token === w);
      });
      if (matches) marked.push({ from: i, to: i + last });
    }
  }
  if (marked.length === 0) return undefined;
  const first = Math.max(0, Math.min(marked[0]!.from - 4, tokens.length - SNIPPET_TOKENS));
  return excerpt(text, tokens, first, marked);
}

/** The beginning of a text, when no term is in it (a search by control id alone). */
export function openingOf(text: string): string {
  const tokens = [...text.matchAll(TOKEN)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
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
  for (let i = first; i <= last; i++) {
    const t = tokens[i]!;
    if (i > first) out += text.slice(tokens[i - 1]!.end, t.start);
    const opens = inMatch.has(i) && (i === first || !inMatch.has(i - 1));
    const closes = inMatch.has(i) && (i === last || !inMatch.has(i + 1));
    out += `${opens ? MARK_START : ''}${text.slice(t.start, t.end)}${closes ? MARK_END : ''}`;
  }
  return out + (last < tokens.length - 1 ? '…' : text.slice(tokens[last]!.end));
}
