// A diff report as a page: the summary for people first, then each change, with the old and new
// values of changed fields side by side and changed words marked (<del>, <ins>).
import type { Change, DiffSummary, FieldChange, WordSpan } from '../../../oscal/diff/index.js';
import { html, type Html } from '../html.js';
import { dataTable } from '../table.js';

/** A page lists this many changes; the JSON report of the API has them all. */
export const SHOWN_CHANGES = 500;
/** Ids listed in a summary line before "and N more". */
const SHOWN_IDS = 60;

const KIND_LABELS: Record<Change['kind'], string> = {
  added: 'Added',
  removed: 'Removed',
  moved: 'Moved',
  changed: 'Changed',
};

function ids(values: readonly string[]): Html {
  if (values.length === 0) return html`none`;
  const shown = values.slice(0, SHOWN_IDS);
  const more = values.length - shown.length;
  return html`${shown.map((v, i) => html`${i ? ', ' : ''}<code>${v}</code>`)}${more > 0 ? ` and ${more} more` : ''}`;
}

function line(label: string, values: readonly string[]): Html {
  return html`<li><strong>${label} (${values.length}):</strong> ${ids(values)}</li>`;
}

export function summaryView(summary: DiffSummary): Html {
  const { counts, catalog, profile, systemSecurityPlan: ssp } = summary;
  return html`<section class="diff-summary" aria-labelledby="diff-summary-heading">
    <h2 id="diff-summary-heading">Summary</h2>
    <p class="counts">
      ${(Object.keys(KIND_LABELS) as Change['kind'][]).map(
        (kind) => html`<span class="count count-${kind}">${KIND_LABELS[kind]}: ${counts[kind]}</span> `,
      )}
    </p>
    <ul>
      ${
        catalog && [
          line('Controls added', catalog.controlsAdded),
          line('Controls removed', catalog.controlsRemoved),
          line('Controls withdrawn', catalog.controlsWithdrawn),
          line('Parameters changed', catalog.parametersChanged),
          line('Statements changed', catalog.statementsChanged),
        ]
      }
      ${
        profile && [
          line('Controls selected', profile.controlsSelected),
          line('Controls deselected', profile.controlsDeselected),
          line('Parameter values changed', profile.parametersChanged),
        ]
      }
      ${
        ssp && [
          line('Implemented requirements added', ssp.requirementsAdded),
          line('Implemented requirements removed', ssp.requirementsRemoved),
          line(
            'Status changes',
            ssp.statusChanges.map((s) => `${s.control}: ${s.old ?? 'none'} → ${s.new ?? 'none'}`),
          ),
          line(
            'Components added',
            ssp.componentsAdded.map((c) => c.title ?? c.uuid),
          ),
          line(
            'Components removed',
            ssp.componentsRemoved.map((c) => c.title ?? c.uuid),
          ),
        ]
      }
    </ul>
  </section>`;
}

const text = (value: unknown): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 1);

/** One side of a word diff: the words both share, and this side's own words marked. */
function side(words: readonly WordSpan[], own: 'added' | 'removed'): Html {
  return html`${words.map((w) => {
    if (w.op === 'same') return w.text;
    if (w.op !== own) return '';
    return own === 'removed' ? html`<del>${w.text}</del>` : html`<ins>${w.text}</ins>`;
  })}`;
}

function fieldRow(field: FieldChange): Html {
  const before = field.words ? side(field.words, 'removed') : text(field.old);
  const after = field.words ? side(field.words, 'added') : text(field.new);
  return html`<tr>
    <th scope="row"><code>${field.field || 'value'}</code></th>
    <td class="before">${field.old === undefined ? html`<em>absent</em>` : before}</td>
    <td class="after">${field.new === undefined ? html`<em>absent</em>` : after}</td>
  </tr>`;
}

function changeView(change: Change): Html {
  const name = html`${change.object}${change.key ? html` <code>${change.key}</code>` : ''}${change.title ? ` ${change.title}` : ''}`;
  return html`<li class="change change-${change.kind}">
    <p>
      <span class="badge">${KIND_LABELS[change.kind]}</span> ${name}
      <span class="path"
        >${change.from && change.from !== change.path ? html`<code>${change.from}</code> → ` : ''}<code
          >${change.path}</code
        ></span
      >
    </p>
    ${
      change.fields?.length &&
      dataTable(['Field', 'Before', 'After'], change.fields.map(fieldRow), { className: 'oscal-table diff-fields' })
    }
    ${change.value !== undefined && html`<pre class="value">${text(change.value)}</pre>`}
  </li>`;
}

export function changesView(changes: readonly Change[]): Html {
  if (changes.length === 0) return html`<p class="empty">No differences.</p>`;
  const shown = changes.slice(0, SHOWN_CHANGES);
  return html`<section aria-labelledby="diff-changes-heading">
    <h2 id="diff-changes-heading">Changes</h2>
    ${
      changes.length > shown.length &&
      html`<p class="note">The first ${shown.length} of ${changes.length} changes; the API's report has them all.</p>`
    }
    <ol class="changes">
      ${shown.map(changeView)}
    </ol>
  </section>`;
}
