import type { ResolutionWarning } from './errors.js';
import type { Body } from './merge.js';
import {
  OSCAL_NS,
  type Add,
  type Alter,
  type Control,
  type Group,
  type Json,
  type Modify,
  type Param,
  type Remove,
  type SetParameter,
} from './types.js';

type Warn = (warning: Omit<ResolutionWarning, 'profile'>) => void;
type Kind = 'control' | 'part' | 'param' | 'prop' | 'link';

/** The item lists each kind of object holds, in canonical order; the kind of item each list holds. */
const LISTS: Record<Kind, readonly string[]> = {
  control: ['params', 'props', 'links', 'parts', 'controls'],
  part: ['props', 'parts', 'links'],
  param: ['props', 'links'],
  prop: [],
  link: [],
};
const ITEM: Record<string, Kind> = {
  params: 'param',
  props: 'prop',
  links: 'link',
  parts: 'part',
  controls: 'control',
};
const ADDABLE = ['params', 'props', 'links', 'parts'] as const;
/** set-parameter replaces these, and adds to the lists. */
const REPLACED = ['class', 'depends-on', 'label', 'usage', 'values', 'select'] as const;
const APPENDED = ['props', 'links', 'constraints', 'guidelines'] as const;

/**
 * The modify phase on the merged body: set-parameters, then alters (each alter's removes, then its
 * adds). The body's control objects are fresh, but what they hold is shared with the imported
 * catalogs, so a control is deep-copied before an alter touches it and a param is replaced, not edited.
 */
export function modify(body: Body, directive: Modify | undefined, warn: Warn): void {
  if (!directive) return;
  const controls = new Map<string, Control[]>();
  const owners = new Map<string, Set<{ params?: Param[] }>>();
  const ownParams = (owner: { params?: Param[] }) => {
    for (const p of owner.params ?? []) {
      const set = owners.get(p.id) ?? new Set();
      set.add(owner);
      owners.set(p.id, set);
    }
  };
  const visitControls = (list: Control[] | undefined) =>
    list?.forEach((c) => {
      controls.set(c.id, [...(controls.get(c.id) ?? []), c]);
      ownParams(c);
      visitControls(c.controls);
    });
  const visitGroups = (list: Group[] | undefined) =>
    list?.forEach((g) => {
      ownParams(g);
      visitGroups(g.groups);
      visitControls(g.controls);
    });
  ownParams(body);
  visitControls(body.controls);
  visitGroups(body.groups);

  directive['set-parameters']?.forEach((sp, i) => {
    const holders = owners.get(sp['param-id']);
    if (!holders)
      return warn({
        code: 'unknown-param',
        path: `/profile/modify/set-parameters/${i}`,
        message: `set-parameter names "${sp['param-id']}", which is no parameter of the result`,
      });
    for (const holder of holders)
      holder.params = holder.params!.map((p) => (p.id === sp['param-id'] ? setParameter(p, sp) : p));
  });

  const owned = new Set<Control>();
  directive.alters?.forEach((alter, i) => {
    const path = `/profile/modify/alters/${i}`;
    const targets = controls.get(alter['control-id']);
    if (!targets)
      return warn({
        code: 'inoperative-alter',
        path,
        message: `alter names control "${alter['control-id']}", which is not in the result`,
      });
    for (const control of targets) {
      own(control, owned);
      alterControl(control, alter, path, warn);
    }
  });
}

function setParameter(param: Param, sp: SetParameter): Param {
  const out: Json = { ...param };
  for (const key of REPLACED) if (sp[key] !== undefined) out[key] = sp[key];
  // values and select are alternatives: setting one replaces the other.
  if (sp.values !== undefined) delete out.select;
  if (sp.select !== undefined) delete out.values;
  for (const key of APPENDED) {
    const added = sp[key] as unknown[] | undefined;
    if (added) out[key] = [...((out[key] as unknown[] | undefined) ?? []), ...added];
  }
  return out as Param;
}

/** Makes the control's content its own (and that of the controls nested in it), so edits reach no other document. */
function own(control: Control, owned: Set<Control>): void {
  if (owned.has(control)) return;
  owned.add(control);
  for (const key of Object.keys(control)) {
    const value = control[key];
    if (key !== 'controls' && typeof value === 'object' && value !== null) control[key] = structuredClone(value);
  }
  control.controls?.forEach((c) => own(c, owned));
}

function alterControl(control: Control, alter: Alter, path: string, warn: Warn): void {
  alter.removes?.forEach((remove, j) => {
    const where = `${path}/removes/${j}`;
    const criteria = Object.entries(remove).filter(([k]) => k.startsWith('by-')) as [keyof Remove, string][];
    if (criteria.length === 0)
      return warn({
        code: 'inoperative-alter',
        path: where,
        message: 'remove gives no criterion, so it removes nothing',
      });
    if (removeMatching(control, 'control', criteria) === 0) {
      warn({
        code: 'inoperative-alter',
        path: where,
        message: `remove (${criteria.map(([k, v]) => `${k} "${v}"`).join(', ')}) matches nothing in control "${control.id}"`,
      });
    }
  });
  alter.adds?.forEach((add, j) => addTo(control, add, `${path}/adds/${j}`, warn));
}

function matches(item: Json, kind: Kind, criteria: [keyof Remove, string][]): boolean {
  return criteria.every(([criterion, value]) => {
    switch (criterion) {
      case 'by-id':
        return item.id === value;
      case 'by-name':
        return item.name === value;
      case 'by-class':
        return item.class === value;
      case 'by-item-name':
        return kind === value;
      case 'by-ns':
        return (item.ns ?? (kind === 'prop' || kind === 'part' ? OSCAL_NS : undefined)) === value;
      default:
        return false;
    }
  });
}

/** Removes matching objects anywhere inside `obj`, lists left empty with them; returns how many. */
function removeMatching(obj: Json, kind: Kind, criteria: [keyof Remove, string][]): number {
  let removed = 0;
  for (const key of LISTS[kind]) {
    const list = obj[key] as Json[] | undefined;
    if (!list) continue;
    const kept = list.filter((item) => {
      if (matches(item, ITEM[key]!, criteria)) {
        removed++;
        return false;
      }
      removed += removeMatching(item, ITEM[key]!, criteria);
      return true;
    });
    if (kept.length === list.length) continue;
    if (kept.length) obj[key] = kept;
    else delete obj[key];
  }
  return removed;
}

interface Found {
  obj: Json;
  kind: Kind;
  parent: Json;
  parentKind: Kind;
  key: string;
}

function find(obj: Json, kind: Kind, id: string): Found | undefined {
  for (const key of LISTS[kind]) {
    for (const item of (obj[key] as Json[] | undefined) ?? []) {
      if (item.id === id) return { obj: item, kind: ITEM[key]!, parent: obj, parentKind: kind, key };
      const deeper = find(item, ITEM[key]!, id);
      if (deeper) return deeper;
    }
  }
  return undefined;
}

/**
 * add: without by-id into the control itself (before and after as starting and ending); with
 * by-id, starting and ending go inside the object with that id, before and after beside it. In
 * the JSON form items of another kind than the target's go to their own list in the same parent,
 * as near the target as canonical order allows.
 */
function addTo(control: Control, add: Add, path: string, warn: Warn): void {
  const position = add.position ?? 'ending';
  const byId = add['by-id'];
  const inoperative = (message: string) => warn({ code: 'inoperative-alter', path, message });
  if (byId === undefined)
    return addInside(control, 'control', add, position === 'starting' || position === 'before', inoperative);
  if (byId === control.id)
    return inoperative(
      `add by-id "${byId}" names the control itself; by-id must name an object inside control "${control.id}"`,
    );
  const target = find(control, 'control', byId);
  if (!target) return inoperative(`add by-id "${byId}": no object with that id inside control "${control.id}"`);
  if (position === 'before' || position === 'after') addBeside(target, add, position === 'before', inoperative);
  else addInside(target.obj, target.kind, add, position === 'starting', inoperative);
}

function addInside(
  target: Json,
  kind: Kind,
  add: Add,
  starting: boolean,
  inoperative: (message: string) => void,
): void {
  if (add.title !== undefined) {
    if (kind === 'control' || kind === 'part') target.title = add.title;
    else inoperative(`a ${kind} has no title to set`);
  }
  for (const key of ADDABLE) {
    const items = add[key] as Json[] | undefined;
    if (!items) continue;
    if (!LISTS[kind].includes(key)) {
      inoperative(`a ${kind} cannot hold ${key}`);
      continue;
    }
    const existing = (target[key] as Json[] | undefined) ?? [];
    target[key] = starting ? [...items, ...existing] : [...existing, ...items];
  }
}

function addBeside(target: Found, add: Add, before: boolean, inoperative: (message: string) => void): void {
  const order = LISTS[target.parentKind];
  if (add.title !== undefined) inoperative('a title cannot be added beside an object');
  for (const key of ADDABLE) {
    const items = add[key] as Json[] | undefined;
    if (!items) continue;
    if (!order.includes(key)) {
      inoperative(`a ${target.parentKind} cannot hold ${key}`);
      continue;
    }
    const list = [...((target.parent[key] as Json[] | undefined) ?? [])];
    if (key === target.key) list.splice(list.indexOf(target.obj) + (before ? 0 : 1), 0, ...items);
    else if (order.indexOf(key) < order.indexOf(target.key)) list.push(...items);
    else list.unshift(...items);
    target.parent[key] = list;
  }
}
