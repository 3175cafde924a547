import type { OscalModel } from '../model/model.js';
import { CanonicalCopy } from './canonical.js';
import type { Body } from './merge.js';
import { keptAlways, type Catalog, type Metadata, type Resource } from './types.js';

/**
 * The result catalog in canonical order, pruned: loose params and back-matter resources stay
 * only when kept always, named by the profile's set-parameters (params), or referenced from
 * what stays (`#id`, an inserted param, depends-on), counting references from other candidates
 * only once those are kept themselves.
 */
export function finish(model: OscalModel, uuid: string, metadata: Metadata, body: Body, resources: Resource[], setParams: ReadonlySet<string>): Catalog {
  const copy = new CanonicalCopy(model);
  const root = model.rootDef('catalog')!;
  const out: Record<string, unknown> = { uuid, metadata: copy.copy(metadata, copy.child(root, 'metadata')) };
  const controls = body.controls.map((c) => copy.copy(c, copy.child(root, 'controls')));
  const groups = body.groups.map((g) => copy.copy(g, copy.child(root, 'groups')));

  const paramDef = copy.child(root, 'params');
  const resourceDef = copy.child(copy.child(root, 'back-matter'), 'resources');
  const params = new Map<object, unknown>();
  const kept = new Map<object, unknown>();
  for (let grew = true; grew;) {
    grew = false;
    for (const p of body.params) {
      if (params.has(p) || !(copy.references.has(p.id) || setParams.has(p.id) || keptAlways(p))) continue;
      params.set(p, copy.copy(p, paramDef));
      grew = true;
    }
    for (const r of resources) {
      if (kept.has(r) || !(copy.references.has(r.uuid) || keptAlways(r))) continue;
      kept.set(r, copy.copy(r, resourceDef));
      grew = true;
    }
  }
  if (params.size) out.params = body.params.filter((p) => params.has(p)).map((p) => params.get(p));
  if (controls.length) out.controls = controls;
  if (groups.length) out.groups = groups;
  if (kept.size) out['back-matter'] = { resources: resources.filter((r) => kept.has(r)).map((r) => kept.get(r)) };
  return out as Catalog;
}
