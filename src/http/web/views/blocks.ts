// The building blocks of the generic view: any OSCAL object as readable HTML, guided by the
// bindings (field-types.ts). Scalars become a definition list, flat arrays of objects (props,
// links, roles) tables, other objects headed sections. It must render any valid document of any
// release, so it never assumes a property is there or has the expected shape.
import { html, safeHref, type Html } from '../html.js';
import { dataTable } from '../table.js';
import { anchor, humanise, isRecord, textOf } from './anchors.js';
import { childPlace, scalarType, type Place } from './field-types.js';
import { markupLine, markupMultiline, type MarkupContext } from './markup.js';

export interface Walk {
  /** "#uuid" links within the document as this page's anchors. */
  resolve: (href: string) => string | undefined;
  /** The title or name of each object with a uuid, shown beside references to it. */
  names: ReadonlyMap<string, string>;
}

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

export function scalar(value: Scalar, place: Place, key: string, walk: Walk): Html {
  if (value === null) return html``;
  const text = String(value);
  const context: MarkupContext = { resolveHref: walk.resolve };
  switch (scalarType(place, key)) {
    case 'markup-multiline':
      return markupMultiline(text, context);
    case 'markup-line':
      return markupLine(text, context);
    case 'uuid': {
      const name = key === 'uuid' ? undefined : walk.names.get(text);
      return html`${name ? html`${name} ` : ''}<span class="uuid">${text}</span>`;
    }
    case 'uri':
    case 'uri-reference': {
      const target = walk.resolve(text) ?? safeHref(text);
      return target === undefined ? html`${text}` : html`<a href="${target}">${text}</a>`;
    }
    case 'email-address': {
      const target = safeHref(`mailto:${text}`);
      return target === undefined ? html`${text}` : html`<a href="${target}">${text}</a>`;
    }
    case 'base64':
      // Attachments can be megabytes of base64: not worth a page.
      return html`<span class="base64">(base64, ${text.length} characters)</span>`;
    default:
      return html`${text}`;
  }
}

/** Objects whose every value is a scalar make a table when there are not too many columns. */
function tableColumns(items: readonly Record<string, unknown>[]): string[] | undefined {
  const columns: string[] = [];
  for (const item of items) {
    for (const [key, value] of Object.entries(item)) {
      if (!isScalar(value)) return undefined;
      if (!columns.includes(key)) columns.push(key);
    }
  }
  return columns.length <= 6 ? columns : undefined;
}

function table(items: readonly Record<string, unknown>[], columns: string[], place: Place, walk: Walk): Html {
  const rows = items.map(
    (item) =>
      html`<tr>
        ${columns.map((c) => html`<td>${c in item ? scalar(item[c] as Scalar, place, c, walk) : ''}</td>`)}
      </tr>`,
  );
  return dataTable(columns.map(humanise), rows);
}

// What names an item of a list best, by list: SSP requirements by control, by-components by component.
const ITEM_NAMES: Readonly<Record<string, readonly string[]>> = {
  'implemented-requirements': ['control-id'],
  'by-components': ['component-uuid'],
  'statements': ['statement-id'],
  'set-parameters': ['param-id'],
  'alters': ['control-id'],
};
const NAME_KEYS = ['title', 'name', 'control-id', 'id', 'statement-id', 'param-id', 'component-uuid', 'uuid'];

/** The heading of a list item, and the keys it shows so that the item's body leaves them out. */
function itemHeading(listKey: string, item: Record<string, unknown>, index: number, walk: Walk): [Html, string[]] {
  const uuid = textOf(item['uuid']);
  const small = uuid ? html` <span class="uuid">${uuid}</span>` : '';
  const shown = uuid ? ['uuid'] : [];
  for (const key of [...(ITEM_NAMES[listKey] ?? []), ...NAME_KEYS]) {
    const value = item[key];
    if (typeof value !== 'string' || key === 'uuid') continue;
    shown.push(key);
    if (key === 'title') return [html`${markupLine(value)}${small}`, shown];
    if (key.endsWith('uuid')) return [html`${walk.names.get(value) ?? ''} <span class="uuid">${value}</span>`, shown];
    const kind = { 'control-id': 'Control ', 'statement-id': 'Statement ', 'param-id': 'Parameter ' }[key] ?? '';
    return [html`${kind}${value}${small}`, shown];
  }
  return [html`${humanise(listKey)} ${index + 1}${small}`, shown];
}

function heading(depth: number, text: Html | string): Html {
  if (depth <= 2) return html`<h2>${text}</h2>`;
  if (depth === 3) return html`<h3>${text}</h3>`;
  if (depth === 4) return html`<h4>${text}</h4>`;
  if (depth === 5) return html`<h5>${text}</h5>`;
  if (depth === 6) return html`<h6>${text}</h6>`;
  return html`<p class="block-title">${text}</p>`;
}

/** A value under `key`: a scalar, a list, or an object, at heading depth `depth`. */
export function valueBlock(key: string, value: unknown, place: Place, walk: Walk, depth: number): Html {
  const inner = childPlace(place, key);
  if (Array.isArray(value)) {
    const records = value.filter(isRecord);
    if (records.length === 0) {
      const items = value.filter(isScalar).map((v) => scalar(v, place, key, walk));
      return html`${items.map((v, i) => (i === 0 ? v : html`, ${v}`))}`;
    }
    const columns = tableColumns(records);
    if (columns !== undefined) return table(records, columns, inner, walk);
    return html`<div class="block-list">
      ${records.map((item, i) => {
        const uuid = textOf(item['uuid']);
        const [title, shown] = itemHeading(key, item, i, walk);
        const rest = Object.fromEntries(Object.entries(item).filter(([k]) => !shown.includes(k)));
        return html`<section class="block" ${uuid ? html`id="${anchor('uuid', uuid)}"` : ''}>
          ${heading(depth, title)}${objectBody(rest, inner, walk, depth + 1)}
        </section>`;
      })}
    </div>`;
  }
  if (isRecord(value)) return objectBody(value, inner, walk, depth);
  return isScalar(value) ? scalar(value, place, key, walk) : html``;
}

/** An object's scalars and flat lists as a definition list, then its nested objects as sections. */
export function objectBody(object: Record<string, unknown>, place: Place, walk: Walk, depth: number): Html {
  const rows: Html[] = [];
  const sections: Html[] = [];
  for (const [key, value] of Object.entries(object)) {
    const nested =
      isRecord(value) || (Array.isArray(value) && value.some(isRecord) && !tableColumns(value.filter(isRecord)));
    if (nested) {
      sections.push(
        html`<section class="block">
          ${heading(depth, humanise(key))}${valueBlock(key, value, place, walk, depth + 1)}
        </section>`,
      );
    } else {
      rows.push(
        html`<dt>${humanise(key)}</dt>
          <dd>${valueBlock(key, value, place, walk, depth + 1)}</dd>`,
      );
    }
  }
  return html`${rows.length > 0 ? html`<dl class="fields">${rows}</dl>` : ''}${sections}`;
}
