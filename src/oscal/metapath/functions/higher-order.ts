/** Higher-order functions on sequences (F&O 16.2) and fn:sort (F&O 14.1). */
import { valueCompare } from '../compare.js';
import { NS } from '../context.js';
import { MetapathError } from '../errors.js';
import { atomize, EMPTY, stringOf, XFunction, type Atomic, type Item, type Sequence } from '../items.js';
import { oneArray, oneAtomic, oneFunction, oneInteger, optString } from './args.js';
import { define, lookupFunction } from './registry.js';

function compareKeys(a: Atomic[], b: Atomic[], fn: string, timezone: number): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    try {
      if (valueCompare('lt', a[i]!, b[i]!, timezone)) return -1;
      if (valueCompare('gt', a[i]!, b[i]!, timezone)) return 1;
    } catch (e) {
      if (e instanceof MetapathError)
        throw new MetapathError('XPTY0004', `${fn}: the sort keys cannot be compared: ${e.message}`);
      throw e;
    }
  }
  return a.length - b.length;
}

/** fn:sort and array:sort: by the key function's atomized values (default: the values themselves), stable. */
export function sortKeys<T extends Sequence | Item>(
  items: readonly T[],
  collation: Sequence | undefined,
  key: Sequence | undefined,
  fn: string,
  timezone: number,
): T[] {
  if (
    collation &&
    collation.length > 0 &&
    optString(collation, fn, 1) !== 'http://www.w3.org/2005/xpath-functions/collation/codepoint'
  ) {
    throw new MetapathError('FOCH0002', `${fn}: only the codepoint collation is supported`);
  }
  const f = key ? oneFunction(key, fn, 2, 1) : undefined;
  const keyed = items.map((item) => {
    const seq = (Array.isArray(item) ? item : [item]) as Sequence;
    return { item, key: atomize(f ? f.call([seq]) : seq) };
  });
  keyed.sort((a, b) => compareKeys(a.key, b.key, fn, timezone));
  return keyed.map((k) => k.item);
}

define(NS.fn, {
  sort: [[1, 3], ([seq, collation, key], ctx) => sortKeys(seq!, collation, key, 'fn:sort', ctx.dyn.timezone)],
  'for-each': [
    2,
    ([seq, action]) => {
      const f = oneFunction(action!, 'fn:for-each', 1, 1);
      const out: Item[] = [];
      for (const item of seq!) for (const r of f.call([[item]])) out.push(r);
      return out;
    },
  ],
  filter: [
    2,
    ([seq, test]) => {
      const f = oneFunction(test!, 'fn:filter', 1, 1);
      return seq!.filter((item) => {
        const r = f.call([[item]]);
        if (r.length !== 1 || typeof r[0] !== 'boolean')
          throw new MetapathError('XPTY0004', 'fn:filter: the function must return one boolean');
        return r[0];
      });
    },
  ],
  'fold-left': [
    3,
    ([seq, zero, action]) => {
      const f = oneFunction(action!, 'fn:fold-left', 2, 2);
      return seq!.reduce<Sequence>((acc, item) => f.call([acc, [item]]), zero!);
    },
  ],
  'fold-right': [
    3,
    ([seq, zero, action]) => {
      const f = oneFunction(action!, 'fn:fold-right', 2, 2);
      return seq!.reduceRight<Sequence>((acc, item) => f.call([[item], acc]), zero!);
    },
  ],
  'for-each-pair': [
    3,
    ([a, b, action]) => {
      const f = oneFunction(action!, 'fn:for-each-pair', 2, 2);
      const out: Item[] = [];
      for (let i = 0; i < Math.min(a!.length, b!.length); i++)
        for (const r of f.call([[a![i]!], [b![i]!]])) out.push(r);
      return out;
    },
  ],
  apply: [
    2,
    ([fnArg, args]) => {
      const { members } = oneArray(args!, 'fn:apply', 1);
      return oneFunction(fnArg!, 'fn:apply', 0, members.length).call(members as Sequence[]);
    },
  ],
  'function-arity': [
    1,
    ([f]) => {
      const fn = f![0];
      return [fn instanceof XFunction ? fn.arity : oneFunction(f!, 'fn:function-arity', 0, 1).arity];
    },
  ],
  'function-name': [
    1,
    ([f]) => {
      const fn = f![0];
      return fn instanceof XFunction && fn.name !== '(anonymous)' && fn.name !== 'map' && fn.name !== 'array'
        ? [fn.name]
        : EMPTY;
    },
  ],
  'function-lookup': [
    2,
    ([name, arity], ctx) => {
      const qname = stringOf(oneAtomic(name!, 'fn:function-lookup', 0));
      const n = oneInteger(arity!, 'fn:function-lookup', 1);
      const local = qname.includes(':') ? qname.slice(qname.indexOf(':') + 1) : qname;
      const def = lookupFunction(NS.fn, local, n);
      return def ? [new XFunction(local, n, (args) => def.impl(args, ctx))] : EMPTY;
    },
  ],
});
