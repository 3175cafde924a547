import type { Rights } from '../../auth/policy.js';
import type { ModelName } from '../../oscal/model/models.js';
import { html, type Html } from './html.js';
import { MODEL_LABELS } from './layout.js';
import { markupLine } from './views/markup.js';

/** The pages of one document; each is offered only to those its rule lets in, as the API decides. */
export type DocumentTab =
  'document' | 'resolved' | 'versions' | 'diff' | 'snapshots' | 'attachments' | 'sharing' | 'upload';

const TABS: readonly { tab: DocumentTab; label: string; path: string; shown: (m: ModelName, r: Rights) => boolean }[] =
  [
    { tab: 'document', label: 'Document', path: '', shown: () => true },
    { tab: 'resolved', label: 'Resolved catalog', path: '/resolved', shown: (m) => m === 'profile' },
    { tab: 'versions', label: 'Versions', path: '/versions', shown: (_m, r) => r.manage },
    { tab: 'diff', label: 'What changed', path: '/diff', shown: () => true },
    { tab: 'snapshots', label: 'Snapshots', path: '/snapshots', shown: () => true },
    { tab: 'attachments', label: 'Attachments', path: '/attachments', shown: () => true },
    { tab: 'sharing', label: 'Sharing', path: '/access', shown: (_m, r) => r.manage },
    { tab: 'upload', label: 'Upload a new version', path: '/upload', shown: (_m, r) => r.write },
  ];

/** Where a document page sits: its list, its title, and the document's other pages. */
export function documentNav(input: {
  model: ModelName;
  id: string;
  title: string;
  rights: Rights;
  current: DocumentTab;
}): Html {
  const { model, id, title, rights, current } = input;
  const base = `/documents/${model}/${id}`;
  const tabs = TABS.filter((t) => t.shown(model, rights));
  return html`<div class="document-nav">
    <nav aria-label="Breadcrumb">
      <a href="/browse/${model}">${MODEL_LABELS[model]}</a> ›
      ${current === 'document' ? html`<span>${markupLine(title)}</span>` : html`<a href="${base}">${markupLine(title)}</a>`}
    </nav>
    <nav aria-label="This document">
      <ul class="tabs">
        ${tabs.map(
          (t) =>
            html`<li>
              <a href="${base}${t.path}" ${t.tab === current ? html`aria-current="page"` : ''}>${t.label}</a>
            </li>`,
        )}
      </ul>
    </nav>
  </div>`;
}
