import { proseText } from './compare.js';
import { canonical } from './identity.js';
import type { CatalogSummary, ProfileSummary, SspSummary } from './types.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObject) : isObject(v) ? [v] : []);
const sorted = (values: Iterable<string>) => [...values].sort();
const minus = <T>(a: Map<string, T>, b: Map<string, T>) => sorted([...a.keys()].filter((k) => !b.has(k)));

function prop(node: Obj, name: string): string | undefined {
  const found = list(node.props).find((p) => p.name === name);
  return typeof found?.value === 'string' ? found.value : undefined;
}

/** Every control of a catalog, enhancements included, by id; and every parameter, by id. */
function controlsOf(catalog: Obj): { controls: Map<string, Obj>; params: Map<string, Obj> } {
  const controls = new Map<string, Obj>();
  const params = new Map<string, Obj>();
  const visit = (node: Obj) => {
    for (const p of list(node.params)) if (typeof p.id === 'string') params.set(p.id, p);
    for (const c of list(node.controls)) {
      if (typeof c.id === 'string') controls.set(c.id, c);
      visit(c);
    }
    for (const g of list(node.groups)) visit(g);
  };
  visit(catalog);
  return { controls, params };
}

/**
 * Whether two values read alike, as compare.ts compares them: the same JSON (the common case, and
 * cheap), else the same content with keys in any order and prose by what it reads.
 */
const readAlike = (a: unknown, b: unknown): boolean =>
  JSON.stringify(a) === JSON.stringify(b) || canonical(a, proseText) === canonical(b, proseText);

const statementOf = (control: Obj) => list(control.parts).filter((p) => p.name === 'statement');

export function catalogSummary(old: Obj, now: Obj): CatalogSummary {
  const a = controlsOf(old);
  const b = controlsOf(now);
  const withdrawn = (c: Obj | undefined) => c !== undefined && prop(c, 'status') === 'withdrawn';
  const both = sorted([...b.controls.keys()].filter((id) => a.controls.has(id)));
  return {
    controlsAdded: minus(b.controls, a.controls),
    controlsRemoved: minus(a.controls, b.controls),
    controlsWithdrawn: sorted(
      [...b.controls].filter(([id, c]) => withdrawn(c) && !withdrawn(a.controls.get(id))).map(([id]) => id),
    ),
    parametersChanged: sorted(
      [...b.params].filter(([id, p]) => a.params.has(id) && !readAlike(a.params.get(id), p)).map(([id]) => id),
    ),
    statementsChanged: both.filter(
      (id) => !readAlike(statementOf(a.controls.get(id)!), statementOf(b.controls.get(id)!)),
    ),
  };
}

/** The control ids a profile's imports name (include-all as `all`), and those they exclude. */
function selection(profile: Obj): { selected: Set<string>; excluded: Set<string> } {
  const selected = new Set<string>();
  const excluded = new Set<string>();
  const ids = (calls: unknown, into: Set<string>) => {
    for (const call of list(calls))
      for (const id of Array.isArray(call['with-ids']) ? call['with-ids'] : [])
        if (typeof id === 'string') into.add(id);
  };
  for (const imp of list(profile.imports)) {
    if (imp['include-all'] !== undefined) selected.add('all');
    ids(imp['include-controls'], selected);
    ids(imp['exclude-controls'], excluded);
  }
  return { selected, excluded };
}

function setParameters(profile: Obj): Map<string, Obj> {
  const modify = isObject(profile.modify) ? profile.modify : {};
  return new Map(list(modify['set-parameters']).map((s) => [String(s['param-id']), s]));
}

export function profileSummary(old: Obj, now: Obj): ProfileSummary {
  const a = selection(old);
  const b = selection(now);
  const chosen = (s: { selected: Set<string>; excluded: Set<string> }) =>
    [...s.selected].filter((id) => !s.excluded.has(id));
  const before = new Set(chosen(a));
  const after = new Set(chosen(b));
  const pa = setParameters(old);
  const pb = setParameters(now);
  const changed = new Set([...minus(pa, pb), ...minus(pb, pa)]);
  for (const [id, s] of pb) if (pa.has(id) && !readAlike(pa.get(id), s)) changed.add(id);
  return {
    controlsSelected: sorted([...after].filter((id) => !before.has(id))),
    controlsDeselected: sorted([...before].filter((id) => !after.has(id))),
    parametersChanged: sorted(changed),
  };
}

/** An implemented requirement's status: its own prop, else the first of its by-components'. */
function statusOf(requirement: Obj): string | undefined {
  const own = prop(requirement, 'implementation-status');
  if (own !== undefined) return own;
  for (const by of list(requirement['by-components'])) {
    const status = isObject(by['implementation-status']) ? by['implementation-status'].state : undefined;
    if (typeof status === 'string') return status;
  }
  return undefined;
}

function requirementsOf(ssp: Obj): Map<string, Obj> {
  const implementation = isObject(ssp['control-implementation']) ? ssp['control-implementation'] : {};
  return new Map(list(implementation['implemented-requirements']).map((r) => [String(r['control-id']), r]));
}

function componentsOf(ssp: Obj): Map<string, Obj> {
  const system = isObject(ssp['system-implementation']) ? ssp['system-implementation'] : {};
  return new Map(list(system.components).map((c) => [String(c.uuid), c]));
}

export function sspSummary(old: Obj, now: Obj): SspSummary {
  const ra = requirementsOf(old);
  const rb = requirementsOf(now);
  const ca = componentsOf(old);
  const cb = componentsOf(now);
  const named = (uuids: string[], from: Map<string, Obj>) =>
    uuids.map((uuid) => {
      const title = from.get(uuid)?.title;
      return typeof title === 'string' ? { uuid, title } : { uuid };
    });
  const statusChanges: SspSummary['statusChanges'] = [];
  for (const [control, r] of rb) {
    if (!ra.has(control)) continue;
    const before = statusOf(ra.get(control)!);
    const after = statusOf(r);
    if (before !== after)
      statusChanges.push({
        control,
        ...(before !== undefined ? { old: before } : {}),
        ...(after !== undefined ? { new: after } : {}),
      });
  }
  return {
    requirementsAdded: minus(rb, ra),
    requirementsRemoved: minus(ra, rb),
    statusChanges: statusChanges.sort((x, y) => (x.control < y.control ? -1 : 1)),
    componentsAdded: named(minus(cb, ca), cb),
    componentsRemoved: named(minus(ca, cb), ca),
  };
}
