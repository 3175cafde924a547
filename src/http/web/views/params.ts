// Parameters shown where a catalog's text inserts them: the values when set, else the selection's
// choices, else the label, as NIST's own publications print them ("[Assignment: …]").
import { html, type Html } from '../html.js';
import { recordsOf, textOf, isRecord } from './anchors.js';
import { markupLine, type MarkupContext } from './markup.js';

/** The parameters visible from one place: its own, then its parents', up to the catalog's. */
export class ParamScope {
  private readonly own = new Map<string, Record<string, unknown>>();

  constructor(
    params: unknown,
    private readonly parent?: ParamScope,
  ) {
    for (const p of recordsOf(params)) {
      const id = textOf(p['id']);
      if (id !== undefined) this.own.set(id, p);
    }
  }

  /** This scope itself when the place adds no parameter, so a long chain is not built for nothing. */
  child(params: unknown): ParamScope {
    return recordsOf(params).length === 0 ? this : new ParamScope(params, this);
  }

  find(id: string): Record<string, unknown> | undefined {
    return this.own.get(id) ?? this.parent?.find(id);
  }
}

// A choice may insert a parameter in turn; a document that loops is cut off here.
const MAX_DEPTH = 4;

function paramText(param: Record<string, unknown>, scope: ParamScope, depth: number): Html {
  const values = Array.isArray(param['values']) ? param['values'].filter((v) => typeof v === 'string') : [];
  if (values.length > 0) return html`<span class="param-value">${values.join(', ')}</span>`;
  const select = param['select'];
  if (isRecord(select)) {
    const context = paramContext(scope, depth + 1);
    const choices = (Array.isArray(select['choice']) ? select['choice'] : []).map((c) => markupLine(c, context));
    const many = select['how-many'] === 'one-or-more' ? ' (one or more)' : '';
    return html`[Selection${many}: ${choices.map((c, i) => (i === 0 ? c : html`; ${c}`))}]`;
  }
  const label = textOf(param['label']);
  if (label !== undefined) return html`[Assignment: ${markupLine(label)}]`;
  return html`[${textOf(param['id']) ?? ''}]`;
}

/** The markup context of a control's text: inserts resolved in this scope. */
export function paramContext(scope: ParamScope, depth = 0, resolveHref?: (href: string) => string | undefined) {
  const context: MarkupContext = {
    insert: (type, id) => {
      const param = type === 'param' && depth < MAX_DEPTH ? scope.find(id) : undefined;
      if (param === undefined) return undefined;
      return html`<span class="param" data-param="${id}">${paramText(param, scope, depth)}</span>`;
    },
  };
  if (resolveHref !== undefined) context.resolveHref = resolveHref;
  return context;
}
