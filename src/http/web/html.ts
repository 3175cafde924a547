/**
 * HTML made on the server from tagged templates: every interpolated value is escaped unless it is
 * already Html, so document content (titles, props, file names) can only ever be text. Html is
 * made only by this template, by `trusted` (for HTML this code wrote, such as the output of the
 * markup renderer), and by joining Html.
 */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A value in a template: Html as it is, a list item by item, nothing for null, undefined and false. */
type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** HTML this code produced itself and has already made safe; never document content. */
export function trusted(text: string): Html {
  return new Html(text);
}

/**
 * A link target from a document, or undefined when it could run script or load something that
 * is not a page: only http, https and mailto URLs, and references within this site.
 */
export function safeHref(href: unknown): string | undefined {
  if (typeof href !== 'string') return undefined;
  // Browsers drop tabs and line breaks inside a URL and ignore leading controls and spaces, so
  // "java\nscript:" is a script URL: judge the URL as a browser will read it.
  const trimmed = href
    .replace(/[\t\n\r]/g, '')
    .replace(/^[\u0000-\u0020]+/, '')
    .trimEnd();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  // No scheme at all (a path, a fragment, a query): stays on this site.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !trimmed.startsWith('//')) return trimmed;
  return undefined;
}
