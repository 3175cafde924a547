// The document page's content for the web interface: the shell wraps it in its layout and adds
// the scripts and styles named here (served from web/assets/, no inline script or style: CSP).
import type { ModelName } from '../../../oscal/model/models.js';
import type { Html } from '../html.js';
import { catalogView } from './catalog.js';
import { genericView } from './generic.js';
import { profileView } from './profile.js';

export interface DocumentView {
  body: Html;
  scripts: string[];
  styles: string[];
}

export function documentView(input: { model: ModelName; content: Record<string, unknown> }): DocumentView {
  if (input.model === 'catalog') {
    return { body: catalogView(input.content), scripts: ['catalog-filter.js'], styles: ['document.css'] };
  }
  if (input.model === 'profile') return { body: profileView(input.content), scripts: [], styles: ['document.css'] };
  return { body: genericView(input.model, input.content), scripts: [], styles: ['document.css'] };
}
