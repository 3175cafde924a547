/** Axes, node tests and document order over MetaNodes. */
import type { Axis, NodeTest } from './ast.js';
import type { MetaNode } from './items.js';

export type NodeFilter = (node: MetaNode) => boolean;

const ANY: NodeFilter = () => true;

/**
 * A node test as a predicate. Names match by local name: every node of a document is in its
 * model's namespace, so a prefix bound to another namespace matches nothing (`foreign`).
 * On the flag axis the principal node kind is the flag, elsewhere the field and the assembly.
 */
export function nodeFilter(test: NodeTest, axis: Axis, foreign: boolean): NodeFilter {
  if (test.t === 'kind') {
    const name = test.name === undefined || test.name === '*' ? undefined : test.name;
    const named = (kinds: (n: MetaNode) => boolean): NodeFilter =>
      name === undefined ? kinds : (n) => kinds(n) && n.name === name;
    switch (test.kind) {
      case 'node':
        return ANY;
      case 'document':
        return (n) => n.kind === 'document' && (name === undefined || n.children()[0]?.name === name);
      case 'flag':
        return named((n) => n.kind === 'flag');
      case 'field':
        return named((n) => n.kind === 'field');
      case 'assembly':
        return named((n) => n.kind === 'assembly');
      case 'element':
        return named((n) => n.kind === 'field' || n.kind === 'assembly');
    }
  }
  if (foreign) return () => false;
  const principal = axis === 'attribute' ? 'flag' : undefined;
  const local = test.name.local;
  if (local === '*') return principal ? (n) => n.kind === 'flag' : (n) => n.kind === 'field' || n.kind === 'assembly';
  if (principal) return (n) => n.name === local && n.kind === 'flag';
  return (n) => n.name === local && (n.kind === 'field' || n.kind === 'assembly');
}

/**
 * The nodes an axis reaches from `node` that pass `filter`, in the axis's own order: document
 * order for forward axes, the reverse for ancestor, preceding and preceding-sibling (XPath
 * counts positions along the axis).
 */
export function axisNodes(axis: Axis, node: MetaNode, filter: NodeFilter): MetaNode[] {
  const out: MetaNode[] = [];
  switch (axis) {
    case 'child':
      for (const c of node.children()) if (filter(c)) out.push(c);
      return out;
    case 'attribute':
      for (const f of node.flags()) if (filter(f)) out.push(f);
      return out;
    case 'self':
      if (filter(node)) out.push(node);
      return out;
    case 'parent':
      if (node.parent && filter(node.parent)) out.push(node.parent);
      return out;
    case 'descendant':
      descendants(node, filter, out);
      return out;
    case 'descendant-or-self':
      if (filter(node)) out.push(node);
      descendants(node, filter, out);
      return out;
    case 'ancestor':
      for (let p = node.parent; p; p = p.parent) if (filter(p)) out.push(p);
      return out;
    case 'ancestor-or-self':
      for (let p: MetaNode | undefined = node; p; p = p.parent) if (filter(p)) out.push(p);
      return out;
    case 'following-sibling':
    case 'preceding-sibling': {
      if (!node.parent || node.kind === 'flag') return out;
      const siblings = node.parent.children();
      const at = siblings.indexOf(node);
      if (axis === 'following-sibling') {
        for (let i = at + 1; i < siblings.length; i++) if (filter(siblings[i]!)) out.push(siblings[i]!);
      } else {
        for (let i = at - 1; i >= 0; i--) if (filter(siblings[i]!)) out.push(siblings[i]!);
      }
      return out;
    }
    case 'following':
      // Everything after the node's subtree: the following siblings of it and of each ancestor, with their descendants.
      for (let n: MetaNode | undefined = node.kind === 'flag' ? node.parent : node; n?.parent; n = n.parent) {
        for (const s of axisNodes('following-sibling', n, ANY)) {
          if (filter(s)) out.push(s);
          descendants(s, filter, out);
        }
      }
      if (node.kind === 'flag' && node.parent) descendants(node.parent, filter, out);
      return sortInPlace(out);
    case 'preceding': {
      const ancestors = new Set<MetaNode>();
      for (let p = node.parent; p; p = p.parent) ancestors.add(p);
      const root = rootOf(node);
      const all: MetaNode[] = [];
      descendants(root, filter, all);
      for (let i = all.length - 1; i >= 0; i--) {
        const n = all[i]!;
        if (n.order < node.order && !ancestors.has(n)) out.push(n);
      }
      return out;
    }
  }
}

/** Flags are attributes: no axis but attribute (and self, parent, ancestors) reaches them. */
function descendants(node: MetaNode, filter: NodeFilter, out: MetaNode[]): void {
  const children = node.children();
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    if (filter(c)) out.push(c);
    if (c.kind === 'assembly' || c.kind === 'document') descendants(c, filter, out);
  }
}

export function rootOf(node: MetaNode): MetaNode {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}

export function isReverse(axis: Axis): boolean {
  return (
    axis === 'ancestor' ||
    axis === 'ancestor-or-self' ||
    axis === 'preceding' ||
    axis === 'preceding-sibling' ||
    axis === 'parent'
  );
}

export function compareOrder(a: MetaNode, b: MetaNode): number {
  return a.document.sequence === b.document.sequence ? a.order - b.order : a.document.sequence - b.document.sequence;
}

function sortInPlace(nodes: MetaNode[]): MetaNode[] {
  return nodes.sort(compareOrder);
}

/** Nodes in document order without duplicates; nothing is copied when they already are. */
export function documentOrder(nodes: MetaNode[]): MetaNode[] {
  for (let i = 1; i < nodes.length; i++) {
    if (compareOrder(nodes[i - 1]!, nodes[i]!) >= 0) return dedupeSorted(sortInPlace(nodes.slice()));
  }
  return nodes;
}

function dedupeSorted(nodes: MetaNode[]): MetaNode[] {
  const out: MetaNode[] = [];
  for (const n of nodes) if (out.length === 0 || out[out.length - 1] !== n) out.push(n);
  return out;
}
