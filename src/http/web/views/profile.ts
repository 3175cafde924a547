// A profile: what it imports (and which controls), how it merges, and how it modifies them
// (set-parameters as a table, alters as adds and removes); anything else through the generic blocks.
import { html, type Html } from '../html.js';
import { dataTable } from '../table.js';
import { humanise, isRecord, recordsOf, textOf } from './anchors.js';
import { backMatterSection, hrefLink } from './back-matter.js';
import { objectBody, valueBlock, type Walk } from './blocks.js';
import { childPlace, rootPlace, type Place } from './field-types.js';
import { markupLine } from './markup.js';
import { metadataSection } from './metadata.js';
import { documentWalk } from './walk.js';

function list(values: unknown): Html {
  const items = (Array.isArray(values) ? values : []).filter((v) => typeof v === 'string');
  return html`${items.map((v, i) => (i === 0 ? html`<code>${v}</code>` : html`, <code>${v}</code>`))}`;
}

function selection(selectors: unknown): Html {
  return html`<ul>
    ${recordsOf(selectors).map((s) => {
      const patterns = recordsOf(s['matching']).map((m) => textOf(m['pattern']) ?? '');
      const children = textOf(s['with-child-controls']);
      return html`<li>
        ${s['with-ids'] !== undefined ? html`Controls ${list(s['with-ids'])}` : ''}${
          patterns.length > 0 ? html` Matching ${list(patterns)}` : ''
        }${children ? html` (with child controls: ${children})` : ''}
      </li>`;
    })}
  </ul>`;
}

function importBlock(item: Record<string, unknown>, walk: Walk): Html {
  const href = textOf(item['href']) ?? '';
  const name = href.startsWith('#') ? (walk.names.get(href.slice(1)) ?? href) : href;
  return html`<section class="block">
    <h3>Import ${hrefLink(href, name, walk.resolve)}</h3>
    ${item['include-all'] !== undefined ? html`<p>Includes all controls.</p>` : ''}${
      item['include-controls'] !== undefined
        ? html`<p>Includes:</p>
            ${selection(item['include-controls'])}`
        : ''
    }${
      item['exclude-controls'] !== undefined
        ? html`<p>Excludes:</p>
            ${selection(item['exclude-controls'])}`
        : ''
    }
  </section>`;
}

function setParameters(items: Record<string, unknown>[]): Html {
  const rows = items.map((p) => {
    const select = isRecord(p['select']) ? p['select'] : undefined;
    const choices: unknown[] = select && Array.isArray(select['choice']) ? select['choice'] : [];
    const values = Array.isArray(p['values']) ? p['values'].join(', ') : '';
    return html`<tr>
      <td><code>${textOf(p['param-id']) ?? ''}</code></td>
      <td>${values}</td>
      <td>
        ${
          select ? html`${select['how-many'] === 'one-or-more' ? 'One or more of: ' : 'One of: '}` : ''
        }${choices.map((c, i) => (i === 0 ? markupLine(c) : html`; ${markupLine(c)}`))}
      </td>
      <td>${markupLine(p['label'])}</td>
    </tr>`;
  });
  return dataTable(['Parameter', 'Values', 'Selection', 'Label'], rows);
}

function alter(item: Record<string, unknown>, place: Place, walk: Walk): Html {
  const removes = recordsOf(item['removes']).map(
    (r) => html`<li>Remove ${Object.entries(r).map(([k, v]) => html`${humanise(k)} <code>${String(v)}</code> `)}</li>`,
  );
  const adds = recordsOf(item['adds']).map((a) => {
    const { position, 'by-id': byId, ...content } = a;
    const of = byId ? html` of <code>${String(byId)}</code>` : '';
    const where = html`${typeof position === 'string' ? position : 'ending'}${of}`;
    return html`<li>
      Add at ${where}${objectBody(content, childPlace(childPlace(place, 'alters'), 'adds'), walk, 5)}
    </li>`;
  });
  return html`<section class="block">
    <h4>Control <code>${textOf(item['control-id']) ?? ''}</code></h4>
    <ul>
      ${removes}${adds}
    </ul>
  </section>`;
}

function modifySection(modify: Record<string, unknown>, place: Place, walk: Walk): Html {
  const parameters = recordsOf(modify['set-parameters']);
  const alters = recordsOf(modify['alters']);
  return html`<section class="document-section" id="section-modify">
    <h2>Modify</h2>
    ${
      parameters.length > 0
        ? html`<h3>Parameters set</h3>
            ${setParameters(parameters)}`
        : ''
    }${
      alters.length > 0
        ? html`<h3>Alterations</h3>
            ${alters.map((a) => alter(a, place, walk))}`
        : ''
    }
  </section>`;
}

const OWN = new Set(['uuid', 'metadata', 'imports', 'modify', 'back-matter']);

export function profileView(content: Record<string, unknown>): Html {
  const profile = isRecord(content['profile']) ? content['profile'] : {};
  const metadata = isRecord(profile['metadata']) ? profile['metadata'] : {};
  const place = rootPlace('profile', metadata['oscal-version']);
  const walk = documentWalk(profile);
  const others = Object.entries(profile)
    .filter(([key]) => !OWN.has(key))
    .map(
      ([key, value]) =>
        html`<section class="document-section">
          <h2>${humanise(key)}</h2>
          ${valueBlock(key, value, place, walk, 3)}
        </section>`,
    );
  const modify = profile['modify'];
  return html`<div class="oscal-document oscal-profile">
    <h1>${markupLine(metadata['title'])}</h1>
    ${metadataSection(profile, place, walk)}
    <section class="document-section" id="section-imports">
      <h2>Imports</h2>
      ${recordsOf(profile['imports']).map((i) => importBlock(i, walk))}
    </section>
    ${others} ${isRecord(modify) ? modifySection(modify, childPlace(place, 'modify'), walk) : ''}
    ${backMatterSection(profile) ?? ''}
  </div>`;
}
