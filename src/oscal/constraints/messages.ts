/** The words findings are made of. */
import type { MetaNode } from '../metapath/index.js';
import type { Constraint } from './model.js';

const LONGEST_QUOTE = 80;

export function quote(text: string): string {
  return `"${text.length > LONGEST_QUOTE ? `${text.slice(0, LONGEST_QUOTE)}…` : text}"`;
}

/** A node as a person finds it: prop/@name for a flag, the element name otherwise. */
export function nodeLabel(node: MetaNode): string {
  if (node.kind === 'flag') return `${node.parent?.name ?? ''}/@${node.name}`;
  return node.kind === 'document' ? 'the document' : node.name;
}

export function describeConstraint(rule: Constraint): string {
  return rule.formalName ? `"${rule.formalName}"` : `${rule.kind} ${rule.id}`;
}
