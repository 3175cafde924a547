// markdown-it token stream -> OSCAL markup tree, checked against the markup model so
// that Markdown with no OSCAL equivalent (a table in a list item, an insert in a link)
// is refused rather than written as invalid XML.
import type { Token } from 'markdown-it';
import { checkElement, checkText, MARKUP_LINE, MARKUP_MULTILINE } from './content-model.js';
import { MarkupError, type MarkupElement, type MarkupNode } from './types.js';

const CONTAINERS: Record<string, string> = {
  bullet_list_open: 'ul',
  ordered_list_open: 'ol',
  list_item_open: 'li',
  blockquote_open: 'blockquote',
  heading_open: '',
  table_open: 'table',
  tr_open: 'tr',
  th_open: 'th',
  td_open: 'td',
  em_open: 'em',
  strong_open: 'strong',
  sub_open: 'sub',
  sup_open: 'sup',
  q_open: 'q',
  link_open: 'a',
};

const NOT_XML_SPACE = /[^ \t\n\r]/;
/**
 * Markdown emphasis nests without a bound of markdown-it's; the XML written from it must stay
 * well within what the readers take (MAX_NESTING), document structure included.
 */
const MAX_MARKUP_NESTING = 100;

class TreeBuilder {
  readonly root: MarkupElement;
  private readonly stack: MarkupElement[];
  /** 1-based Markdown line of the block being read, for error messages. */
  line: number | undefined;

  constructor(multiline: boolean) {
    this.root = { name: multiline ? MARKUP_MULTILINE : MARKUP_LINE, attrs: {}, children: [] };
    this.stack = [this.root];
  }

  private get current(): MarkupElement {
    return this.stack[this.stack.length - 1] as MarkupElement;
  }

  add(name: string, attrs: Record<string, string> = {}): MarkupElement {
    const el: MarkupElement = { name, attrs, children: [] };
    if (this.line !== undefined) el.line = this.line;
    checkElement(el, this.current.name);
    this.current.children.push(el);
    return el;
  }

  open(name: string, attrs?: Record<string, string>): void {
    if (this.stack.length > MAX_MARKUP_NESTING)
      throw new MarkupError(
        `Markdown nested deeper than ${MAX_MARKUP_NESTING} levels (emphasis, lists, quotes) is not accepted`,
        this.line,
      );
    this.stack.push(this.add(name, attrs));
  }

  close(): void {
    this.stack.pop();
  }

  text(text: string): void {
    if (text === '') return;
    const parent = this.current;
    if (NOT_XML_SPACE.test(text)) checkText(text, parent.name, this.line);
    const last = parent.children.length - 1;
    if (typeof parent.children[last] === 'string') parent.children[last] += text;
    else parent.children.push(text);
  }
}

function attribute(token: Token, name: string): string | undefined {
  const value = token.attrGet(name);
  return value === null ? undefined : String(value);
}

function attributesOf(token: Token): Record<string, string> {
  const attrs: Record<string, string> = {};
  switch (token.type) {
    case 'ordered_list_open': {
      const start = attribute(token, 'start');
      if (start !== undefined) attrs.start = start;
      break;
    }
    case 'th_open':
    case 'td_open': {
      const align = /text-align:(left|center|right)/.exec(attribute(token, 'style') ?? '');
      if (align !== null) attrs.align = align[1] as string;
      break;
    }
    case 'link_open': {
      attrs.href = attribute(token, 'href') ?? '';
      const title = attribute(token, 'title');
      if (title) attrs.title = title;
      break;
    }
  }
  return attrs;
}

function plainTextOf(tokens: Token[] | null): string {
  return (tokens ?? [])
    .map((t) =>
      t.children ? plainTextOf(t.children) : t.type === 'softbreak' || t.type === 'hardbreak' ? '\n' : t.content,
    )
    .join('');
}

function readTokens(tokens: Token[], tree: TreeBuilder): void {
  for (const token of tokens) {
    if (token.map) tree.line = token.map[0] + 1;
    const container = CONTAINERS[token.type];
    if (container !== undefined) {
      tree.open(container || token.tag, attributesOf(token));
      continue;
    }
    switch (token.type) {
      case 'paragraph_open':
        // A tight list hides its paragraphs: the item holds the text directly.
        if (!token.hidden) tree.open('p');
        break;
      case 'paragraph_close':
        if (!token.hidden) tree.close();
        break;
      case 'inline':
        readTokens(token.children ?? [], tree);
        break;
      case 'text':
      case 'text_special':
        tree.text(token.content);
        break;
      case 'softbreak':
        tree.text('\n');
        break;
      case 'hardbreak':
        tree.add('br');
        break;
      case 'code_inline':
        tree.add('code').children.push(token.content);
        break;
      case 'fence':
      case 'code_block': {
        // The block's text ends with the newline before the closing fence, which is not content.
        const text = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
        const pre = tree.add('pre');
        if (text !== '') pre.children.push(text);
        break;
      }
      case 'hr':
        tree.add('hr');
        break;
      case 'image': {
        const attrs: Record<string, string> = {};
        const alt = plainTextOf(token.children);
        if (alt !== '') attrs.alt = alt;
        attrs.src = attribute(token, 'src') ?? '';
        const title = attribute(token, 'title');
        if (title) attrs.title = title;
        tree.add('img', attrs);
        break;
      }
      case 'oscal_insert':
        tree.add('insert', { type: attribute(token, 'type') ?? '', 'id-ref': attribute(token, 'id-ref') ?? '' });
        break;
      case 'thead_open':
      case 'thead_close':
      case 'tbody_open':
      case 'tbody_close':
        break;
      default:
        if (token.nesting === -1) tree.close();
        else throw new MarkupError(`Markdown construct "${token.type}" has no equivalent in OSCAL markup`, tree.line);
    }
  }
}

/** The markup tree for markdown-it's tokens of one markup value. */
export function tokensToMarkup(tokens: Token[], multiline: boolean): MarkupNode[] {
  const tree = new TreeBuilder(multiline);
  readTokens(tokens, tree);
  return tree.root.children;
}
