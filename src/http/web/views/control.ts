// One control of a catalog as an <article>: its statement with labels and parameters inline, its
// other parts titled, its links to related controls and references. Enhancements (controls within
// controls) follow as articles of their own, so that the filter can hide each one alone.
import { html, type Html } from '../html.js';
import { anchor, humanise, propValue, recordsOf, textOf } from './anchors.js';
import { hrefLink } from './back-matter.js';
import type { CatalogIndex } from './catalog-index.js';
import { markupLine, markupMultiline, type MarkupContext } from './markup.js';
import { paramContext, type ParamScope } from './params.js';

function part(p: Record<string, unknown>, context: MarkupContext, depth: number): Html {
  const name = textOf(p['name']) ?? 'part';
  const id = textOf(p['id']);
  const label = propValue(p, 'label');
  const title = p['title'] !== undefined ? markupLine(p['title'], context) : undefined;
  const body = html`${p['prose'] !== undefined ? markupMultiline(p['prose'], context) : ''}${recordsOf(p['parts']).map(
    (child) => part(child, context, depth + 1),
  )}`;
  const cls = `part part-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const idAttr = id === undefined ? '' : html`id="${anchor('part', id)}"`;
  if (label !== undefined) {
    return html`<div class="${cls} labelled" ${idAttr}>
      <span class="part-label">${label}</span>
      <div class="part-body">${title ? html`<p class="part-title">${title}</p>` : ''}${body}</div>
    </div>`;
  }
  if (name === 'statement' || name === 'item') return html`<div class="${cls}" ${idAttr}>${body}</div>`;
  const heading = title ?? humanise(name);
  const headed = depth === 0 ? html`<h4>${heading}</h4>` : html`<p class="part-title">${heading}</p>`;
  return html`<section class="${cls}" ${idAttr}>${headed}${body}</section>`;
}

const REL_NAMES: Readonly<Record<string, string>> = {
  reference: 'References',
  related: 'Related controls',
  required: 'Required controls',
};

function linksOf(control: Record<string, unknown>, index: CatalogIndex): Html {
  const byRel = new Map<string, Html[]>();
  for (const link of recordsOf(control['links'])) {
    const href = textOf(link['href']) ?? '';
    const rel = textOf(link['rel']) ?? 'link';
    const target = href.slice(1);
    const named = index.controls.get(target)?.label ?? index.resources.titles.get(target) ?? href;
    const text = link['text'] !== undefined ? markupLine(link['text']) : named;
    byRel.set(rel, [...(byRel.get(rel) ?? []), hrefLink(href, text, index.resolve)]);
  }
  if (byRel.size === 0) return html``;
  const rows = [...byRel].map(([rel, links]) => {
    const items = links.map((l, i) => (i === 0 ? l : html`, ${l}`));
    return html`<dt>${REL_NAMES[rel] ?? humanise(rel)}</dt>
      <dd>${items}</dd>`;
  });
  return html`<dl class="control-links">${rows}</dl>`;
}

export function controlArticles(control: Record<string, unknown>, scope: ParamScope, index: CatalogIndex): Html {
  const id = textOf(control['id']) ?? '';
  const own = scope.child(control['params']);
  const context = paramContext(own, 0, index.resolve);
  const withdrawn = propValue(control, 'status') === 'withdrawn';
  const label = index.controls.get(id)?.label ?? id;
  const article = html`<article
    class="control${withdrawn ? ' withdrawn' : ''}"
    id="${anchor('control', id)}"
    data-control="${id}"
  >
    <h3>
      <span class="control-label">${label}</span> ${markupLine(control['title'], context)}${
        withdrawn ? html` <span class="badge">Withdrawn</span>` : ''
      }
    </h3>
    ${recordsOf(control['parts']).map((p) => part(p, context, 0))}${linksOf(control, index)}
  </article> `;
  return html`${article}${recordsOf(control['controls']).map((c) => controlArticles(c, own, index))}`;
}
