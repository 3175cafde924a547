/** Functions on nodes (F&O 2.5, 13.1, 14.6): names, roots, paths and the document-order helpers. */
import { NS } from '../context.js';
import { MetapathError } from '../errors.js';
import { Atom, EMPTY, isNode, type MetaNode, type Sequence } from '../items.js';
import { documentOrder, rootOf } from '../steps.js';
import { optNode } from './args.js';
import { define } from './registry.js';

function nodeArg(args: Sequence[], ctx: { contextItem(): unknown }, fn: string): MetaNode | undefined {
  if (args.length === 0) {
    const item = ctx.contextItem() as Sequence[number];
    return optNode([item], fn, 0);
  }
  return optNode(args[0]!, fn, 0);
}

/**
 * The Metapath of a node: each step by name with its position among siblings of that name,
 * flags as @name, e.g. /catalog[1]/group[2]/control[1]/@id. This is what fn:path gives, and
 * what findings name their node by.
 */
export function metapathOf(node: MetaNode): string {
  if (node.kind === 'document') return '/';
  const steps: string[] = [];
  for (let n: MetaNode | undefined = node; n && n.kind !== 'document'; n = n.parent) {
    if (n.kind === 'flag') {
      steps.push(`@${n.name}`);
      continue;
    }
    let position = 1;
    if (n.parent) {
      for (const sibling of n.parent.children()) {
        if (sibling === n) break;
        if (sibling.name === n.name) position++;
      }
    }
    steps.push(`${n.name}[${position}]`);
  }
  const root = rootOf(node);
  return (root.kind === 'document' ? '/' : '') + steps.reverse().join('/');
}

function subtreeRelation(nodes: MetaNode[], keepAncestors: boolean): MetaNode[] {
  const set = new Set(nodes);
  return documentOrder(
    nodes.filter((n) => {
      if (keepAncestors) {
        // outermost: no ancestor of n is in the set.
        for (let p = n.parent; p; p = p.parent) if (set.has(p)) return false;
        return true;
      }
      // innermost: no other node of the set has n as its ancestor.
      return !nodes.some((m) => m !== n && isAncestor(n, m));
    }),
  );
}

function isAncestor(a: MetaNode, b: MetaNode): boolean {
  for (let p = b.parent; p; p = p.parent) if (p === a) return true;
  return false;
}

function nodes(seq: Sequence, fn: string): MetaNode[] {
  return seq.map((item, i) => {
    if (!isNode(item)) throw new MetapathError('XPTY0004', `${fn} takes nodes, but item ${i + 1} is not one`);
    return item;
  });
}

define(NS.fn, {
  name: [
    [0, 1],
    (args, ctx) => {
      const node = nodeArg(args, ctx, 'fn:name');
      return [node && node.kind !== 'document' ? node.name : ''];
    },
  ],
  'local-name': [
    [0, 1],
    (args, ctx) => {
      const node = nodeArg(args, ctx, 'fn:local-name');
      return [node && node.kind !== 'document' ? node.name : ''];
    },
  ],
  'namespace-uri': [
    [0, 1],
    (args, ctx) => {
      const node = nodeArg(args, ctx, 'fn:namespace-uri');
      const named = node !== undefined && (node.kind === 'assembly' || node.kind === 'field');
      return [new Atom('anyURI', named ? node.document.namespace : '')];
    },
  ],
  root: [
    [0, 1],
    (args, ctx) => {
      const node = nodeArg(args, ctx, 'fn:root');
      return node ? [rootOf(node)] : EMPTY;
    },
  ],
  path: [
    [0, 1],
    (args, ctx) => {
      const node = nodeArg(args, ctx, 'fn:path');
      return node ? [metapathOf(node)] : EMPTY;
    },
  ],
  'has-children': [
    [0, 1],
    (args, ctx) => {
      const node = nodeArg(args, ctx, 'fn:has-children');
      return [node !== undefined && node.children().length > 0];
    },
  ],
  innermost: [1, ([seq]) => subtreeRelation(nodes(seq!, 'fn:innermost'), false)],
  outermost: [1, ([seq]) => subtreeRelation(nodes(seq!, 'fn:outermost'), true)],
  'document-uri': [
    [0, 1],
    (args, ctx) => {
      const node = nodeArg(args, ctx, 'fn:document-uri');
      return node?.kind === 'document' && node.document.uri !== undefined ? [node.document.uri] : EMPTY;
    },
  ],
  'base-uri': [
    [0, 1],
    (args, ctx) => {
      const node = nodeArg(args, ctx, 'fn:base-uri');
      const uri = node?.document.uri ?? ctx.dyn.baseUri;
      return uri === undefined ? EMPTY : [uri];
    },
  ],
});
