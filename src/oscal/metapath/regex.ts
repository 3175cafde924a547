/**
 * XPath 3.1 regular expressions (F&O 5.6: XML Schema's regular expressions with anchors,
 * reluctant quantifiers, back-references and non-capturing groups) on JavaScript's RegExp. The
 * pattern is read here, checked against XPath's grammar, and written out for the `v` flag, which
 * has the class subtraction XSD needs. XSD's escapes mean other things than JavaScript's (\d is
 * any decimal digit, \w excludes punctuation, \s is four characters only), so none is passed
 * through: every one is written out as what XSD says it matches.
 */
import { MetapathError } from './errors.js';
import { BLOCKS } from './regex-blocks.js';

/** Compiled patterns by flags and pattern: constraints evaluate the same few thousands of times. */
const CACHE_LIMIT = 2000;
const cache = new Map<string, RegExp>();

const NAME_START =
  'A-Z_a-z\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2FF}\\u{370}-\\u{37D}\\u{37F}-\\u{1FFF}\\u{200C}-\\u{200D}\\u{2070}-\\u{218F}\\u{2C00}-\\u{2FEF}\\u{3001}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFFD}\\u{10000}-\\u{EFFFF}:';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u{B7}\\u{300}-\\u{36F}\\u{203F}-\\u{2040}`;

/** XSD's multi-character escapes, as the contents of a `v`-flag class. */
const MULTI: Record<string, string> = {
  s: '\\u{20}\\u{9}\\u{A}\\u{D}',
  d: '\\p{Nd}',
  w: '\\P{P}--\\p{Z}--\\p{C}',
  i: NAME_START,
  c: NAME_CHAR,
};

const CATEGORIES = new Set([
  'L',
  'Lu',
  'Ll',
  'Lt',
  'Lm',
  'Lo',
  'M',
  'Mn',
  'Mc',
  'Me',
  'N',
  'Nd',
  'Nl',
  'No',
  'P',
  'Pc',
  'Pd',
  'Ps',
  'Pe',
  'Pi',
  'Pf',
  'Po',
  'Z',
  'Zs',
  'Zl',
  'Zp',
  'S',
  'Sm',
  'Sc',
  'Sk',
  'So',
  'C',
  'Cc',
  'Cf',
  'Co',
  'Cn',
]);

/** Characters XSD lets a single-character escape name. */
const SINGLE_ESCAPES: Record<string, number> = { n: 0xa, r: 0xd, t: 0x9 };
const ESCAPABLE = new Set('\\|.-^?*+{}()[]$');

function fail(code: string, message: string, at?: number): never {
  throw new MetapathError(code, at === undefined ? message : `${message} (at character ${at + 1} of the pattern)`);
}

/** A code point as a `v`-flag literal, safe inside and outside classes. */
function literal(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a))
    return String.fromCodePoint(cp);
  return `\\u{${cp.toString(16).toUpperCase()}}`;
}

/** A class's contents: several parts to join, the union of which the class is. */
type ClassParts = string[];

class Translator {
  private pos = 0;
  private groups = 0;
  private readonly closed = new Set<number>();
  private readonly chars: number[];

  constructor(
    pattern: string,
    private readonly extended: boolean,
    private readonly dotAll: boolean,
  ) {
    this.chars = Array.from(pattern, (c) => c.codePointAt(0)!);
  }

  translate(): string {
    const out = this.branches();
    if (this.pos < this.chars.length) fail('FORX0002', `an unmatched ")"`, this.pos);
    return out;
  }

  private peek(): number | undefined {
    if (this.extended) while (this.pos < this.chars.length && isSpace(this.chars[this.pos]!)) this.pos++;
    return this.chars[this.pos];
  }

  private branches(): string {
    const parts = [this.branch()];
    while (this.peek() === 0x7c) {
      this.pos++;
      parts.push(this.branch());
    }
    return parts.join('|');
  }

  private branch(): string {
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === 0x7c || c === 0x29) return out;
      out += this.piece();
    }
  }

  private piece(): string {
    const atom = this.atom();
    const c = this.peek();
    let quantifier = '';
    if (c === 0x2a || c === 0x2b || c === 0x3f) {
      this.pos++;
      quantifier = String.fromCodePoint(c);
    } else if (c === 0x7b) {
      quantifier = this.quantity();
    }
    if (quantifier && this.peek() === 0x3f) {
      this.pos++;
      quantifier += '?';
    }
    if (quantifier && (atom === '^' || atom === '$')) fail('FORX0002', 'an anchor cannot be repeated', this.pos - 1);
    return atom + quantifier;
  }

  /** {n}, {n,} or {n,m}: XSD has no {,m}. */
  private quantity(): string {
    const start = this.pos;
    this.pos++;
    const min = this.digits();
    if (min === '') fail('FORX0002', 'a quantifier {…} must start with a number (XPath has no {,m})', start);
    let max: string | undefined;
    if (this.chars[this.pos] === 0x2c) {
      this.pos++;
      max = this.digits();
    }
    if (this.chars[this.pos] !== 0x7d) fail('FORX0002', 'a quantifier {…} is not closed', start);
    this.pos++;
    if (max !== undefined && max !== '' && Number(max) < Number(min))
      fail('FORX0002', `the quantifier {${min},${max}} has its bounds the wrong way round`, start);
    return max === undefined ? `{${min}}` : `{${min},${max}}`;
  }

  private digits(): string {
    let out = '';
    while (this.pos < this.chars.length && this.chars[this.pos]! >= 0x30 && this.chars[this.pos]! <= 0x39)
      out += String.fromCodePoint(this.chars[this.pos++]!);
    return out;
  }

  private atom(): string {
    const at = this.pos;
    const c = this.chars[this.pos++]!;
    switch (c) {
      case 0x28: {
        let capturing = true;
        if (this.chars[this.pos] === 0x3f) {
          if (this.chars[this.pos + 1] !== 0x3a) fail('FORX0002', 'of the (?…) groups only (?: is allowed', at);
          this.pos += 2;
          capturing = false;
        }
        const number = capturing ? ++this.groups : 0;
        const inner = this.branches();
        if (this.chars[this.pos] !== 0x29) fail('FORX0002', 'a "(" is not closed', at);
        this.pos++;
        if (capturing) this.closed.add(number);
        return capturing ? `(${inner})` : `(?:${inner})`;
      }
      case 0x5b:
        return this.charClass(at);
      case 0x5c:
        return this.escape(at, false);
      case 0x2e:
        return this.dotAll ? '[\\s\\S]' : '[^\\n\\r]';
      case 0x5e:
        return '^';
      case 0x24:
        return '$';
      case 0x2a:
      case 0x2b:
      case 0x3f:
      case 0x7b:
        return fail('FORX0002', `"${String.fromCodePoint(c)}" has nothing before it to repeat`, at);
      case 0x5d:
      case 0x7d:
        return fail('FORX0002', `an unescaped "${String.fromCodePoint(c)}"`, at);
      default:
        return literal(c);
    }
  }

  /** An escape outside (`inClass` false) or inside a class; outside, what it gives is a whole atom. */
  private escape(at: number, inClass: boolean): string {
    const c = this.chars[this.pos++];
    if (c === undefined) fail('FORX0002', 'the pattern ends with a lone "\\"', at);
    const ch = String.fromCodePoint(c);
    if (SINGLE_ESCAPES[ch] !== undefined) return literal(SINGLE_ESCAPES[ch]);
    if (ESCAPABLE.has(ch)) return literal(c);
    const lower = ch.toLowerCase();
    if (MULTI[lower] !== undefined) {
      const set = MULTI[lower];
      const negated = ch !== lower;
      if (inClass) return negated ? `[^${bracket(set)}]` : bracket(set);
      return negated ? `[^${bracket(set)}]` : `[${set}]`;
    }
    if (ch === 'p' || ch === 'P') {
      const set = this.property(at);
      const negated = ch === 'P';
      return negated ? `[^${set}]` : `[${set}]`;
    }
    if (!inClass && c >= 0x31 && c <= 0x39) return this.backReference(c, at);
    return fail('FORX0002', `"\\${ch}" is not an escape of XPath regular expressions`, at);
  }

  /**
   * \N: F&O takes as many digits as still name a group that exists; the group must be closed
   * before the reference.
   */
  private backReference(first: number, at: number): string {
    let number = first - 0x30;
    while (
      this.pos < this.chars.length &&
      this.chars[this.pos]! >= 0x30 &&
      this.chars[this.pos]! <= 0x39 &&
      number * 10 + (this.chars[this.pos]! - 0x30) <= this.groups
    ) {
      number = number * 10 + (this.chars[this.pos++]! - 0x30);
    }
    if (!this.closed.has(number))
      fail('FORX0002', `the back-reference \\${number} refers to a group that is not closed before it`, at);
    // A group number then a literal digit: JavaScript would read \10 as group 10 too.
    return `\\${number}(?:)`;
  }

  /** \p{…}: a general category, or Is followed by a Unicode block name. */
  private property(at: number): string {
    if (this.chars[this.pos] !== 0x7b) fail('FORX0002', '\\p and \\P need a {name}', at);
    const close = this.chars.indexOf(0x7d, this.pos);
    if (close === -1) fail('FORX0002', 'a \\p{…} is not closed', at);
    const name = String.fromCodePoint(...this.chars.slice(this.pos + 1, close));
    this.pos = close + 1;
    if (CATEGORIES.has(name)) return `\\p{${name}}`;
    if (name.startsWith('Is')) {
      const block = BLOCKS.get(
        name
          .slice(2)
          .replace(/[\s_-]/g, '')
          .toLowerCase(),
      );
      if (block) return `${literal(block[0])}-${literal(block[1])}`;
      fail('FORX0002', `${name.slice(2)} is not a Unicode block this processor knows`, at);
    }
    return fail('FORX0002', `${name} is not a Unicode general category (L, Lu, Nd, …) or block (IsBasicLatin, …)`, at);
  }

  /** [...], [^...], with XSD's subtraction [a-z-[aeiou]], nested as deep as written. */
  private charClass(at: number): string {
    let negated = false;
    if (this.chars[this.pos] === 0x5e) {
      negated = true;
      this.pos++;
    }
    const parts: ClassParts = [];
    let subtracted: string | undefined;
    let first = true;
    for (;;) {
      const c = this.chars[this.pos];
      if (c === undefined) fail('FORX0002', 'a "[" is not closed', at);
      if (c === 0x5d) {
        this.pos++;
        break;
      }
      if (c === 0x2d && this.chars[this.pos + 1] === 0x5b && !first) {
        this.pos += 2;
        subtracted = this.charClass(this.pos - 1);
        if (this.chars[this.pos] !== 0x5d) fail('FORX0002', 'a subtraction -[…] must end its class', this.pos);
        this.pos++;
        break;
      }
      parts.push(this.classItem(at, first));
      first = false;
    }
    if (parts.length === 0) fail('FORX0002', 'a class [] is empty', at);
    let set = negated ? `[^${parts.join('')}]` : `[${parts.join('')}]`;
    if (subtracted) set = `[${set}--${subtracted}]`;
    return set;
  }

  private classItem(at: number, first: boolean): string {
    const c = this.chars[this.pos]!;
    if (c === 0x5b) fail('FORX0002', 'an unescaped "[" in a class', this.pos);
    if (c === 0x5c) {
      const escapeAt = this.pos++;
      const escaped = this.escape(escapeAt, true);
      if (escaped.startsWith('[')) return escaped;
      return this.rangeFrom(escaped, this.escapedCodePoint(escapeAt), at);
    }
    this.pos++;
    // XSD 1.0 allows a lone "-" only first or last; NIST's own patterns (a-zA-Z-._) rely on the
    // reading every other engine gives it, a literal "-".
    return c === 0x2d && !first ? literal(c) : this.rangeFrom(literal(c), c, at);
  }

  /** The code point a single-character escape at `at` stood for. */
  private escapedCodePoint(at: number): number {
    const ch = String.fromCodePoint(this.chars[at + 1]!);
    return SINGLE_ESCAPES[ch] ?? this.chars[at + 1]!;
  }

  /** `from` alone, or `from-to` when a range follows. */
  private rangeFrom(from: string, fromCp: number, at: number): string {
    if (this.chars[this.pos] !== 0x2d || this.chars[this.pos + 1] === 0x5d || this.chars[this.pos + 1] === 0x5b)
      return from;
    this.pos++;
    let toCp = this.chars[this.pos++]!;
    if (toCp === 0x5c) {
      const escapeAt = this.pos - 1;
      const escaped = this.escape(escapeAt, true);
      if (escaped.startsWith('[')) fail('FORX0002', 'a range cannot end in a multi-character escape', escapeAt);
      toCp = this.escapedCodePoint(escapeAt);
    }
    if (toCp < fromCp) fail('FORX0002', 'a range in a class goes from a higher character to a lower one', at);
    return `${from}-${literal(toCp)}`;
  }
}

/** A set as one bracketed class, for use inside another (`v` nests classes). */
function bracket(set: string): string {
  return `[${set}]`;
}

function isSpace(cp: number): boolean {
  return cp === 0x20 || cp === 0x9 || cp === 0xa || cp === 0xd;
}

/** The JavaScript RegExp source and flags for an XPath pattern and flags. */
export function translateRegex(pattern: string, flags: string): { source: string; flags: string } {
  for (const f of flags)
    if (!'smixq'.includes(f)) fail('FORX0001', `"${f}" is not a regular expression flag (s, m, i, x, q)`);
  const jsFlags = `v${flags.includes('i') ? 'i' : ''}${flags.includes('m') ? 'm' : ''}`;
  if (flags.includes('q'))
    return { source: Array.from(pattern, (c) => literal(c.codePointAt(0)!)).join(''), flags: jsFlags };
  return { source: new Translator(pattern, flags.includes('x'), flags.includes('s')).translate(), flags: jsFlags };
}

function compiled(key: string, make: () => RegExp): RegExp {
  let re = cache.get(key);
  if (!re) {
    re = make();
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, re);
  }
  return re;
}

function regexOf(pattern: string, flags: string, global = false): RegExp {
  return compiled(`${global ? 'global' : 'first'}\u0000${flags}\u0000${pattern}`, () => {
    const t = translateRegex(pattern, flags);
    return new RegExp(t.source, t.flags + (global ? 'g' : ''));
  });
}

/** F&O 5.6.2 fn:matches: the pattern matches somewhere in the input. */
export function matches(input: string, pattern: string, flags = ''): boolean {
  return regexOf(pattern, flags).test(input);
}

function refuseEmptyMatch(pattern: string, flags: string, fn: string): void {
  const whole = compiled(`empty\u0000${flags}\u0000${pattern}`, () => {
    const t = translateRegex(pattern, flags);
    return new RegExp(`^(?:${t.source})$`, t.flags);
  });
  if (whole.test('')) fail('FORX0003', `${fn}: the pattern "${pattern}" matches an empty string`);
}

/** F&O 5.6.3 fn:replace: $N is a group's text, \$ and \\ a dollar and a backslash. */
export function replace(input: string, pattern: string, replacement: string, flags = ''): string {
  refuseEmptyMatch(pattern, flags, 'fn:replace');
  const re = regexOf(pattern, flags, true);
  re.lastIndex = 0;
  if (flags.includes('q')) return input.replace(re, () => replacement);
  const groups = groupCount(re);
  const parts = replacementParts(replacement, groups);
  return input.replace(re, (...args: unknown[]) =>
    parts.map((p) => (typeof p === 'string' ? p : ((args[p] as string | undefined) ?? ''))).join(''),
  );
}

/** The groups of a compiled pattern (a pattern matched against "" reports them all). */
function groupCount(re: RegExp): number {
  return new RegExp(`${re.source}|`, re.flags.replace('g', '')).exec('')!.length - 1;
}

/** Literal text and group numbers of a replacement string. */
function replacementParts(replacement: string, groups: number): (string | number)[] {
  const parts: (string | number)[] = [];
  let text = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    if (c === '\\') {
      const next = replacement[i + 1];
      if (next !== '\\' && next !== '$')
        fail('FORX0004', `in the replacement "${replacement}", "\\" must be followed by "\\" or "$"`);
      text += next;
      i++;
    } else if (c === '$') {
      let digits = '';
      while (/\d/.test(replacement[i + 1] ?? '') && (digits === '' || Number(digits + replacement[i + 1]) <= groups))
        digits += replacement[++i];
      if (digits === '')
        fail(
          'FORX0004',
          `in the replacement "${replacement}", "$" must be followed by a group number (write \\$ for a dollar)`,
        );
      if (text) parts.push(text);
      text = '';
      parts.push(Number(digits) <= groups ? Number(digits) : '');
    } else text += c;
  }
  if (text) parts.push(text);
  return parts;
}

/** F&O 5.6.4 fn:tokenize; with no pattern, the input's words. */
export function tokenize(input: string, pattern?: string, flags = ''): string[] {
  if (pattern === undefined) {
    const words = input.replace(/[ \t\r\n]+/g, ' ').trim();
    return words === '' ? [] : words.split(' ');
  }
  if (input === '') return [];
  refuseEmptyMatch(pattern, flags, 'fn:tokenize');
  const re = regexOf(pattern, flags, true);
  re.lastIndex = 0;
  const tokens: string[] = [];
  let from = 0;
  for (const m of input.matchAll(re)) {
    tokens.push(input.slice(from, m.index));
    from = m.index! + m[0].length;
  }
  tokens.push(input.slice(from));
  return tokens;
}

/** Metaschema's matches/@regex and key-field/@pattern: the pattern must match the whole value. */
export function compileWholeMatch(pattern: string): RegExp {
  return compiled(`whole\u0000\u0000${pattern}`, () => {
    const t = translateRegex(pattern, '');
    return new RegExp(`^(?:${t.source})$`, t.flags);
  });
}
