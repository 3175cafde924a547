import { MAX_NESTING } from './nesting.js';

/**
 * A reader for the block style of YAML that OSCAL tools write: NIST's published files and the
 * dumps of js-yaml, PyYAML and the like. Block mappings and sequences (compact entries included),
 * plain, single- and double-quoted scalars over several lines, literal and folded block scalars,
 * `[]`, `{}`, whole-line comments and one leading `---`.
 *
 * It gives the tree js-yaml's failsafe load gives (every scalar the string written), or undefined
 * for anything outside that set: anchors, aliases, tags, flow collections with content, comments
 * after a value, tabs, carriage returns, a second document, and every error. js-yaml then reads the
 * text as before and reports what is wrong, so this reader never decides that YAML is bad.
 *
 * Why it exists: js-yaml's own tokenizer is most of the cost of reading a YAML catalog, and the
 * engine must read YAML no slower than that library's bare load (docs/decisions/0004-block-yaml-reader.md).
 */
export function readBlockYaml(text: string): Record<string, unknown> | undefined {
  if (OUTSIDE_SUBSET_CHAR.test(text) && (OUTSIDE_SUBSET_CHAR_STRICT.test(text) || UNPAIRED_SURROGATE.test(text)))
    return undefined;
  try {
    return new BlockReader(text).document();
  } catch (e) {
    if (e === DEFER) return undefined;
    throw e;
  }
}

/** Thrown (without a stack) to hand the text to js-yaml. */
const DEFER = Object.freeze({ defer: true });

/**
 * Tabs and carriage returns (legal YAML, never written by the tools above), characters js-yaml
 * refuses as non-printable, the byte order mark and the Unicode line separators. The first class
 * is a cheap screen that also matches surrogates, which only matter when unpaired.
 */
const OUTSIDE_SUBSET_CHAR = /[\t\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uD800-\uDFFF\u2028\u2029\uFEFF\uFFFE\uFFFF]/;
const OUTSIDE_SUBSET_CHAR_STRICT = /[\t\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF]/;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const SPACE = 0x20;
const HASH = 0x23;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const COLON = 0x3a;
const DASH = 0x2d;
const BACKSLASH = 0x5c;
const PIPE = 0x7c;
const GREATER = 0x3e;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;

/** Characters that cannot begin a plain scalar (c-indicator), less `-`, `?` and `:`, which can when a non-space follows. */
const INDICATOR = new Uint8Array(128);
for (const c of ',[]{}#&*!|>\'"%@`') INDICATOR[c.charCodeAt(0)] = 1;

/** Longest implicit key YAML allows. */
const MAX_KEY = 1024;

/** Double-quoted escapes with a one-character replacement; \x, \u and \U are decoded apart, the rest are deferred. */
const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };
const HEX_DIGITS = /^[0-9A-Fa-f]+$/;

function defer(): never {
  throw DEFER;
}

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === SPACE) i++;
  return i;
}

/** `-`, `?` or `:` followed by a space or the end of the line: an indicator, not text. */
function isIndicatorWithSpace(line: string, at: number): boolean {
  const c = line.charCodeAt(at);
  if (c !== DASH && c !== 0x3f && c !== COLON) return false;
  const next = line.charCodeAt(at + 1);
  return next === SPACE || Number.isNaN(next);
}

/**
 * `---` or `...`, alone or before a space: a document boundary at the start of a line, and a
 * text js-yaml refuses where it is indented; never a key.
 */
function isDocumentMarker(line: string, at: number): boolean {
  return (
    (line.startsWith('---', at) || line.startsWith('...', at)) &&
    (line.length === at + 3 || line.charCodeAt(at + 3) === SPACE)
  );
}

function canStartPlain(line: string, at: number): boolean {
  const c = line.charCodeAt(at);
  return !(c < 128 && INDICATOR[c]) && !isIndicatorWithSpace(line, at);
}

/** js-yaml's folding of the line breaks inside a flow scalar: one becomes a space, k become k-1 newlines. */
function folded(breaks: number): string {
  return breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
}

function trimEndSpaces(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === SPACE) end--;
  return end === s.length ? s : s.slice(0, end);
}

class BlockReader {
  private readonly lines: string[];
  /** The line being read. */
  private row = 0;
  /** Collections open; past MAX_NESTING the text goes to js-yaml, which refuses it without exhausting the stack. */
  private depth = 0;
  /** The text does not end in a line break, so its last line has none. */
  private readonly lastLineOpen: boolean;

  constructor(text: string) {
    this.lines = text.split('\n');
    // The final line break ends the last line; it does not begin an empty one.
    this.lastLineOpen = this.lines[this.lines.length - 1] !== '';
    if (!this.lastLineOpen) this.lines.pop();
  }

  document(): Record<string, unknown> {
    this.skipBlankLines();
    if (this.row < this.lines.length && trimEndSpaces(this.lines[this.row]!) === '---') {
      this.row++;
      this.skipBlankLines();
    }
    if (this.row >= this.lines.length) defer();
    const line = this.lines[this.row]!;
    const indent = indentOf(line);
    const root = this.mapping(indent, this.keyEnd(line, indent));
    this.skipBlankLines();
    if (this.row < this.lines.length) defer();
    return root;
  }

  /** Moves past empty lines, lines of spaces and whole-line comments. */
  private skipBlankLines(): void {
    const lines = this.lines;
    while (this.row < lines.length) {
      const line = lines[this.row]!;
      const i = indentOf(line);
      if (i < line.length && line.charCodeAt(i) !== HASH) return;
      this.row++;
    }
  }

  /** Indentation of the next line with content, or -1 at the end; blank lines are passed. */
  private nextIndent(): number {
    this.skipBlankLines();
    return this.row < this.lines.length ? indentOf(this.lines[this.row]!) : -1;
  }

  /**
   * A block mapping whose keys stand at column `indent`, the first one on the current line; its
   * colon is at `firstColon`, found by the caller that took the line for a key.
   */
  private mapping(indent: number, firstColon: number): Record<string, unknown> {
    if (++this.depth > MAX_NESTING) defer();
    const map: Record<string, unknown> = {};
    let colon = firstColon;
    for (;;) {
      const line = this.lines[this.row]!;
      if (colon < 0) defer();
      const key = this.key(line, indent, colon);
      // Inherited names (`__proto__`, `toString`) and repeated keys are js-yaml's to judge.
      if (map[key] !== undefined) defer();
      map[key] = this.value(line, colon + 1, indent, true);
      const next = this.nextIndent();
      if (next > indent) defer();
      if (next < indent) {
        this.depth--;
        return map;
      }
      colon = this.keyEnd(this.lines[this.row]!, indent);
    }
  }

  /**
   * Where the `:` of an implicit key starting at `at` is, or -1 when the text there is not a key.
   * Keys are one line: a quoted scalar, or plain text up to the first `: `.
   */
  private keyEnd(line: string, at: number): number {
    const first = line.charCodeAt(at);
    let i: number;
    if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE) {
      i = at + 1;
      for (;;) {
        if (i >= line.length) return -1;
        const c = line.charCodeAt(i);
        if (c === first) {
          if (first === SINGLE_QUOTE && line.charCodeAt(i + 1) === SINGLE_QUOTE) i += 2;
          else break;
        } else if (c === BACKSLASH && first === DOUBLE_QUOTE) i += 2;
        else i++;
      }
      i++;
      if (line.charCodeAt(i) !== COLON) return -1;
    } else {
      if (!canStartPlain(line, at) || isDocumentMarker(line, at)) return -1;
      i = line.indexOf(':', at + 1);
      for (;;) {
        if (i < 0) return -1;
        const next = line.charCodeAt(i + 1);
        if (next === SPACE || Number.isNaN(next)) break;
        i = line.indexOf(':', i + 1);
      }
      // A space before the colon, or a comment before it, is left to js-yaml.
      if (line.charCodeAt(i - 1) === SPACE) return -1;
      const hash = line.indexOf(' #', at);
      if (hash >= 0 && hash < i) return -1;
    }
    const next = line.charCodeAt(i + 1);
    return next === SPACE || Number.isNaN(next) ? i : -1;
  }

  private key(line: string, at: number, colon: number): string {
    if (colon - at > MAX_KEY) defer();
    const first = line.charCodeAt(at);
    if (first === DOUBLE_QUOTE) return this.unescapeDouble(line.slice(at + 1, colon - 1));
    if (first === SINGLE_QUOTE) return line.slice(at + 1, colon - 1).replaceAll("''", "'");
    const key = line.slice(at, colon);
    // A merge key means something to js-yaml's default schema; leave it to js-yaml.
    if (key === '<<') defer();
    return key;
  }

  /**
   * The value after a mapping's `:` or a sequence's `-` at `from` on the current line, for a node
   * whose parent stands at column `parentIndent`. Leaves `row` on the line after the value.
   */
  private value(line: string, from: number, parentIndent: number, inMapping: boolean): unknown {
    let at = from;
    while (line.charCodeAt(at) === SPACE) at++;
    if (at < line.length) {
      if (!inMapping) {
        if (line.charCodeAt(at) === DASH && isIndicatorWithSpace(line, at)) return this.sequence(at);
        const colon = this.keyEnd(line, at);
        if (colon >= 0) return this.mapping(at, colon);
      }
      return this.scalar(line, at, parentIndent);
    }
    this.row++;
    const next = this.nextIndent();
    if (next > parentIndent) return this.block(next, parentIndent);
    // A mapping's sequence may stand at the mapping's own indentation.
    if (
      inMapping &&
      next === parentIndent &&
      isIndicatorWithSpace(this.lines[this.row]!, next) &&
      this.lines[this.row]!.charCodeAt(next) === DASH
    )
      return this.sequence(next);
    return defer();
  }

  /** A node on lines of its own, at column `indent`: a sequence, a mapping, or a scalar. */
  private block(indent: number, parentIndent: number): unknown {
    const line = this.lines[this.row]!;
    if (line.charCodeAt(indent) === DASH && isIndicatorWithSpace(line, indent)) return this.sequence(indent);
    const colon = this.keyEnd(line, indent);
    return colon >= 0 ? this.mapping(indent, colon) : this.scalar(line, indent, parentIndent);
  }

  private sequence(indent: number): unknown[] {
    if (++this.depth > MAX_NESTING) defer();
    const items: unknown[] = [];
    for (;;) {
      items.push(this.value(this.lines[this.row]!, indent + 1, indent, false));
      const next = this.nextIndent();
      if (next > indent) defer();
      const line = this.lines[this.row];
      if (next < indent || line!.charCodeAt(indent) !== DASH || !isIndicatorWithSpace(line!, indent)) {
        this.depth--;
        return items;
      }
    }
  }

  /** A scalar, `[]` or `{}` starting at `at` on the current line. */
  private scalar(line: string, at: number, parentIndent: number): unknown {
    const first = line.charCodeAt(at);
    switch (first) {
      case DOUBLE_QUOTE:
      case SINGLE_QUOTE:
        return this.quoted(at, parentIndent, first);
      case PIPE:
      case GREATER:
        return this.blockScalar(line, at, parentIndent, first === GREATER);
      case OPEN_BRACKET:
      case OPEN_BRACE:
        if (trimEndSpaces(line.slice(at)) !== (first === OPEN_BRACKET ? '[]' : '{}')) defer();
        this.row++;
        return first === OPEN_BRACKET ? [] : {};
    }
    if (!canStartPlain(line, at)) defer();
    return this.plain(line, at, parentIndent);
  }

  /** A plain scalar, continued on the following lines that are indented deeper than its parent. */
  private plain(line: string, at: number, parentIndent: number): string {
    let text = this.plainLine(line, at);
    this.row++;
    const lines = this.lines;
    let look = this.row;
    let breaks = 1;
    while (look < lines.length) {
      const next = lines[look]!;
      const i = indentOf(next);
      if (i >= next.length) {
        breaks++;
        look++;
        continue;
      }
      // A comment line ends the scalar; what follows it is the parent's.
      if (i <= parentIndent || next.charCodeAt(i) === HASH) break;
      if (isIndicatorWithSpace(next, i)) defer();
      text += folded(breaks) + this.plainLine(next, i);
      breaks = 1;
      this.row = ++look;
    }
    return text;
  }

  /** One line's part of a plain scalar; a `: ` or ` #` in it is left to js-yaml. */
  private plainLine(line: string, at: number): string {
    const text = trimEndSpaces(at === 0 ? line : line.slice(at));
    const colon = text.indexOf(':');
    if (colon >= 0 && (text.indexOf(': ', colon) >= 0 || text.charCodeAt(text.length - 1) === COLON)) defer();
    if (text.indexOf(' #') >= 0) defer();
    return text;
  }

  /** A quoted scalar from `at` on the current line, over as many lines as it takes. */
  private quoted(at: number, parentIndent: number, quote: number): string {
    const double = quote === DOUBLE_QUOTE;
    let line = this.lines[this.row]!;
    let text = '';
    let from = at + 1;
    for (;;) {
      const close = this.closingQuote(line, from, quote);
      if (close >= 0) {
        text += this.quotedPart(line.slice(from, close), double);
        if (trimEndSpaces(line.slice(close + 1)) !== '') defer();
        this.row++;
        return text;
      }
      let part = line.slice(from);
      // A backslash at the end of a line joins the lines with nothing between them.
      let joined = false;
      if (double && this.endsInEscapingBackslash(part)) {
        part = part.slice(0, -1);
        joined = true;
      } else {
        const trimmed = trimEndSpaces(part);
        // Spaces before a line break go, but an escaped one (`\ `) is content.
        part =
          double && trimmed.length < part.length && this.endsInEscapingBackslash(trimmed) ? trimmed + ' ' : trimmed;
      }
      text += this.quotedPart(part, double);
      let breaks = 1;
      for (;;) {
        this.row++;
        if (this.row >= this.lines.length) defer();
        line = this.lines[this.row]!;
        const i = indentOf(line);
        if (i < line.length) {
          if (i <= parentIndent) defer();
          from = i;
          break;
        }
        breaks++;
      }
      if (!joined) text += folded(breaks);
    }
  }

  /** Index of the quote ending a quoted scalar on this line, or -1. */
  private closingQuote(line: string, from: number, quote: number): number {
    let i = from;
    while (i < line.length) {
      const c = line.charCodeAt(i);
      if (c === quote) {
        if (quote === SINGLE_QUOTE && line.charCodeAt(i + 1) === SINGLE_QUOTE) i += 2;
        else return i;
      } else if (c === BACKSLASH && quote === DOUBLE_QUOTE) i += 2;
      else i++;
    }
    return -1;
  }

  private endsInEscapingBackslash(part: string): boolean {
    let n = 0;
    while (part.charCodeAt(part.length - 1 - n) === BACKSLASH) n++;
    return n % 2 === 1;
  }

  private quotedPart(raw: string, double: boolean): string {
    if (!double) return raw.indexOf("'") < 0 ? raw : raw.replaceAll("''", "'");
    return raw.indexOf('\\') < 0 ? raw : this.unescapeDouble(raw);
  }

  private unescapeDouble(raw: string): string {
    let out = '';
    let from = 0;
    for (let i = raw.indexOf('\\'); i >= 0; i = raw.indexOf('\\', from)) {
      out += raw.slice(from, i);
      const e = raw[i + 1];
      if (e === undefined) defer();
      // One character: it can name no property of Object.prototype.
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        from = i + 2;
        continue;
      }
      const length = HEX_LENGTH[e] ?? defer();
      const hex = raw.slice(i + 2, i + 2 + length);
      if (hex.length !== length || !HEX_DIGITS.test(hex)) defer();
      const code = parseInt(hex, 16);
      // Surrogates and code points past Unicode are js-yaml's to judge.
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) defer();
      out += String.fromCodePoint(code);
      from = i + 2 + length;
    }
    return out + raw.slice(from);
  }

  /**
   * A literal (`|`) or folded (`>`) block scalar whose header is at `at`, with its chomping and
   * indentation indicators, its lines joined as js-yaml joins them.
   */
  private blockScalar(line: string, at: number, parentIndent: number, foldLines: boolean): string {
    let chomp = '';
    let explicit = 0;
    let i = at + 1;
    for (; i < line.length && i <= at + 2; i++) {
      const c = line[i]!;
      if ((c === '-' || c === '+') && chomp === '') chomp = c;
      else if (c >= '1' && c <= '9' && explicit === 0) explicit = c.charCodeAt(0) - 0x30;
      else break;
    }
    if (trimEndSpaces(line.slice(i)) !== '') defer();
    const lines = this.lines;
    let row = this.row + 1;
    let textIndent: number;
    if (explicit > 0) {
      textIndent = parentIndent + explicit;
    } else {
      let widestBlank = 0;
      while (row < lines.length && indentOf(lines[row]!) >= lines[row]!.length)
        widestBlank = Math.max(widestBlank, lines[row++]!.length);
      textIndent = row < lines.length ? indentOf(lines[row]!) : -1;
      // No content, or blank lines wider than the text: js-yaml's to judge.
      if (textIndent <= parentIndent || widestBlank > textIndent) defer();
      row = this.row + 1;
    }
    let text = '';
    let readContent = false;
    let emptyLines = 0;
    // Lines indented deeper than the text keep their line breaks in folded text.
    let atMoreIndented = false;
    for (; row < lines.length; row++) {
      const content = lines[row]!;
      const indent = indentOf(content);
      // Spaces past the text's indentation are content, even on an otherwise empty line.
      if (indent >= content.length && content.length <= textIndent) {
        // Spaces with no line break after them add no empty line.
        if (!(this.lastLineOpen && row === lines.length - 1)) emptyLines++;
        continue;
      }
      if (indent < textIndent) break;
      const part = textIndent === 0 ? content : content.slice(textIndent);
      if (foldLines) {
        if (part.charCodeAt(0) === SPACE) {
          atMoreIndented = true;
          text += '\n'.repeat(readContent ? 1 + emptyLines : emptyLines);
        } else if (atMoreIndented) {
          atMoreIndented = false;
          text += '\n'.repeat(emptyLines + 1);
        } else {
          text += readContent && emptyLines === 0 ? ' ' : '\n'.repeat(emptyLines);
        }
      } else {
        text += '\n'.repeat(readContent ? 1 + emptyLines : emptyLines);
      }
      text += part;
      readContent = true;
      emptyLines = 0;
    }
    if (chomp === '+') text += '\n'.repeat(readContent ? 1 + emptyLines : emptyLines);
    else if (chomp === '' && readContent) text += '\n';
    this.row = row;
    return text;
  }
}
