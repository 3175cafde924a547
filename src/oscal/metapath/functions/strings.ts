/** String functions (F&O 5.4, 5.5, 5.6, 6). */
import { NS } from '../context.js';
import { MetapathError } from '../errors.js';
import { atomize, EMPTY, stringOf, type Sequence } from '../items.js';
import { matches, replace, tokenize } from '../regex.js';
import { oneNumber, oneString, optAtomic, optString, stringOrEmpty } from './args.js';
import { define } from './registry.js';

/** Code points, not UTF-16 units: F&O counts characters. */
function codePoints(text: string): string[] {
  return Array.from(text);
}

function contextString(args: Sequence[], ctx: { contextItem(): unknown }, fn: string): string {
  if (args.length > 0) return stringOrEmpty(args[0]!, fn, 0);
  const atoms = atomize([ctx.contextItem() as Sequence[number]]);
  return atoms.length === 0 ? '' : stringOf(atoms[0]!);
}

/** F&O 5.4.3: positions are rounded, and characters from round(start) up to round(start + length) are kept. */
function substring(text: string, start: number, length: number | undefined): string {
  const chars = codePoints(text);
  const first = Math.round(start);
  if (Number.isNaN(first)) return '';
  const last = length === undefined ? Infinity : first + Math.round(length);
  if (Number.isNaN(last)) return '';
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const p = i + 1;
    if (p >= first && p < last) out += chars[i];
  }
  return out;
}

/** %HH for each UTF-8 byte of a character. */
function percentEncode(c: string): string {
  return Array.from(Buffer.from(c, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

define(NS.fn, {
  concat: [
    [2, Infinity],
    (args) => {
      let text = '';
      args.forEach((arg, i) => {
        const value = optAtomic(arg, 'fn:concat', i);
        if (value !== undefined) text += stringOf(value);
      });
      return [text];
    },
  ],
  'string-join': [
    [1, 2],
    ([values, separator]) => {
      const sep = separator === undefined ? '' : oneString(separator, 'fn:string-join', 1);
      return [atomize(values!).map(stringOf).join(sep)];
    },
  ],
  'string-length': [[0, 1], (args, ctx) => [codePoints(contextString(args, ctx, 'fn:string-length')).length]],
  'normalize-space': [
    [0, 1],
    (args, ctx) => [
      contextString(args, ctx, 'fn:normalize-space')
        .replace(/[ \t\r\n]+/g, ' ')
        .trim(),
    ],
  ],
  'normalize-unicode': [
    [1, 2],
    ([text, form]) => {
      const name = form === undefined ? 'NFC' : oneString(form, 'fn:normalize-unicode', 1).trim().toUpperCase();
      const value = stringOrEmpty(text!, 'fn:normalize-unicode', 0);
      if (name === '') return [value];
      if (!['NFC', 'NFD', 'NFKC', 'NFKD'].includes(name))
        throw new MetapathError(
          'FOCH0003',
          `${name} is not a normalization form this processor supports (NFC, NFD, NFKC, NFKD)`,
        );
      return [value.normalize(name as 'NFC')];
    },
  ],
  'upper-case': [1, ([text]) => [stringOrEmpty(text!, 'fn:upper-case', 0).toUpperCase()]],
  'lower-case': [1, ([text]) => [stringOrEmpty(text!, 'fn:lower-case', 0).toLowerCase()]],
  translate: [
    3,
    ([text, from, to]) => {
      const map = codePoints(oneString(from!, 'fn:translate', 1));
      const replacement = codePoints(oneString(to!, 'fn:translate', 2));
      let out = '';
      for (const c of codePoints(stringOrEmpty(text!, 'fn:translate', 0))) {
        const at = map.indexOf(c);
        if (at === -1) out += c;
        else if (at < replacement.length) out += replacement[at];
      }
      return [out];
    },
  ],
  contains: [
    [2, 3],
    ([text, part]) => [stringOrEmpty(text!, 'fn:contains', 0).includes(stringOrEmpty(part!, 'fn:contains', 1))],
  ],
  'starts-with': [
    [2, 3],
    ([text, part]) => [stringOrEmpty(text!, 'fn:starts-with', 0).startsWith(stringOrEmpty(part!, 'fn:starts-with', 1))],
  ],
  'ends-with': [
    [2, 3],
    ([text, part]) => [stringOrEmpty(text!, 'fn:ends-with', 0).endsWith(stringOrEmpty(part!, 'fn:ends-with', 1))],
  ],
  'substring-before': [
    [2, 3],
    ([text, part]) => {
      const t = stringOrEmpty(text!, 'fn:substring-before', 0);
      const at = t.indexOf(stringOrEmpty(part!, 'fn:substring-before', 1));
      return [at === -1 ? '' : t.slice(0, at)];
    },
  ],
  'substring-after': [
    [2, 3],
    ([text, part]) => {
      const t = stringOrEmpty(text!, 'fn:substring-after', 0);
      const p = stringOrEmpty(part!, 'fn:substring-after', 1);
      const at = t.indexOf(p);
      return [at === -1 ? '' : t.slice(at + p.length)];
    },
  ],
  substring: [
    [2, 3],
    ([text, start, length]) => [
      substring(
        stringOrEmpty(text!, 'fn:substring', 0),
        oneNumber(start!, 'fn:substring', 1),
        length === undefined ? undefined : oneNumber(length, 'fn:substring', 2),
      ),
    ],
  ],
  compare: [
    [2, 3],
    ([a, b]) => {
      const x = optString(a!, 'fn:compare', 0);
      const y = optString(b!, 'fn:compare', 1);
      if (x === undefined || y === undefined) return EMPTY;
      return [x < y ? -1 : x > y ? 1 : 0];
    },
  ],
  'codepoint-equal': [
    2,
    ([a, b]) => {
      const x = optString(a!, 'fn:codepoint-equal', 0);
      const y = optString(b!, 'fn:codepoint-equal', 1);
      return x === undefined || y === undefined ? EMPTY : [x === y];
    },
  ],
  'string-to-codepoints': [
    1,
    ([text]) => codePoints(stringOrEmpty(text!, 'fn:string-to-codepoints', 0)).map((c) => c.codePointAt(0)!),
  ],
  'codepoints-to-string': [
    1,
    ([codes]) => {
      let out = '';
      for (const code of atomize(codes!)) {
        const n = typeof code === 'number' ? code : NaN;
        const valid =
          n === 0x9 ||
          n === 0xa ||
          n === 0xd ||
          (n >= 0x20 && n <= 0xd7ff) ||
          (n >= 0xe000 && n <= 0xfffd) ||
          (n >= 0x10000 && n <= 0x10ffff);
        if (!valid) throw new MetapathError('FOCH0001', `${stringOf(code)} is not the code point of an XML character`);
        out += String.fromCodePoint(n);
      }
      return [out];
    },
  ],
  'contains-token': [
    [2, 3],
    ([input, token]) => {
      const t = oneString(token!, 'fn:contains-token', 1)
        .replace(/[ \t\r\n]+/g, ' ')
        .trim();
      return [
        atomize(input!).some((v) =>
          stringOf(v)
            .split(/[ \t\r\n]+/)
            .includes(t),
        ),
      ];
    },
  ],
  'encode-for-uri': [
    1,
    ([text]) => [stringOrEmpty(text!, 'fn:encode-for-uri', 0).replace(/[^A-Za-z0-9\-_.~]/gu, percentEncode)],
  ],
  'iri-to-uri': [
    1,
    ([text]) => [stringOrEmpty(text!, 'fn:iri-to-uri', 0).replace(/[^\x21-\x7E]|[<>"{}|\\^`]/gu, percentEncode)],
  ],
  'escape-html-uri': [
    1,
    ([text]) => [stringOrEmpty(text!, 'fn:escape-html-uri', 0).replace(/[^\x20-\x7E]/gu, percentEncode)],
  ],
  matches: [
    [2, 3],
    ([text, pattern, flags]) => [
      matches(
        stringOrEmpty(text!, 'fn:matches', 0),
        oneString(pattern!, 'fn:matches', 1),
        flags === undefined ? '' : oneString(flags, 'fn:matches', 2),
      ),
    ],
  ],
  replace: [
    [3, 4],
    ([text, pattern, replacement, flags]) => [
      replace(
        stringOrEmpty(text!, 'fn:replace', 0),
        oneString(pattern!, 'fn:replace', 1),
        oneString(replacement!, 'fn:replace', 2),
        flags === undefined ? '' : oneString(flags, 'fn:replace', 3),
      ),
    ],
  ],
  tokenize: [
    [1, 3],
    ([text, pattern, flags]) =>
      tokenize(
        stringOrEmpty(text!, 'fn:tokenize', 0),
        pattern === undefined ? undefined : oneString(pattern, 'fn:tokenize', 1),
        flags === undefined ? '' : oneString(flags, 'fn:tokenize', 2),
      ),
  ],
});
