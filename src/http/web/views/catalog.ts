// A catalog (or a resolved profile, which is one) as a page: the control tree beside the text,
// a filter over both, the back-matter at the end.
import { html, type Html } from '../html.js';
import { isRecord, propValue, recordsOf } from './anchors.js';
import { backMatterSection } from './back-matter.js';
import { catalogIndex, type CatalogIndex } from './catalog-index.js';
import { catalogTree, groupAnchor } from './catalog-tree.js';
import { controlArticles } from './control.js';
import { markupLine, markupMultiline } from './markup.js';
import { metadataSection } from './metadata.js';
import { rootPlace } from './field-types.js';
import { documentWalk } from './walk.js';
import { paramContext, ParamScope } from './params.js';

function groupSections(owner: Record<string, unknown>, scope: ParamScope, index: CatalogIndex, path: string): Html {
  const groups = recordsOf(owner['groups']).map((g, i) => {
    const own = scope.child(g['params']);
    const context = paramContext(own, 0, index.resolve);
    const label = propValue(g, 'label');
    const parts = recordsOf(g['parts']).map((p) => markupMultiline(p['prose'], context));
    return html`<section class="group" id="${groupAnchor(g, `${path}${i}`)}" data-group>
      <h2>${label ? html`<span class="control-label">${label}</span> ` : ''}${markupLine(g['title'], context)}</h2>
      ${parts}${groupSections(g, own, index, `${path}${i}.`)}
    </section> `;
  });
  return html`${groups}${recordsOf(owner['controls']).map((c) => controlArticles(c, scope, index))}`;
}

const FILTER = html`<div class="catalog-filter">
  <label for="catalog-filter">Filter controls</label>
  <input id="catalog-filter" type="search" autocomplete="off" spellcheck="false" placeholder="ac-2, AC-2(1) or words" />
  <p id="catalog-filter-count" class="filter-count" role="status" aria-live="polite"></p>
</div>`;

export function catalogView(content: Record<string, unknown>): Html {
  const catalog = isRecord(content['catalog']) ? content['catalog'] : {};
  const index = catalogIndex(catalog);
  const scope = new ParamScope(catalog['params']);
  const metadata = isRecord(catalog['metadata']) ? catalog['metadata'] : {};
  return html`<div class="oscal-document oscal-catalog">
    <h1>${markupLine(metadata['title'])}</h1>
    ${metadataSection(catalog, rootPlace('catalog', metadata['oscal-version']), documentWalk(catalog), false)} ${FILTER}
    <div class="catalog-layout">
      ${catalogTree(catalog)}
      <div class="catalog-text" id="catalog-text">${groupSections(catalog, scope, index, '')}</div>
    </div>
    ${backMatterSection(catalog) ?? ''}
  </div>`;
}
