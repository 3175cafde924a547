import { ResolutionError, type ResolutionWarning } from './errors.js';
import { choose, ControlTree, type NoMatch } from './select.js';
import type { Selected, SelectedGroup, Selection } from './selection.js';
import {
  keptAlways,
  type Catalog,
  type Control,
  type CustomGroup,
  type Group,
  type InsertControls,
  type Merge,
  type Param,
} from './types.js';

/** The catalog's body after merging: fresh control and group objects over shared content. */
export interface Body {
  /** Loose params at catalog level; pruned later unless referenced. */
  params: Param[];
  /**
   * Params of imported controls the body leaves out (excluded, never included, dropped as
   * duplicates, never inserted) whose id the body holds nowhere, the first with each id: they
   * become loose params only where what stays references them, so that no reference dangles.
   */
  leftOutParams: Param[];
  controls: Control[];
  groups: Group[];
}

type Structure = Omit<Body, 'leftOutParams'>;

type Warn = (warning: Omit<ResolutionWarning, 'profile'>) => void;

/**
 * The merge phase: combine (use-first drops later controls with an id already seen, in
 * depth-first import order; keep, the default, keeps them and warns), then structure the result
 * flat (the default), as-is or custom; then note the params of the controls it leaves out.
 */
export function merge(selections: Selection[], directive: Merge | undefined, warn: Warn): Body {
  const combined = combine(selections, directive, warn);
  const structures = (['flat', 'as-is', 'custom'] as const).filter(
    (k) => directive?.[k] !== undefined && directive[k] !== false,
  );
  if (structures.length > 1)
    throw new ResolutionError(
      'invalid-profile',
      `merge gives ${structures.join(' and ')}; a profile may give one structuring directive`,
    );
  const noMatch: NoMatch = (path, message) => warn({ code: 'no-match', path, message });
  const structure =
    structures[0] === 'as-is'
      ? asIs(combined)
      : structures[0] === 'custom'
        ? custom(combined, directive!.custom!, noMatch)
        : flat(combined);
  const body = { ...structure, params: looseParams(structure.params, directive) };
  return { ...body, leftOutParams: leftOutParams(selections, paramIds(body)) };
}

function looseParams(params: Param[], directive: Merge | undefined): Param[] {
  // The same catalog imported twice brings its loose params twice: one copy is enough.
  const unique = [...new Set(params)];
  if (directive?.combine?.method !== 'use-first') return unique;
  const seen = new Set<string>();
  return unique.filter((p) => !seen.has(p.id) && seen.add(p.id));
}

/** Ids of the params a body holds: loose, in groups, and in controls at any depth. */
export function paramIds(body: Structure): Set<string> {
  const ids = new Set<string>();
  const add = (params: Param[] | undefined) => params?.forEach((p) => ids.add(p.id));
  const inControls = (controls: Control[] | undefined) =>
    controls?.forEach((c) => {
      add(c.params);
      inControls(c.controls);
    });
  const inGroups = (groups: Group[] | undefined) =>
    groups?.forEach((g) => {
      add(g.params);
      inControls(g.controls);
      inGroups(g.groups);
    });
  add(body.params);
  inControls(body.controls);
  inGroups(body.groups);
  return ids;
}

function leftOutParams(selections: Selection[], held: ReadonlySet<string>): Param[] {
  const seen = new Set(held);
  return selections
    .flatMap((s) => catalogControls(s.catalog))
    .flatMap((c) => c.params ?? [])
    .filter((p) => !seen.has(p.id) && seen.add(p.id));
}

/** Every control of a catalog, top-level and within groups, depth first. */
function catalogControls(catalog: Catalog): Control[] {
  const inControls = (controls: Control[] | undefined): Control[] =>
    (controls ?? []).flatMap((c) => [c, ...inControls(c.controls)]);
  const inGroups = (groups: Group[] | undefined): Control[] =>
    (groups ?? []).flatMap((g) => [...inControls(g.controls), ...inGroups(g.groups)]);
  return [...inControls(catalog.controls), ...inGroups(catalog.groups)];
}

function combine(selections: Selection[], directive: Merge | undefined, warn: Warn): Selection[] {
  const method = directive?.combine?.method ?? 'keep';
  if (method === 'use-first') {
    const seen = new Set<string>();
    const dedupe = (list: Selected[]): Selected[] =>
      list.flatMap((s) => {
        const first = !seen.has(s.id);
        seen.add(s.id);
        const children = dedupe(s.children);
        return first ? [{ ...s, children }] : children;
      });
    const dedupeGroups = (groups: SelectedGroup[]): SelectedGroup[] =>
      groups.map((g) => ({ ...g, groups: dedupeGroups(g.groups), controls: dedupe(g.controls) }));
    return selections.map((s) => ({ ...s, controls: dedupe(s.controls), groups: dedupeGroups(s.groups) }));
  }
  const seen = new Set<string>();
  const reported = new Set<string>();
  selections.forEach((s, i) => {
    for (const node of poolOf([s]).all) {
      if (seen.has(node.id) && !reported.has(node.id)) {
        reported.add(node.id);
        warn({
          code: 'duplicate-control',
          path: `/profile/imports/${i}`,
          message: `control "${node.id}" is included more than once, and kept each time (combine method ${method})`,
        });
      }
      seen.add(node.id);
    }
  });
  return selections;
}

/** Every included control of the selections, top-level and within groups, in depth-first import order. */
function poolOf(selections: Selection[]): ControlTree<Selected> {
  const roots: Selected[] = [];
  const addGroups = (groups: SelectedGroup[]) =>
    groups.forEach((g) => {
      addGroups(g.groups);
      roots.push(...g.controls);
    });
  for (const s of selections) {
    roots.push(...s.controls);
    addGroups(s.groups);
  }
  return new ControlTree(roots);
}

/** A fresh control object over the source's content, holding the children `keep` admits. */
function materialize(s: Selected, keep: (child: Selected, parent: Selected) => boolean): Control {
  return withList(
    { ...s.control },
    'controls',
    s.children.filter((c) => keep(c, s)).map((c) => materialize(c, keep)),
  );
}

function withList<T extends Record<string, unknown>>(obj: T, key: string, list: unknown[]): T {
  if (list.length) (obj as Record<string, unknown>)[key] = list;
  else delete obj[key];
  return obj;
}

function allGroupParams(groups: Group[] | undefined): Param[] {
  return (groups ?? []).flatMap((g) => [...(g.params ?? []), ...allGroupParams(g.groups)]);
}

/** Each control on its own, no groups; the params of every group become loose params. */
function flat(selections: Selection[]): Structure {
  return {
    params: selections.flatMap((s) => [...(s.catalog.params ?? []), ...allGroupParams(s.catalog.groups)]),
    controls: poolOf(selections).all.map((s) => materialize(s, () => false)),
    groups: [],
  };
}

interface MergedGroup {
  key: string;
  group: Group;
  groups: MergedGroup[];
  byKey: Map<string, MergedGroup>;
  controls: Selected[];
}

/**
 * The imported structure; a group that several imports bring (same id, or same place in the same
 * document) appears once. A group that holds no control once use-first has dropped duplicates is
 * left out unless kept always; the params of groups left out are loose params.
 */
function asIs(selections: Selection[]): Structure {
  const groups = holding(mergeGroups(selections));
  const present = new Set<string>();
  const collectKeys = (list: MergedGroup[]) =>
    list.forEach((g) => {
      present.add(g.key);
      collectKeys(g.groups);
    });
  collectKeys(groups);
  const nested = () => true;
  const build = (m: MergedGroup): Group =>
    withList(
      withList({ ...m.group }, 'groups', m.groups.map(build)),
      'controls',
      m.controls.map((c) => materialize(c, nested)),
    );
  return {
    params: selections.flatMap((s) => [
      ...(s.catalog.params ?? []),
      ...s.groupParams.filter((g) => !present.has(g.key)).flatMap((g) => g.params),
    ]),
    controls: selections.flatMap((s) => s.controls.map((c) => materialize(c, nested))),
    groups: groups.map(build),
  };
}

/** The selections' groups, each key once, where it first appears, holding the controls of every import that brings it. */
function mergeGroups(selections: Selection[]): MergedGroup[] {
  const top: Pick<MergedGroup, 'groups' | 'byKey'> = { groups: [], byKey: new Map() };
  const mergeInto = (into: Pick<MergedGroup, 'groups' | 'byKey'>, groups: SelectedGroup[]) => {
    for (const g of groups) {
      let merged = into.byKey.get(g.key);
      if (!merged) {
        merged = { key: g.key, group: g.group, groups: [], byKey: new Map(), controls: [] };
        into.byKey.set(g.key, merged);
        into.groups.push(merged);
      }
      merged.controls.push(...g.controls);
      mergeInto(merged, g.groups);
    }
  };
  for (const s of selections) mergeInto(top, s.groups);
  return top.groups;
}

/** The groups that hold a control, directly or in a group they keep, or are kept always. */
function holding(groups: MergedGroup[]): MergedGroup[] {
  return groups.flatMap((m) => {
    const kept = { ...m, groups: holding(m.groups) };
    return kept.controls.length || kept.groups.length || keptAlways(m.group) ? [kept] : [];
  });
}

const CONTENT_LISTS = ['params', 'props', 'links', 'parts'] as const;

/**
 * The structure the profile declares. insert-controls picks from every included control; a
 * control picked with include-all or with-child-controls keeps its picked descendants nested.
 * A custom group whose id is that of an imported group takes that group's params, props, links
 * and parts ahead of its own.
 */
function custom(selections: Selection[], directive: NonNullable<Merge['custom']>, noMatch: NoMatch): Structure {
  const pool = poolOf(selections);
  const parents = new Map<Selected, Selected>();
  for (const node of pool.all) node.children.forEach((c) => parents.set(c, node));
  const imported = new Map<string, Group>();
  const visitGroups = (groups: SelectedGroup[]) =>
    groups.forEach((g) => {
      if (g.group.id !== undefined && !imported.has(g.group.id)) imported.set(g.group.id, g.group);
      visitGroups(g.groups);
    });
  selections.forEach((s) => visitGroups(s.groups));
  const claimed = new Set<Group>();

  const insert = (list: InsertControls[] | undefined, path: string): Control[] =>
    (list ?? []).flatMap((ic, i) => {
      const at = `${path}/${i}`;
      const nesting = new Set<Selected>();
      let chosen: Set<Selected>;
      if (ic['include-all'] !== undefined) {
        chosen = new Set(pool.all);
        pool.all.forEach((n) => nesting.add(n));
        if (chosen.size === 0) noMatch(`${at}/include-all`, 'include-all inserts nothing: no control was imported');
      } else chosen = choose(pool, ic['include-controls'], `${at}/include-controls`, noMatch, nesting);
      for (const node of choose(pool, ic['exclude-controls'], `${at}/exclude-controls`, noMatch)) chosen.delete(node);
      const keep = (child: Selected, parent: Selected) =>
        chosen.has(child) && chosen.has(parent) && nesting.has(parent);
      const placed = pool.all.filter((n) => {
        const parent = parents.get(n);
        return chosen.has(n) && !(parent && keep(n, parent));
      });
      if (ic.order === 'ascending' || ic.order === 'descending') {
        const sign = ic.order === 'ascending' ? 1 : -1;
        placed.sort((a, b) => sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      }
      return placed.map((n) => materialize(n, keep));
    });

  const build = (cg: CustomGroup, path: string): Group => {
    const { 'insert-controls': _inserts, groups: _groups, ...own } = cg;
    const out: Group = own;
    const source = cg.id === undefined ? undefined : imported.get(cg.id);
    if (source) {
      claimed.add(source);
      for (const key of CONTENT_LISTS)
        withList(out, key, [
          ...((source[key] as unknown[] | undefined) ?? []),
          ...((cg[key] as unknown[] | undefined) ?? []),
        ]);
    }
    withList(
      out,
      'groups',
      (cg.groups ?? []).map((g, i) => build(g, `${path}/groups/${i}`)),
    );
    return withList(out, 'controls', insert(cg['insert-controls'], `${path}/insert-controls`));
  };
  const groups = (directive.groups ?? []).map((g, i) => build(g, `/profile/merge/custom/groups/${i}`));
  const controls = insert(directive['insert-controls'], '/profile/merge/custom/insert-controls');
  const unclaimedParams = (groups: Group[] | undefined): Param[] =>
    (groups ?? []).flatMap((g) => [...(claimed.has(g) ? [] : (g.params ?? [])), ...unclaimedParams(g.groups)]);
  return {
    params: selections.flatMap((s) => [...(s.catalog.params ?? []), ...unclaimedParams(s.catalog.groups)]),
    controls,
    groups,
  };
}
