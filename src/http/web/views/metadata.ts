// The metadata of any model: the facts a reader looks for first (version, dates, roles, parties
// and who is responsible for what), then whatever else it holds through the generic blocks.
import { html, type Html } from '../html.js';
import { isRecord, recordsOf, textOf } from './anchors.js';
import { objectBody, scalar, type Walk } from './blocks.js';
import { childPlace, type Place } from './field-types.js';

const FACTS: readonly [string, string][] = [
  ['version', 'Version'],
  ['oscal-version', 'OSCAL version'],
  ['published', 'Published'],
  ['last-modified', 'Last modified'],
];
const SHOWN = new Set(['title', 'roles', 'parties', 'responsible-parties', ...FACTS.map(([key]) => key)]);

function party(p: Record<string, unknown>, place: Place, walk: Walk): Html {
  const emails = (Array.isArray(p['email-addresses']) ? p['email-addresses'] : []).filter((e) => typeof e === 'string');
  return html`<li>
    <strong>${textOf(p['name']) ?? ''}</strong>${p['type'] ? html` (${String(p['type'])})` : ''}${emails.map(
      (e) => html` ${scalar(e, place, 'email-addresses', walk)}`,
    )}
    ${scalar(textOf(p['uuid']) ?? '', place, 'uuid', walk)}
  </li>`;
}

function responsible(r: Record<string, unknown>, walk: Walk): Html {
  const parties = (Array.isArray(r['party-uuids']) ? r['party-uuids'] : []).map((u) => walk.names.get(String(u)) ?? u);
  return html`<dt>${textOf(r['role-id']) ?? ''}</dt>
    <dd>${parties.join(', ')}</dd>`;
}

/** Open on pages where metadata is the content; a catalog closes it so that its controls come first. */
export function metadataSection(root: Record<string, unknown>, rootPlace: Place, walk: Walk, open = true): Html {
  const metadata = isRecord(root['metadata']) ? root['metadata'] : {};
  const place = childPlace(rootPlace, 'metadata');
  const facts = FACTS.filter(([key]) => metadata[key] !== undefined).map(
    ([key, name]) =>
      html`<dt>${name}</dt>
        <dd>${String(metadata[key])}</dd>`,
  );
  const roles = recordsOf(metadata['roles']).map(
    (r) =>
      html`<dt>${textOf(r['id']) ?? ''}</dt>
        <dd>${scalar(textOf(r['title']) ?? '', childPlace(place, 'roles'), 'title', walk)}</dd>`,
  );
  const parties = recordsOf(metadata['parties']).map((p) => party(p, childPlace(place, 'parties'), walk));
  const responsibles = recordsOf(metadata['responsible-parties']).map((r) => responsible(r, walk));
  const rest = Object.fromEntries(Object.entries(metadata).filter(([key]) => !SHOWN.has(key)));
  return html`<details class="metadata" id="metadata" ${open ? 'open' : ''}>
    <summary>Metadata</summary>
    <dl class="fields">
      ${facts}${
        textOf(root['uuid'])
          ? html`<dt>UUID</dt>
              <dd><span class="uuid">${String(root['uuid'])}</span></dd>`
          : ''
      }
    </dl>
    ${
      roles.length > 0
        ? html`<h3>Roles</h3>
            <dl class="fields">${roles}</dl>`
        : ''
    }
    ${
      parties.length > 0
        ? html`<h3>Parties</h3>
            <ul class="parties">
              ${parties}
            </ul>`
        : ''
    }
    ${
      responsibles.length > 0
        ? html`<h3>Responsible parties</h3>
            <dl class="fields">${responsibles}</dl>`
        : ''
    }
    ${objectBody(rest, place, walk, 3)}
  </details>`;
}
