// OSCAL markup (its JSON form, Markdown) as HTML. The project's markdown-it parser reads it (raw
// HTML off, so "<img>" stays text); this writer then emits only the elements it knows, with no
// attributes but a checked href and a list's start, so nothing in a document reaches the page as
// markup of its own: every text is escaped, every link target passes safeHref.
import type { Token } from 'markdown-it';
import { markdownParser } from '../../../oscal/markup/markdown-parser.js';
import { escapeHtml, Html, safeHref, trusted } from '../html.js';

export interface MarkupContext {
  /** HTML shown for `{{ insert: type, id }}`; the id in a marked span when absent or unknown. */
  insert?: (type: string, id: string) => Html | undefined;
  /** A link target within the document (such as "#ac-2") turned into this page's anchor. */
  resolveHref?: (href: string) => string | undefined;
}

const TAGS: Readonly<Record<string, string>> = {
  paragraph: 'p',
  bullet_list: 'ul',
  ordered_list: 'ol',
  list_item: 'li',
  blockquote: 'blockquote',
  table: 'table',
  thead: 'thead',
  tbody: 'tbody',
  tr: 'tr',
  th: 'th',
  td: 'td',
  em: 'em',
  strong: 'strong',
  sub: 'sub',
  sup: 'sup',
  q: 'q',
};

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export function linkTarget(href: string, context: MarkupContext): string | undefined {
  return context.resolveHref?.(href) ?? safeHref(href);
}

function attr(token: Token, name: string): string {
  return String(token.attrGet(name) ?? '');
}

function insertHtml(token: Token, context: MarkupContext): string {
  const type = attr(token, 'type');
  const id = attr(token, 'id-ref');
  const shown = context.insert?.(type, id);
  if (shown !== undefined) return shown.text;
  return `<span class="insert-unknown" title="${escapeHtml(type)}">${escapeHtml(id)}</span>`;
}

function renderTokens(tokens: readonly Token[], context: MarkupContext): string {
  let out = '';
  // Links whose target is unsafe are written as their text: their closing tags are skipped too.
  const dropped: boolean[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'inline':
        out += renderTokens(token.children ?? [], context);
        break;
      case 'text':
        out += escapeHtml(token.content);
        break;
      case 'code_inline':
        out += `<code>${escapeHtml(token.content)}</code>`;
        break;
      case 'code_block':
      case 'fence':
        out += `<pre><code>${escapeHtml(token.content)}</code></pre>`;
        break;
      case 'softbreak':
        out += '\n';
        break;
      case 'hardbreak':
        out += '<br>';
        break;
      case 'hr':
        out += '<hr>';
        break;
      case 'oscal_insert':
        out += insertHtml(token, context);
        break;
      case 'link_open': {
        const href = linkTarget(attr(token, 'href'), context);
        dropped.push(href === undefined);
        if (href !== undefined) out += `<a href="${escapeHtml(href)}">`;
        break;
      }
      case 'link_close':
        if (dropped.pop() === false) out += '</a>';
        break;
      case 'image': {
        // Not loaded: a document's image would fetch from anywhere; its text and target are shown.
        const alt = renderTokens(token.children ?? [], context);
        const src = safeHref(attr(token, 'src'));
        out += src === undefined ? alt : `<a class="markup-image" href="${escapeHtml(src)}">${alt || 'image'}</a>`;
        break;
      }
      default:
        out += element(token);
    }
  }
  return out;
}

/** The tag of a container token, attributes left out (markdown-it's table alignment is a style). */
function element(token: Token): string {
  const name = token.type.replace(/_(open|close)$/, '');
  const tag = HEADINGS.has(token.tag) ? token.tag : TAGS[name];
  if (tag === undefined) return escapeHtml(token.content);
  if (token.nesting === -1) return `</${tag}>`;
  const start = tag === 'ol' ? Number(token.attrGet('start')) : NaN;
  return Number.isInteger(start) && start !== 1 ? `<ol start="${start}">` : `<${tag}>`;
}

/** The general path: markdown-it's reading of the markup (a line or blocks), written as HTML. */
export function renderMarkdown(text: string, multiline: boolean, context: MarkupContext): Html {
  const parser = markdownParser();
  return trusted(renderTokens(multiline ? parser.parse(text, {}) : parser.parseInline(text, {}), context));
}

// Text with nothing Markdown would read differently is escaped directly, as most prose is: no
// inline syntax character, no line break, and (for blocks) no start that opens a list, heading or
// code. test/web-views.test.ts holds this equal to the general path.
const PLAIN_INLINE = /^[^\\`*_{}[\]<>&~^"|\n\r]*$/;
const PLAIN_BLOCK = /^(?![\s#>+\-=0-9])[^\\`*_{}[\]<>&~^"|\n\r\t]*$/;

export function markupLine(text: unknown, context: MarkupContext = {}): Html {
  if (typeof text !== 'string') return trusted('');
  if (PLAIN_INLINE.test(text)) return trusted(escapeHtml(text));
  return renderMarkdown(text, false, context);
}

export function markupMultiline(text: unknown, context: MarkupContext = {}): Html {
  if (typeof text !== 'string') return trusted('');
  if (text !== '' && PLAIN_BLOCK.test(text)) return trusted(`<p>${escapeHtml(text)}</p>`);
  return renderMarkdown(text, true, context);
}
