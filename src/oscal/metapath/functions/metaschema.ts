/**
 * Metaschema's own functions (recurse-depth, base64-encode, base64-decode) and OSCAL's
 * (has-oscal-namespace, resolve-profile), callable without a prefix as NIST's modules call them.
 */
import { DocumentNeeded, NS, type Ctx } from '../context.js';
import { MetapathError } from '../errors.js';
import { Atom, EMPTY, isNode, type Item, type MetaNode, type Sequence } from '../items.js';
import { compileAst, type Evaluator } from '../evaluate.js';
import { parseMetapath } from '../parser.js';
import { oneString, optAtomic, optNode, strings } from './args.js';
import { define } from './registry.js';

/** The namespace of OSCAL's own props and parts: an absent ns means it. */
export const OSCAL_NAMESPACE = 'http://csrc.nist.gov/ns/oscal';

/** recurse-depth's paths are strings made at run time; each is compiled once. */
const paths = new Map<string, Evaluator>();

function compilePath(expression: string): Evaluator {
  let path = paths.get(expression);
  if (!path) {
    path = compileAst(parseMetapath(expression));
    if (paths.size > 1000) paths.clear();
    paths.set(expression, path);
  }
  return path;
}

function hasOscalNamespace(node: MetaNode | undefined, namespaces: string[]): boolean {
  if (!node) return false;
  const ns = node.flags().find((f) => f.name === 'ns');
  return namespaces.includes(ns ? ns.stringValue() : OSCAL_NAMESPACE);
}

/**
 * The nodes reached from each start node by following the path again and again, depth first,
 * each node once (so a cycle of documents importing each other ends).
 */
function recurse(start: Sequence, path: string, ctx: Ctx): Sequence {
  const step = compilePath(path);
  const seen = new Set<Item>();
  const out: Item[] = [];
  const visit = (item: Item): void => {
    if (seen.has(item)) return;
    seen.add(item);
    out.push(item);
    if (!isNode(item)) throw new MetapathError('XPTY0004', 'recurse-depth follows its path from nodes only');
    for (const next of step(ctx.focus(item, 1, 1))) visit(next);
  };
  for (const item of start) visit(item);
  return out;
}

define(NS.oscal, {
  'has-oscal-namespace': [
    [1, 2],
    (args, ctx) => {
      if (args.length === 2)
        return [
          hasOscalNamespace(optNode(args[0]!, 'has-oscal-namespace', 0), strings(args[1]!, 'has-oscal-namespace', 1)),
        ];
      const item = ctx.contextItem();
      if (!isNode(item)) throw new MetapathError('XPTY0004', 'has-oscal-namespace needs a node as the context item');
      return [hasOscalNamespace(item, strings(args[0]!, 'has-oscal-namespace', 0))];
    },
  ],
  'resolve-profile': [
    [0, 1],
    (args, ctx) => {
      const profile = args.length === 0 ? ctx.contextItem() : optNode(args[0]!, 'resolve-profile', 0);
      if (profile === undefined) return EMPTY;
      if (!isNode(profile)) throw new MetapathError('XPTY0004', 'resolve-profile needs a profile document node');
      const resolved = ctx.dyn.documents?.resolveProfile?.(profile);
      if (resolved === undefined) {
        if (!ctx.dyn.documents?.resolveProfile)
          throw new MetapathError(
            'FODC0002',
            'no profile can be resolved here: there is nothing to load its imports from',
          );
        throw new DocumentNeeded('', 'resolved-profile', profile);
      }
      if (resolved === null) {
        const reason = ctx.dyn.documents?.resolveReason?.(profile);
        throw new MetapathError('FODC0002', `the profile cannot be resolved${reason ? `: ${reason}` : ''}`);
      }
      return [resolved];
    },
  ],
});

define(NS.mp, {
  'recurse-depth': [
    [1, 2],
    (args, ctx) =>
      args.length === 1
        ? recurse([ctx.contextItem()], oneString(args[0]!, 'recurse-depth', 0), ctx)
        : recurse(args[0]!, oneString(args[1]!, 'recurse-depth', 1), ctx),
  ],
  'base64-encode': [
    1,
    ([text]) => {
      const value = optAtomic(text!, 'base64-encode', 0);
      return value === undefined
        ? EMPTY
        : [new Atom('base64Binary', Buffer.from(oneString([value], 'base64-encode', 0), 'utf8').toString('base64'))];
    },
  ],
  'base64-decode': [
    1,
    ([data]) => {
      const value = optAtomic(data!, 'base64-decode', 0);
      if (value === undefined) return EMPTY;
      const encoded =
        value instanceof Atom && value.type === 'base64Binary'
          ? (value.value as string)
          : oneString([value], 'base64-decode', 0);
      return [Buffer.from(encoded, 'base64').toString('utf8')];
    },
  ],
});
