import { html, type Html } from './html.js';

const TITLE = 'stored with constraint findings at the reject level';

/**
 * The mark of a revision stored with findings at the reject level (?keep-findings=true, or the
 * web upload's "Store anyway"): a badge wherever versions and documents are listed.
 */
export function draftBadge(valid: boolean): Html | '' {
  return valid ? '' : html` <span class="badge draft-badge" title="${TITLE}">draft with findings</span>`;
}
