// Writes inline markup (the content of a paragraph, heading, cell, list item or
// markup-line value) as one string of Markdown, lines separated by "\n" only where a
// hard break was written.
import { checkElement } from './content-model.js';
import {
  codeSpan,
  escapeInline,
  escapeLineStart,
  escapeScript,
  isFlankingLetter,
  linkDestination,
  linkTitle,
} from './markdown-escape.js';
import { MarkupError, type MarkupElement, type MarkupNode } from './types.js';

export interface InlineStyle {
  /** Inside link text or image alt, where brackets must be escaped. */
  label: boolean;
  /** Whether <br> becomes a hard break; where Markdown has no line breaks (headings, cells) it becomes a space. */
  hardBreaks: boolean;
  /** Whether a new line could start a block (multiline content), so its first characters need escaping. */
  blockLines: boolean;
}

const EMPHASIS = new Set(['em', 'i', 'strong', 'b']);

function significantChildren(nodes: MarkupNode[]): MarkupNode[] {
  return nodes.filter((n) => typeof n !== 'string' || /[^ \t\n\r]/.test(n));
}

/** The text of code or pre content, where Markdown is literal: formatting is dropped, but content that would be lost is refused. */
export function literalText(el: MarkupElement): string {
  let text = '';
  for (const child of el.children) {
    if (typeof child === 'string') {
      text += child;
      continue;
    }
    checkElement(child, el.name);
    switch (child.name) {
      case 'br':
        text += el.name === 'pre' ? '\n' : ' ';
        break;
      case 'q':
        text += `"${literalText(child)}"`;
        break;
      case 'a':
      case 'insert':
      case 'img':
        throw new MarkupError(
          `<${child.name}> inside <${el.name}> cannot be expressed in Markdown, where ${el.name} content is literal text; move it out of the <${el.name}>`,
          child.line ?? el.line,
          child.column ?? el.column,
        );
      default:
        text += literalText(child);
    }
  }
  return text;
}

/** A line break in XML text with the spaces and tabs around it: layout, not content (see text()). */
const LINE_BREAK_RUN = /[ \t]*[\r\n][ \t\r\n]*/;
const LINE_BREAK_RUN_GLOBAL = new RegExp(LINE_BREAK_RUN.source, 'g');
const INDENTED = /[\r\n][ \t]+$/;
const LEADING_SPACE = /^[ \t]+/;
const TRAILING_SPACE = /[ \t]+$/;

export class InlineWriter {
  out = '';
  private breakPending = false;
  /** A line break of the XML text, written as a soft break once more content follows. */
  private softBreakPending = false;
  /** Whether the whitespace at the start, or at the end, of what was written is layout rather than content. */
  private leadingLayout = false;
  private trailingLayout = false;
  private atLineStart: boolean;
  /** Set on the writer of an em/strong's content, for the choice of em delimiter. */
  private parentIsEmphasis = false;
  /** Whether an enclosing emphasis (in the same link text, if any) was opened with '*'. */
  private inStarEmphasis = false;
  /** Emphasis just written whose closing delimiter fails if a letter follows (see emphasis()). */
  private unclosable: { at: number; content: string } | undefined;

  constructor(
    private readonly style: InlineStyle,
    atLineStart: boolean,
  ) {
    this.atLineStart = atLineStart;
  }

  /** Writes `nodes`, the children of `context` (an element name or markup root), checking each against the model. */
  write(nodes: MarkupNode[], context: string): this {
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as MarkupNode;
      if (typeof node === 'string') {
        let text = node;
        // Parsers may split text (e.g. around entities); escaping looks at neighbours, so join it.
        while (typeof nodes[i + 1] === 'string') text += nodes[++i] as string;
        this.text(text);
      } else {
        checkElement(node, context);
        this.element(node, nodes);
      }
    }
    return this;
  }

  /** The Markdown written; a break with nothing after it has no Markdown form and is dropped. */
  finish(): string {
    let out = this.written();
    while (out.endsWith('\\\n')) out = out.slice(0, -2);
    return out;
  }

  /** finish(), less a space at the start and/or the end that stands for the XML's layout, not for content. */
  finishWithoutLayout(edges: { start: boolean; end: boolean }): string {
    let out = this.finish();
    if (edges.start && this.leadingLayout) out = out.replace(/^ /, '');
    if (edges.end && (this.trailingLayout || this.softBreakPending)) out = out.replace(/ $/, '');
    return out;
  }

  /** What was written, a line break at the end counting as the space it renders as. */
  private written(): string {
    return this.softBreakPending ? `${this.out} ` : this.out;
  }

  /**
   * Spaces and tabs are content and kept as they are. A line break followed by indentation is
   * the layout of a pretty-printer or an editor, one space as NIST's converter writes it. A line
   * break alone is a line of the text: a soft break inside a block's text (Markdown's own line
   * break, which cannot hold the spaces around it), one space where Markdown has a single line
   * (markup-line, headings, cells) and at the edges of a block.
   */
  private text(raw: string): void {
    let at = 0;
    for (const run of raw.matchAll(LINE_BREAK_RUN_GLOBAL)) {
      this.words(raw.slice(at, run.index));
      if (INDENTED.test(run[0])) this.layoutSpace();
      else this.lineBreak();
      at = run.index + run[0].length;
    }
    this.words(raw.slice(at));
  }

  private lineBreak(): void {
    if (this.breakPending || this.softBreakPending) return;
    if (this.style.blockLines && this.out !== '') this.softBreakPending = true;
    else this.layoutSpace();
  }

  /** Layout stands for a space where there is no whitespace already. */
  private layoutSpace(): void {
    if (this.out === '') this.leadingLayout = true;
    this.trailingLayout = true;
    if (!this.breakPending && !this.softBreakPending && !/[ \t]$/.test(this.out)) this.out += ' ';
  }

  private words(raw: string): void {
    // Markdown drops whitespace at the start of a line, so after a break it is layout.
    const text = this.breakPending || this.softBreakPending ? raw.replace(LEADING_SPACE, '') : raw;
    if (text === '') return;
    this.trailingLayout = false;
    this.flushBreak();
    this.followEmphasis(text[0]);
    const before = this.atLineStart ? undefined : this.out[this.out.length - 1];
    let escaped = escapeInline(text, { inLabel: this.style.label, before, inStarEmphasis: this.inStarEmphasis });
    if (this.atLineStart && this.style.blockLines) escaped = escapeLineStart(escaped);
    this.out += escaped;
    this.atLineStart = false;
  }

  private put(markdown: string): void {
    this.trailingLayout = false;
    this.flushBreak();
    this.followEmphasis(markdown[0]);
    this.out += markdown;
    this.atLineStart = false;
  }

  private space(): void {
    this.unclosable = undefined;
    if (!this.breakPending && !this.softBreakPending && !this.out.endsWith(' ')) this.out += ' ';
  }

  /** Whitespace moved out of an emphasis, kept as it was. */
  private whitespace(ws: string): void {
    if (ws === '' || this.breakPending || this.softBreakPending) return;
    this.unclosable = undefined;
    this.trailingLayout = false;
    this.out += ws;
  }

  /** A letter right after "*…(x)*" keeps that '*' from closing: the emphasis is written as plain text instead. */
  private followEmphasis(next: string | undefined): void {
    if (this.unclosable !== undefined && isFlankingLetter(next))
      this.out = this.out.slice(0, this.unclosable.at) + this.unclosable.content;
    this.unclosable = undefined;
  }

  private flushBreak(): void {
    if (!this.breakPending && !this.softBreakPending) return;
    // Spaces before a break are insignificant and would otherwise change how it parses (two make a hard break).
    this.out = this.out.replace(TRAILING_SPACE, '') + (this.breakPending ? '\\\n' : '\n');
    this.breakPending = false;
    this.softBreakPending = false;
    this.unclosable = undefined;
    this.atLineStart = true;
  }

  private element(el: MarkupElement, siblings: MarkupNode[]): void {
    switch (el.name) {
      case 'em':
      case 'i':
        this.emphasis(el, this.emDelimiter(siblings));
        break;
      case 'strong':
      case 'b':
        this.emphasis(el, '**');
        break;
      case 'q':
        this.emphasis(el, '"');
        break;
      case 'code': {
        // CommonMark reads a line ending in a code span as a space.
        const content = literalText(el).replace(LINE_BREAK_RUN_GLOBAL, ' ');
        if (content !== '') this.put(codeSpan(content));
        break;
      }
      case 'sub':
      case 'sup':
        this.script(el, el.name === 'sub' ? '~' : '^');
        break;
      case 'a':
        this.link(el);
        break;
      case 'img':
        this.image(el);
        break;
      case 'insert':
        this.put(`{{ insert: ${el.attrs.type}, ${el.attrs['id-ref']} }}`);
        break;
      case 'br':
        if (!this.style.hardBreaks) this.space();
        else {
          // A line break of the text just before the <br/> is the same break.
          if (this.softBreakPending) this.softBreakPending = false;
          else this.flushBreak();
          this.breakPending = true;
        }
        break;
    }
  }

  /**
   * '*' except for em that is the whole content of another emphasis: "***x***" reads as
   * <em><strong>, so <strong><em>x</em></strong> needs "**_x_**", and <em><em> "*_x_*".
   */
  private emDelimiter(siblings: MarkupNode[]): string {
    return this.parentIsEmphasis && significantChildren(siblings).length === 1 ? '_' : '*';
  }

  private emphasis(el: MarkupElement, delimiter: string): void {
    const inner = new InlineWriter(this.style, false);
    inner.parentIsEmphasis = EMPHASIS.has(el.name);
    inner.inStarEmphasis = this.inStarEmphasis || delimiter.startsWith('*');
    inner.write(el.children, el.name);
    let content = inner.written();
    // Delimiters next to whitespace do not open or close, so edge whitespace moves outside.
    const lead = LEADING_SPACE.exec(content)?.[0] ?? '';
    content = content.slice(lead.length);
    const trail = TRAILING_SPACE.exec(content)?.[0] ?? '';
    content = content.slice(0, content.length - trail.length);
    if (lead === ' ' && inner.leadingLayout) this.layoutSpace();
    else this.whitespace(lead);
    if (content !== '') {
      // '*' after a letter cannot open before punctuation, nor close after punctuation before a
      // letter (x*(y)*z); CommonMark has no other way to write that emphasis, so it is dropped
      // rather than leaving stray asterisks. Quotes use rules of their own that allow it.
      if (delimiter !== '"' && isFlankingLetter(this.out[this.out.length - 1]) && !isFlankingLetter(content[0]))
        this.put(content);
      else {
        this.put(delimiter + content + delimiter);
        if (delimiter !== '"' && !isFlankingLetter(content[content.length - 1])) {
          this.unclosable = { at: this.out.length - content.length - 2 * delimiter.length, content };
        }
      }
    }
    if (trail === ' ' && (inner.trailingLayout || inner.softBreakPending)) this.layoutSpace();
    else this.whitespace(trail);
    if (inner.breakPending) {
      this.flushBreak();
      this.breakPending = true;
    }
  }

  private script(el: MarkupElement, marker: string): void {
    let text = '';
    for (const child of el.children) {
      if (typeof child !== 'string') {
        checkElement(child, el.name);
        throw new MarkupError(
          `<${el.name}> can only hold text in Markdown (${marker}text${marker}); move the <${child.name}> out of it`,
          child.line ?? el.line,
          child.column ?? el.column,
        );
      }
      text += child;
    }
    text = text.replace(LINE_BREAK_RUN_GLOBAL, ' ');
    if (text !== '') this.put(marker + escapeScript(text) + marker);
  }

  private destination(el: MarkupElement, attr: 'href' | 'src'): string {
    const dest = linkDestination(el.attrs[attr] as string);
    if (dest === null)
      throw new MarkupError(
        `<${el.name} ${attr}> contains a line break, which Markdown cannot hold`,
        el.line,
        el.column,
      );
    const title = el.attrs.title;
    return title === undefined || title === ''
      ? dest
      : `${dest} ${linkTitle(title.replace(LINE_BREAK_RUN_GLOBAL, ' '))}`;
  }

  private link(el: MarkupElement): void {
    const text = new InlineWriter({ ...this.style, label: true }, false).write(el.children, 'a').finish();
    this.put(`[${text}](${this.destination(el, 'href')})`);
  }

  private image(el: MarkupElement): void {
    const alt = (el.attrs.alt ?? '').replace(/[\t\n\r]/g, ' ');
    const escaped = escapeInline(alt, { inLabel: true, before: undefined, inStarEmphasis: false });
    this.put(`![${escaped}](${this.destination(el, 'src')})`);
  }
}
