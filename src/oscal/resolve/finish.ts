import type { OscalModel } from '../model/model.js';
import { CanonicalCopy } from './canonical.js';
import { paramIds, type Body } from './merge.js';
import { keptAlways, type Catalog, type Metadata, type Resource } from './types.js';

/**
 * The result catalog in canonical order, pruned: loose params and back-matter resources stay
 * only when kept always, named by the profile's set-parameters (params), or referenced from
 * what stays (`#id`, an inserted param, depends-on), counting references from other candidates
 * only once those are kept themselves. A param of a control left out stays only when referenced
 * (it was never included, so neither keep nor set-parameter speaks for it), and not once an alter
 * has put a param with its id into the result.
 */
export function finish(
  model: OscalModel,
  uuid: string,
  metadata: Metadata,
  body: Body,
  resources: Resource[],
  setParams: ReadonlySet<string>,
): Catalog {
  const copy = new CanonicalCopy(model);
  const root = model.rootDef('catalog')!;
  const out: Record<string, unknown> = { uuid, metadata: copy.copy(metadata, copy.child(root, 'metadata')) };
  const controls = body.controls.map((c) => copy.copy(c, copy.child(root, 'controls')));
  const groups = body.groups.map((g) => copy.copy(g, copy.child(root, 'groups')));

  const held = paramIds(body);
  const leftOut = body.leftOutParams.filter((p) => !held.has(p.id));
  const referenced = (id: string) => copy.references.has(id);
  const paramDef = copy.child(root, 'params');
  const resourceDef = copy.child(copy.child(root, 'back-matter'), 'resources');
  const params = new Map<object, unknown>();
  const kept = new Map<object, unknown>();
  const keep = <T extends object>(
    candidates: T[],
    stays: (c: T) => boolean,
    into: Map<object, unknown>,
    def: number,
  ): boolean => {
    const adding = candidates.filter((c) => !into.has(c) && stays(c));
    for (const c of adding) into.set(c, copy.copy(c, def));
    return adding.length > 0;
  };
  for (let grew = true; grew;) {
    grew = [
      keep(body.params, (p) => referenced(p.id) || setParams.has(p.id) || keptAlways(p), params, paramDef),
      keep(leftOut, (p) => referenced(p.id), params, paramDef),
      keep(resources, (r) => referenced(r.uuid) || keptAlways(r), kept, resourceDef),
    ].some(Boolean);
  }
  if (params.size) out.params = [...body.params, ...leftOut].filter((p) => params.has(p)).map((p) => params.get(p));
  if (controls.length) out.controls = controls;
  if (groups.length) out.groups = groups;
  if (kept.size) out['back-matter'] = { resources: resources.filter((r) => kept.has(r)).map((r) => kept.get(r)) };
  return out as Catalog;
}
