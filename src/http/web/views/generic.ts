// Every model without a view of its own: metadata, then each top-level section as blocks, then
// the back-matter.
import { html, type Html } from '../html.js';
import { humanise, isRecord } from './anchors.js';
import { backMatterSection } from './back-matter.js';
import { valueBlock } from './blocks.js';
import { rootPlace } from './field-types.js';
import { markupLine } from './markup.js';
import { metadataSection } from './metadata.js';
import { documentWalk } from './walk.js';

const NOT_SECTIONS = new Set(['uuid', 'metadata', 'back-matter']);

export function genericView(rootKey: string, content: Record<string, unknown>): Html {
  const root = isRecord(content[rootKey]) ? content[rootKey] : {};
  const metadata = isRecord(root['metadata']) ? root['metadata'] : {};
  const place = rootPlace(rootKey, metadata['oscal-version']);
  const walk = documentWalk(root);
  const sections = Object.entries(root)
    .filter(([key]) => !NOT_SECTIONS.has(key))
    .map(
      ([key, value]) =>
        html`<section class="document-section" id="section-${key.replace(/[^a-z0-9-]/g, '_')}">
          <h2>${humanise(key)}</h2>
          ${valueBlock(key, value, place, walk, 3)}
        </section>`,
    );
  return html`<div class="oscal-document oscal-${rootKey.replace(/[^a-z-]/g, '_')}">
    <h1>${markupLine(metadata['title'])}</h1>
    ${metadataSection(root, place, walk)} ${sections} ${backMatterSection(root) ?? ''}
  </div>`;
}
