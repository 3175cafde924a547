/**
 * A semantic diff of two documents of one model, of any releases and read from any formats: what
 * was added, removed, moved and changed, in OSCAL's own terms, with a summary made for people.
 */
import type { ParsedDocument } from '../formats/document.js';
import { OscalError } from '../errors.js';
import { isContentUuidScheme } from '../identifiers.js';
import { modelFor } from '../model/model.js';
import { Comparison } from './compare.js';
import { catalogSummary, profileSummary, sspSummary } from './summary.js';
import type { ChangeKind, DiffOptions, DiffReport, DiffSummary } from './types.js';

export type * from './types.js';

type Obj = Record<string, unknown>;

/** The root without what changes on every save; the documents themselves are not touched. */
function withoutVolatile(root: Obj): Obj {
  const metadata = root.metadata as Obj | undefined;
  if (!metadata) return root;
  const { 'last-modified': _changesOnEverySave, ...kept } = metadata;
  if (Array.isArray(kept['document-ids'])) {
    const ids = (kept['document-ids'] as Obj[]).filter((d) => !isContentUuidScheme(d.scheme));
    if (ids.length) kept['document-ids'] = ids;
    else delete kept['document-ids'];
  }
  return { ...root, metadata: kept };
}

export function diffDocuments(older: ParsedDocument, newer: ParsedDocument, options: DiffOptions = {}): DiffReport {
  if (older.model !== newer.model)
    throw new OscalError(
      'wrong-model',
      `a ${older.model} and a ${newer.model} cannot be compared: both must be of one model`,
    );
  const model = older.model;
  let oldRoot = older.content[model] as Obj;
  let newRoot = newer.content[model] as Obj;
  if (options.ignoreVolatile) {
    oldRoot = withoutVolatile(oldRoot);
    newRoot = withoutVolatile(newRoot);
  }
  const changes = new Comparison(modelFor(older.version, model), modelFor(newer.version, model), model).run(
    oldRoot,
    newRoot,
  );
  const counts: Record<ChangeKind, number> = { added: 0, removed: 0, moved: 0, changed: 0 };
  for (const change of changes) counts[change.kind]++;
  const summary: DiffSummary = { counts };
  if (model === 'catalog') summary.catalog = catalogSummary(oldRoot, newRoot);
  if (model === 'profile') summary.profile = profileSummary(oldRoot, newRoot);
  if (model === 'system-security-plan') summary.systemSecurityPlan = sspSummary(oldRoot, newRoot);
  return {
    model,
    from: { version: older.version },
    to: { version: newer.version },
    equal: changes.length === 0,
    summary,
    changes,
  };
}
