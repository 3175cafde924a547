// The navigation tree of a catalog: groups, controls and their enhancements as nested lists, each
// entry marked with data- attributes that catalog-filter.js matches against.
import { html, type Html } from '../html.js';
import { anchor, propValue, recordsOf, textOf } from './anchors.js';
import { markupLine } from './markup.js';

function controlEntry(control: Record<string, unknown>): Html {
  const id = textOf(control['id']) ?? '';
  const children = recordsOf(control['controls']);
  return html`<li data-control="${id}">
    <a href="#${anchor('control', id)}"
      ><span class="control-label">${propValue(control, 'label') ?? id}</span> ${markupLine(control['title'])}</a
    >${
      children.length > 0
        ? html`<ul>
            ${children.map(controlEntry)}
          </ul>`
        : ''
    }
  </li>`;
}

/** The anchor of a group's section; a group without an id is numbered by its place. */
export function groupAnchor(group: Record<string, unknown>, path: string): string {
  return anchor('group', textOf(group['id']) ?? path);
}

function entries(owner: Record<string, unknown>, path: string): Html {
  const groups = recordsOf(owner['groups']).map((g, i) => {
    const label = propValue(g, 'label');
    return html`<li class="tree-group" data-group>
      <a href="#${groupAnchor(g, `${path}${i}`)}"
        >${label ? html`<span class="control-label">${label}</span> ` : ''}${markupLine(g['title'])}</a
      >
      <ul>
        ${entries(g, `${path}${i}.`)}
      </ul>
    </li>`;
  });
  return html`${groups}${recordsOf(owner['controls']).map(controlEntry)}`;
}

export function catalogTree(catalog: Record<string, unknown>): Html {
  return html`<nav class="catalog-tree" id="catalog-tree" aria-label="Controls">
    <ul>
      ${entries(catalog, '')}
    </ul>
  </nav>`;
}
