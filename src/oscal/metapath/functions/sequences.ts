/** Functions on sequences (F&O 14.1-14.3): cardinality, subsequences, distinct values, deep-equal. */
import { atomicEqual, keyOf } from '../compare.js';
import { NS } from '../context.js';
import { MetapathError } from '../errors.js';
import { atomize, EMPTY, isNode, XArray, XFunction, XMap, type Item, type MetaNode, type Sequence } from '../items.js';
import { oneAtomic, oneInteger, oneNumber } from './args.js';
import { define } from './registry.js';

/** F&O 14.2.1 deep-equal, for any two sequences. */
export function deepEqual(a: Sequence, b: Sequence, timezone: number): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => itemsEqual(x, b[i]!, timezone));
}

function itemsEqual(x: Item, y: Item, timezone: number): boolean {
  if (isNode(x) || isNode(y)) {
    if (!isNode(x) || !isNode(y)) return false;
    return nodesEqual(x, y, timezone);
  }
  if (x instanceof XMap || y instanceof XMap) {
    if (!(x instanceof XMap) || !(y instanceof XMap) || x.entries.size !== y.entries.size) return false;
    for (const [k, entry] of x.entries) {
      const other = y.entries.get(k);
      if (!other || !deepEqual(entry.value, other.value, timezone)) return false;
    }
    return true;
  }
  if (x instanceof XArray || y instanceof XArray) {
    if (!(x instanceof XArray) || !(y instanceof XArray) || x.members.length !== y.members.length) return false;
    return x.members.every((m, i) => deepEqual(m, y.members[i]!, timezone));
  }
  if (x instanceof XFunction || y instanceof XFunction)
    throw new MetapathError('FOTY0015', 'deep-equal cannot compare functions');
  return atomicEqual(x, y, timezone);
}

function nodesEqual(x: MetaNode, y: MetaNode, timezone: number): boolean {
  if (x.kind !== y.kind || x.name !== y.name) return false;
  if (x.kind === 'flag' || x.kind === 'field') {
    const a = x.typedValue();
    const b = y.typedValue();
    if (a === undefined || b === undefined || !atomicEqual(a, b, timezone)) return false;
  }
  const fx = x.flags();
  const fy = y.flags();
  if (fx.length !== fy.length) return false;
  for (const f of fx) {
    const g = fy.find((h) => h.name === f.name);
    if (!g || !nodesEqual(f, g, timezone)) return false;
  }
  const cx = x.children();
  const cy = y.children();
  return cx.length === cy.length && cx.every((c, i) => nodesEqual(c, cy[i]!, timezone));
}

function exactlyOne(seq: Sequence, fn: string): Sequence {
  if (seq.length !== 1) throw new MetapathError('FORG0005', `${fn} was given ${seq.length} items, not exactly one`);
  return seq;
}

define(NS.fn, {
  count: [1, ([seq]) => [seq!.length]],
  exists: [1, ([seq]) => [seq!.length > 0]],
  empty: [1, ([seq]) => [seq!.length === 0]],
  head: [1, ([seq]) => (seq!.length === 0 ? EMPTY : [seq![0]!])],
  tail: [1, ([seq]) => seq!.slice(1)],
  reverse: [1, ([seq]) => seq!.slice().reverse()],
  unordered: [1, ([seq]) => seq!],
  'zero-or-one': [
    1,
    ([seq]) => {
      if (seq!.length > 1) throw new MetapathError('FORG0003', `fn:zero-or-one was given ${seq!.length} items`);
      return seq!;
    },
  ],
  'one-or-more': [
    1,
    ([seq]) => {
      if (seq!.length === 0) throw new MetapathError('FORG0004', 'fn:one-or-more was given an empty sequence');
      return seq!;
    },
  ],
  'exactly-one': [1, ([seq]) => exactlyOne(seq!, 'fn:exactly-one')],
  'insert-before': [
    3,
    ([seq, position, inserts]) => {
      const at = Math.max(1, oneInteger(position!, 'fn:insert-before', 1));
      const items = seq!.slice();
      items.splice(Math.min(at - 1, items.length), 0, ...inserts!);
      return items;
    },
  ],
  remove: [
    2,
    ([seq, position]) => {
      const at = oneInteger(position!, 'fn:remove', 1);
      return at < 1 || at > seq!.length ? seq! : [...seq!.slice(0, at - 1), ...seq!.slice(at)];
    },
  ],
  subsequence: [
    [2, 3],
    ([seq, start, length]) => {
      const first = Math.round(oneNumber(start!, 'fn:subsequence', 1));
      const end = length === undefined ? Infinity : first + Math.round(oneNumber(length, 'fn:subsequence', 2));
      if (Number.isNaN(first) || Number.isNaN(end)) return EMPTY;
      return seq!.filter((_, i) => i + 1 >= first && i + 1 < end);
    },
  ],
  'distinct-values': [
    [1, 2],
    ([seq], ctx) => {
      const seen = new Set<string>();
      const out: Item[] = [];
      for (const v of atomize(seq!)) {
        const key = keyOf(v, ctx.dyn.timezone);
        if (!seen.has(key)) {
          seen.add(key);
          out.push(v);
        }
      }
      return out;
    },
  ],
  'index-of': [
    [2, 3],
    ([seq, search], ctx) => {
      const target = oneAtomic(search!, 'fn:index-of', 1);
      const out: number[] = [];
      atomize(seq!).forEach((v, i) => {
        if (atomicEqual(v, target, ctx.dyn.timezone)) out.push(i + 1);
      });
      return out;
    },
  ],
  'deep-equal': [[2, 3], ([a, b], ctx) => [deepEqual(a!, b!, ctx.dyn.timezone)]],
});
