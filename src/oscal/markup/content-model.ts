// The Metaschema markup model (metaschema-prose-base.xsd, metaschema-markup-line.xsd,
// metaschema-markup-multiline.xsd), as the checks both converters share.
import { MarkupError, type MarkupElement } from './types.js';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const PHRASE = ['code', 'em', 'i', 'b', 'strong', 'sub', 'sup', 'q', 'img'];
const INLINE = [...PHRASE, 'a', 'insert', 'br'];
const LISTS = ['ul', 'ol'];
const BLOCK_TEXT = ['pre', 'hr', 'blockquote'];
// img is listed by the XSD both as phrase markup and as a block (blockElementGroup).
const BLOCKS = [...HEADINGS, ...LISTS, ...BLOCK_TEXT, 'p', 'table', 'img'];

/** Elements allowed in inline (markup-line) content. */
export const INLINE_ELEMENTS: ReadonlySet<string> = new Set(INLINE);
/** Elements allowed directly in markup-multiline content (li, tr, td, th only occur inside lists and tables). */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set(BLOCKS);

/** The two roots a markup value can have; they are not element names. */
export const MARKUP_LINE = '#markup-line';
export const MARKUP_MULTILINE = '#markup-multiline';

interface ContentRule {
  children: ReadonlySet<string>;
  /** 'any': mixed content; 'space': only whitespace between child elements. */
  text: 'any' | 'space';
  attrs: ReadonlySet<string>;
  required: readonly string[];
}

function rule(children: string[], text: 'any' | 'space', attrs: string[] = [], required: string[] = []): ContentRule {
  return { children: new Set(children), text, attrs: new Set(attrs), required };
}

const inline = rule(INLINE, 'any');
const empty = rule([], 'space');

const RULES = new Map<string, ContentRule>([
  [MARKUP_LINE, inline],
  [MARKUP_MULTILINE, rule(BLOCKS, 'space')],
  ...[...HEADINGS, 'p', 'em', 'i', 'b', 'strong', 'sub', 'sup', 'q', 'pre'].map((n): [string, ContentRule] => [
    n,
    inline,
  ]),
  ['code', rule(INLINE, 'any', ['class'])],
  ['a', rule(PHRASE, 'any', ['href', 'title'], ['href'])],
  ['img', rule([], 'space', ['alt', 'src', 'title'], ['src'])],
  ['insert', rule([], 'space', ['type', 'id-ref'], ['type', 'id-ref'])],
  ['br', empty],
  ['hr', empty],
  ['ul', rule(['li'], 'space')],
  ['ol', rule(['li'], 'space', ['start'])],
  ['li', rule([...INLINE, ...LISTS, ...BLOCK_TEXT, ...HEADINGS, 'p'], 'any')],
  ['blockquote', rule(BLOCKS, 'space')],
  ['table', rule(['tr'], 'space')],
  ['tr', rule(['td', 'th'], 'space')],
  ['td', rule(INLINE, 'any', ['align'])],
  ['th', rule(INLINE, 'any', ['align'])],
]);

const NAMES = new Map([...RULES.keys()].map((name) => [name, name]));

/**
 * The model's own string for an element name. A parser's names are new strings (two-byte ones
 * when the document has any character beyond Latin-1, which V8 compares with one-byte strings
 * in its runtime); with this one, the converters' many lookups and comparisons compare pointers.
 */
export function knownName(name: string): string {
  return NAMES.get(name) ?? name;
}

function contextLabel(context: string): string {
  return context === MARKUP_LINE ? 'markup-line' : context === MARKUP_MULTILINE ? 'markup-multiline' : `<${context}>`;
}

function listOrNone(items: Iterable<string>): string {
  const all = [...items];
  return all.length === 0 ? 'none' : all.join(', ');
}

const NOT_XML_SPACE = /[^ \t\n\r]/;
const ASCII_NCNAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const NCNAME = /^[\p{L}_][\p{L}\p{N}\p{M}_.\-\u00B7]*$/u;

/** Whether a value can be an insert type or id-ref (an XML NCName), which also keeps `{{ … }}` unambiguous. */
export function isNcName(value: string): boolean {
  // The ASCII test first: it is what ids are in practice, and much cheaper than the Unicode one.
  return ASCII_NCNAME.test(value) || NCNAME.test(value);
}

const ATTRIBUTE_VALUE_CHECKS: Record<string, (value: string) => string | undefined> = {
  align: (v) => (v === 'left' || v === 'center' || v === 'right' ? undefined : 'must be left, center or right'),
  start: (v) =>
    /^\d{1,9}$/.test(v) ? undefined : 'must be a non-negative integer of at most 9 digits (the Markdown limit)',
  type: (v) => (isNcName(v) ? undefined : 'must be an XML name (NCName)'),
  'id-ref': (v) => (isNcName(v) ? undefined : 'must be an XML name (NCName)'),
};

/**
 * Checks that `el` may appear in `context` (an element name or one of the roots) and
 * that its attributes are the allowed ones, so nothing outside the model is converted.
 */
export function checkElement(el: MarkupElement, context: string): void {
  const parent = RULES.get(context);
  if (parent === undefined || !parent.children.has(el.name)) {
    const where =
      context === MARKUP_LINE || context === MARKUP_MULTILINE
        ? `in ${contextLabel(context)}`
        : `inside ${contextLabel(context)}`;
    throw new MarkupError(
      `element <${el.name}> is not allowed ${where}; allowed: ${listOrNone(parent?.children ?? [])}`,
      el.line,
      el.column,
    );
  }
  const own = RULES.get(el.name) as ContentRule;
  for (const attr in el.attrs) {
    // Namespace declarations are how the element got its namespace, not content.
    if (attr === 'xmlns' || attr.startsWith('xmlns:')) continue;
    const value = el.attrs[attr] as string;
    if (!own.attrs.has(attr)) {
      throw new MarkupError(
        `attribute "${attr}" is not allowed on <${el.name}>; allowed: ${listOrNone(own.attrs)}`,
        el.line,
        el.column,
      );
    }
    const problem = ATTRIBUTE_VALUE_CHECKS[attr]?.(value);
    if (problem !== undefined) {
      throw new MarkupError(`attribute ${attr}="${value}" on <${el.name}> ${problem}`, el.line, el.column);
    }
  }
  if (
    own.children.size === 0 &&
    el.children.length !== 0 &&
    el.children.some((c) => typeof c !== 'string' || NOT_XML_SPACE.test(c))
  ) {
    throw new MarkupError(`<${el.name}> must be empty`, el.line, el.column);
  }
  for (const attr of own.required) {
    if (el.attrs[attr] === undefined) {
      throw new MarkupError(`<${el.name}> requires attribute "${attr}"`, el.line, el.column);
    }
  }
}

/** Throws unless text with non-whitespace content may appear directly in `context`. */
export function checkText(text: string, context: string, line?: number, column?: number): void {
  if (RULES.get(context)?.text === 'any') return;
  const shown = text.trim();
  const excerpt = shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
  const fix = context === MARKUP_MULTILINE || context === 'blockquote' ? '; wrap it in <p>' : '';
  throw new MarkupError(`text "${excerpt}" is not allowed directly in ${contextLabel(context)}${fix}`, line, column);
}
