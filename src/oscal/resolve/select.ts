import { globMatcher } from './glob.js';
import type { Selector } from './types.js';

/** A control in a tree that selectors choose from: an imported catalog, or the controls a merge gathered. */
export interface Choosable<T> {
  readonly id: string;
  readonly children: readonly T[];
}

/** Controls of one tree in document order (depth first), and by id. */
export class ControlTree<T extends Choosable<T>> {
  readonly all: T[] = [];
  readonly byId = new Map<string, T[]>();

  constructor(roots: readonly T[]) {
    const visit = (nodes: readonly T[]) => {
      for (const node of nodes) {
        this.all.push(node);
        const same = this.byId.get(node.id);
        if (same) same.push(node);
        else this.byId.set(node.id, [node]);
        visit(node.children);
      }
    };
    visit(roots);
  }
}

export type NoMatch = (path: string, message: string) => void;

/**
 * What a list of include-controls or exclude-controls selectors picks: ids and glob patterns,
 * with all descendants where with-child-controls is yes. `nesting` receives the controls picked
 * with their descendants, which keep them nested. Each id or pattern that picks nothing is reported.
 */
export function choose<T extends Choosable<T>>(
  tree: ControlTree<T>,
  selectors: readonly Selector[] | undefined,
  path: string,
  noMatch: NoMatch,
  nesting?: Set<T>,
): Set<T> {
  const chosen = new Set<T>();
  selectors?.forEach((selector, i) => {
    const withChildren = selector['with-child-controls'] === 'yes';
    const pick = (node: T) => {
      chosen.add(node);
      if (withChildren) {
        nesting?.add(node);
        addDescendants(node, chosen, nesting);
      }
    };
    selector['with-ids']?.forEach((id, j) => {
      const nodes = tree.byId.get(id);
      if (nodes) nodes.forEach(pick);
      else noMatch(`${path}/${i}/with-ids/${j}`, `no control with id "${id}"`);
    });
    selector.matching?.forEach((m, j) => {
      const where = `${path}/${i}/matching/${j}`;
      if (m.pattern === undefined) return noMatch(where, 'matching without a pattern matches nothing');
      const matches = globMatcher(m.pattern);
      let any = false;
      for (const node of tree.all) {
        if (matches(node.id)) {
          pick(node);
          any = true;
        }
      }
      if (!any) noMatch(where, `no control id matches the pattern "${m.pattern}"`);
    });
  });
  return chosen;
}

function addDescendants<T extends Choosable<T>>(node: T, into: Set<T>, nesting: Set<T> | undefined): void {
  for (const child of node.children) {
    into.add(child);
    nesting?.add(child);
    addDescendants(child, into, nesting);
  }
}
