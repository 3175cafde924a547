// Writes the blocks of markup-multiline content as Markdown: paragraphs, headings,
// lists, code blocks, quotes, rules and tables, each as a string of lines.
import { checkElement, checkText, INLINE_ELEMENTS } from './content-model.js';
import { InlineWriter, literalText, type InlineStyle } from './inline-writer.js';
import { codeFence, escapeHeadingEnd } from './markdown-escape.js';
import { MarkupError, type MarkupElement, type MarkupNode } from './types.js';

const BLOCK_STYLE: InlineStyle = { label: false, hardBreaks: true, blockLines: true };
const SINGLE_LINE_STYLE: InlineStyle = { label: false, hardBreaks: false, blockLines: false };

const XML_SPACE_ONLY = /^[ \t\n\r]*$/;

export interface WrittenBlock {
  markdown: string;
  list: boolean;
}

function inline(nodes: MarkupNode[], context: string, style: InlineStyle): string {
  return new InlineWriter(style, true).write(nodes, context).finish();
}

/**
 * The text of a heading or table cell. Markdown trims these, so whitespace at their edges is
 * kept as character references when it is content, and left out when it is the XML's layout.
 */
function singleLine(nodes: MarkupNode[], context: string): string {
  return new InlineWriter(SINGLE_LINE_STYLE, true)
    .write(nodes, context)
    .finishWithoutLayout({ start: true, end: true });
}

/** The element children of `el`, each checked against the model; text between them must be whitespace. */
function elementChildren(el: MarkupElement): MarkupElement[] {
  const elements: MarkupElement[] = [];
  for (const child of el.children) {
    if (typeof child === 'string') {
      // Text nodes carry no position; the container's is the nearest.
      if (!XML_SPACE_ONLY.test(child)) checkText(child, el.name, el.line, el.column);
    } else {
      checkElement(child, el.name);
      elements.push(child);
    }
  }
  return elements;
}

/** Prefixes the first line and the following ones (list marker and indent, or "> "). */
function prefixLines(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, i) => {
      const prefix = i === 0 ? first : rest;
      return line === '' ? prefix.trimEnd() : prefix + line;
    })
    .join('\n');
}

function charReference(ch: string): string {
  return `&#x${(ch.codePointAt(0) as number).toString(16).toUpperCase()};`;
}

function trimSpaces(text: string): string {
  return text.replace(/^ +| +$/g, '');
}

/**
 * markdown-it trims headings and table cells with String#trim, which also removes
 * no-break and other Unicode spaces; as character references they are kept.
 */
function keepEdgeSpace(markdown: string): string {
  return /^\s|\s$/.test(markdown) ? markdown.replace(/^\s|\s$/g, charReference) : markdown;
}

const SPACE_ONLY = /^[ \t]*$/;

/**
 * One space at the start of a block's text is written as it is (NIST writes " {{ insert: … }}");
 * more, or a tab, would read as indentation (code) or be dropped, so it is kept as character references.
 */
function keepLeadingSpace(markdown: string): string {
  const lead = /^[ \t]+/.exec(markdown)?.[0];
  if (lead === undefined || lead === ' ') return markdown;
  return lead.replace(/[ \t]/g, charReference) + markdown.slice(lead.length);
}

function keepTrailingSpace(markdown: string): string {
  const trail = /[ \t]+$/.exec(markdown)?.[0];
  return trail === undefined ? markdown : markdown.slice(0, -trail.length) + trail.replace(/[ \t]/g, charReference);
}

function isList(el: MarkupElement | undefined): boolean {
  return el !== undefined && (el.name === 'ul' || el.name === 'ol');
}

/** Two lists of one kind in a row would merge, unless the second uses the other marker. */
class ListMarkers {
  private previous: MarkupElement | undefined;
  private alternated = false;

  /** Whether `el`, the next block, takes the other marker. */
  next(el: MarkupElement | undefined): boolean {
    const alternate = el !== undefined && isList(el) && this.previous?.name === el.name && !this.alternated;
    this.previous = el;
    this.alternated = alternate;
    return alternate;
  }
}

/** Writes a sequence of blocks (markup-multiline root or blockquote content); empty blocks are left out. */
export function writeBlocks(container: MarkupElement): WrittenBlock[] {
  const markers = new ListMarkers();
  const written: WrittenBlock[] = [];
  for (const el of elementChildren(container)) {
    const markdown = writeBlock(el, false, markers.next(el));
    if (markdown !== null) written.push({ markdown, list: isList(el) });
  }
  return written;
}

function writeBlock(el: MarkupElement, inItem: boolean, alternate: boolean): string | null {
  switch (el.name) {
    case 'p': {
      const text = inline(el.children, 'p', BLOCK_STYLE);
      return SPACE_ONLY.test(text) ? null : keepLeadingSpace(text);
    }
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const text = keepEdgeSpace(escapeHeadingEnd(singleLine(el.children, el.name)));
      return '#'.repeat(Number(el.name[1])) + (text === '' ? '' : ` ${text}`);
    }
    case 'ul':
    case 'ol':
      return writeList(el, alternate);
    case 'pre': {
      const text = literalText(el);
      const fence = codeFence(text);
      return `${fence}\n${text}\n${fence}`;
    }
    // Inside a list item "---" could underline the text before it or merge with a "-" marker.
    case 'hr':
      return inItem ? '___' : '---';
    case 'blockquote': {
      const inner = writeBlocks(el).map((b) => b.markdown);
      return inner.length === 0 ? '>' : prefixLines(inner.join('\n\n'), '> ', '> ');
    }
    case 'table':
      return writeTable(el);
    // A block-level image is written as a paragraph holding the image.
    case 'img':
      return new InlineWriter(BLOCK_STYLE, true).write([el], 'p').finish();
    default:
      throw new MarkupError(`element <${el.name}> is not a block`, el.line, el.column);
  }
}

type ItemPart = { inline: MarkupNode[] } | { block: MarkupElement };

function isBlank(nodes: MarkupNode[]): boolean {
  return nodes.every((n) => typeof n === 'string' && XML_SPACE_ONLY.test(n));
}

/** Splits li content into runs of inline content and block children. */
function itemParts(li: MarkupElement): ItemPart[] {
  const parts: ItemPart[] = [];
  let run: MarkupNode[] = [];
  for (const child of li.children) {
    if (typeof child !== 'string') checkElement(child, 'li');
    if (typeof child === 'string' || INLINE_ELEMENTS.has(child.name)) {
      run.push(child);
      continue;
    }
    if (!isBlank(run)) parts.push({ inline: run });
    run = [];
    parts.push({ block: child });
  }
  if (!isBlank(run)) parts.push({ inline: run });
  return parts;
}

/** A list that cannot interrupt a paragraph: ordered from a number other than 1, or with an empty first item. */
function cannotInterruptParagraph(list: MarkupElement): boolean {
  if (list.name === 'ol' && Number(list.attrs.start ?? '1') !== 1) return true;
  const first = list.children.find((c): c is MarkupElement => typeof c !== 'string');
  return first === undefined || isBlank(first.children);
}

/**
 * Whether an item's content can only be written with blank lines between its parts
 * (making the whole list loose, so its text becomes paragraphs): it has paragraphs, or
 * a part that would otherwise merge into the one before it.
 */
function needsBlankLines(parts: ItemPart[]): boolean {
  return parts.some((part, i) => {
    if (!('block' in part)) return i > 0; // text after a block would continue that block
    const el = part.block;
    if (el.name === 'p') return true;
    const prev = parts[i - 1];
    if (prev === undefined) return false;
    const prevName = 'block' in prev ? prev.block.name : '#text';
    if (el.name === 'blockquote' && prevName === 'blockquote') return true;
    return isList(el) && cannotInterruptParagraph(el) && ['#text', 'ul', 'ol', 'blockquote'].includes(prevName);
  });
}

function writeItem(parts: ItemPart[], loose: boolean): string {
  const markers = new ListMarkers();
  const written: string[] = [];
  parts.forEach((part, i) => {
    if ('block' in part) {
      const markdown = writeBlock(part.block, true, markers.next(part.block));
      if (markdown !== null) written.push(markdown);
      return;
    }
    markers.next(undefined);
    const writer = new InlineWriter(BLOCK_STYLE, true).write(part.inline, 'li');
    if (loose) {
      const paragraph = trimSpaces(writer.finish());
      if (paragraph !== '') written.push(paragraph);
    } else if (i + 1 < parts.length) {
      // Only the first part can be text in a tight item (see needsBlankLines). Markdown ends it
      // before the block, trimmed: layout there goes, content stays as character references.
      written.push(keepLeadingSpace(keepTrailingSpace(writer.finishWithoutLayout({ start: false, end: true }))));
    } else {
      written.push(keepLeadingSpace(writer.finish()));
    }
  });
  return written.join(loose ? '\n\n' : '\n');
}

function writeList(el: MarkupElement, alternate: boolean): string {
  const items = elementChildren(el).map(itemParts);
  if (items.length === 0) throw new MarkupError(`<${el.name}> needs at least one <li>`, el.line, el.column);
  const loose = items.some(needsBlankLines);
  const marker =
    el.name === 'ul' ? (alternate ? '-' : '*') : `${Number(el.attrs.start ?? '1')}${alternate ? ')' : '.'}`;
  return items
    .map((parts) => {
      const body = writeItem(parts, loose);
      // Continuation lines must reach the column where the item's text starts.
      const indent = ' '.repeat(marker.length + 1 + (body.startsWith(' ') ? 1 : 0));
      return prefixLines(body, `${marker} `, indent);
    })
    .join(loose ? '\n\n' : '\n');
}

const DELIMITERS: Record<string, string> = { left: ':---', center: ':---:', right: '---:' };

function writeTable(el: MarkupElement): string {
  const rows = elementChildren(el).map((tr) => {
    const cells = elementChildren(tr);
    if (cells.length === 0) throw new MarkupError('<tr> needs at least one <td> or <th>', tr.line, tr.column);
    return cells;
  });
  const header = rows[0];
  if (header === undefined) throw new MarkupError('<table> needs at least one <tr>', el.line, el.column);
  // Markdown rows all have the header's width, so ragged rows are padded with empty cells.
  const width = Math.max(...rows.map((r) => r.length));
  const row = (cells: MarkupElement[]): string => {
    const texts = cells.map((c) => keepEdgeSpace(singleLine(c.children, c.name)).replace(/\|/g, '\\|'));
    while (texts.length < width) texts.push('');
    return `| ${texts.join(' | ')} |`;
  };
  // Alignment is per column in Markdown; the header row's cells give it.
  const delimiter = Array.from({ length: width }, (_, i) => DELIMITERS[header[i]?.attrs.align ?? ''] ?? '---');
  return [row(header), `| ${delimiter.join(' | ')} |`, ...rows.slice(1).map(row)].join('\n');
}
