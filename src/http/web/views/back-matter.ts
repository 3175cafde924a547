// The back-matter of any model: each resource with an anchor that `#uuid` links resolve to.
import { html, safeHref, type Html } from '../html.js';
import { anchor, isRecord, recordsOf, textOf } from './anchors.js';
import { markupLine, markupMultiline } from './markup.js';

export interface Resources {
  /** The title of the resource with this uuid, when the back-matter holds it. */
  titles: ReadonlyMap<string, string>;
}

export function resourcesOf(root: Record<string, unknown>): Resources {
  const backMatter = root['back-matter'];
  const titles = new Map<string, string>();
  for (const r of recordsOf(isRecord(backMatter) ? backMatter['resources'] : undefined)) {
    const uuid = textOf(r['uuid']);
    if (uuid !== undefined) titles.set(uuid, textOf(r['title']) ?? uuid);
  }
  return { titles };
}

/** A link to a document's href: this page's anchor, an outside link, or plain text when unsafe. */
export function hrefLink(href: string, text: Html | string, resolve: (href: string) => string | undefined): Html {
  const target = resolve(href) ?? safeHref(href);
  return target === undefined ? html`<span class="unsafe-link">${text}</span>` : html`<a href="${target}">${text}</a>`;
}

function resource(r: Record<string, unknown>): Html {
  const uuid = textOf(r['uuid']) ?? '';
  const citation = isRecord(r['citation']) ? r['citation']['text'] : undefined;
  const rlinks = recordsOf(r['rlinks']).map((l) => {
    const href = textOf(l['href']) ?? '';
    const target = safeHref(href);
    const type = textOf(l['media-type']);
    const shown = target === undefined ? html`${href}` : html`<a href="${target}">${href}</a>`;
    return html`<li>${shown}${type ? html` <span class="media-type">${type}</span>` : ''}</li>`;
  });
  return html`<li class="resource" id="${anchor('resource', uuid)}">
    <p class="resource-title">${markupLine(r['title'] ?? uuid)} <span class="uuid">${uuid}</span></p>
    ${r['description'] !== undefined ? markupMultiline(r['description']) : ''}
    ${citation !== undefined ? html`<p class="citation">${markupLine(citation)}</p>` : ''}
    ${
      rlinks.length > 0
        ? html`<ul class="rlinks">
            ${rlinks}
          </ul>`
        : ''
    }
  </li>`;
}

export function backMatterSection(root: Record<string, unknown>): Html | undefined {
  const backMatter = root['back-matter'];
  if (!isRecord(backMatter)) return undefined;
  const resources = recordsOf(backMatter['resources']);
  return html`<section class="back-matter" id="back-matter">
    <h2>Back matter</h2>
    <ol class="resources">
      ${resources.map(resource)}
    </ol>
  </section>`;
}
