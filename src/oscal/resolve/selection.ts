import { choose, ControlTree, type Choosable, type NoMatch } from './select.js';
import { keptAlways, type Catalog, type Control, type ControlChoice, type Group, type Param } from './types.js';

/** A control of an imported catalog, where it sits. */
interface CatalogNode extends Choosable<CatalogNode> {
  control: Control;
  parent: CatalogNode | undefined;
  children: CatalogNode[];
}

/** An included control and the included controls nested under it (up-levelled past controls left out). */
export interface Selected extends Choosable<Selected> {
  control: Control;
  children: Selected[];
}

/** A group that holds included controls (or is kept always), keyed for merging as-is structures. */
export interface SelectedGroup {
  key: string;
  group: Group;
  groups: SelectedGroup[];
  controls: Selected[];
}

/** What one import contributes, still in the shape of its catalog. */
export interface Selection {
  catalog: Catalog;
  controls: Selected[];
  groups: SelectedGroup[];
  /**
   * The params of every group of the catalog, with the group's key, in document order: those of
   * groups the result leaves out are loose params, available to whatever references them.
   */
  groupParams: { key: string; params: Param[] }[];
}

/**
 * The controls one import includes: include-all or include-controls, the ancestors of each
 * included control, less exclude-controls (exclusion wins whatever the selectors' specificity).
 * `documentKey` identifies the imported document, whatever href reached it: a group without an
 * id is keyed by it and the group's place in the document, so the same group imported twice merges as-is.
 */
export function selectFromCatalog(
  catalog: Catalog,
  documentKey: string,
  directive: ControlChoice,
  path: string,
  noMatch: NoMatch,
): Selection {
  const nodes = new Map<Control, CatalogNode>();
  const roots: CatalogNode[] = [];
  const index = (controls: Control[] | undefined, parent: CatalogNode | undefined, into: CatalogNode[]) => {
    for (const control of controls ?? []) {
      const node: CatalogNode = { id: control.id, control, parent, children: [] };
      nodes.set(control, node);
      into.push(node);
      index(control.controls, node, node.children);
    }
  };
  const indexGroups = (groups: Group[] | undefined) => {
    for (const group of groups ?? []) {
      index(group.controls, undefined, roots);
      indexGroups(group.groups);
    }
  };
  index(catalog.controls, undefined, roots);
  indexGroups(catalog.groups);
  const tree = new ControlTree(roots);

  const included =
    directive['include-all'] !== undefined
      ? new Set(tree.all)
      : choose(tree, directive['include-controls'], `${path}/include-controls`, noMatch);
  for (const node of [...included]) {
    for (let up = node.parent; up && !included.has(up); up = up.parent) included.add(up);
  }
  for (const node of choose(tree, directive['exclude-controls'], `${path}/exclude-controls`, noMatch))
    included.delete(node);

  const selectControls = (controls: Control[] | undefined): Selected[] =>
    (controls ?? []).flatMap((control) => {
      const children = selectControls(control.controls);
      return included.has(nodes.get(control)!) ? [{ id: control.id, control, children }] : children;
    });
  const groupParams: Selection['groupParams'] = [];
  const selectGroups = (groups: Group[] | undefined, at: string): SelectedGroup[] =>
    (groups ?? []).flatMap((group, i) => {
      const key = group.id ?? `${documentKey}#${at}${i}`;
      groupParams.push({ key, params: group.params ?? [] });
      const selected = {
        key,
        group,
        groups: selectGroups(group.groups, `${at}${i}/`),
        controls: selectControls(group.controls),
      };
      return selected.groups.length || selected.controls.length || keptAlways(group) ? [selected] : [];
    });
  const groups = selectGroups(catalog.groups, '');
  return { catalog, controls: selectControls(catalog.controls), groups, groupParams };
}
