/** array: functions (F&O 17.3). */
import { NS } from '../context.js';
import { MetapathError } from '../errors.js';
import { ebv, XArray, type Item, type Sequence } from '../items.js';
import { oneArray, oneFunction, oneInteger } from './args.js';
import { define } from './registry.js';
import { sortKeys } from './higher-order.js';

function position(array: XArray, at: number, fn: string, allowEnd = false): number {
  const limit = array.members.length + (allowEnd ? 1 : 0);
  if (at < 1 || at > limit)
    throw new MetapathError(
      'FOAY0001',
      `${fn}: position ${at} is outside the array of ${array.members.length} members`,
    );
  return at - 1;
}

define(NS.array, {
  size: [1, ([a]) => [oneArray(a!, 'array:size', 0).members.length]],
  get: [
    2,
    ([a, at]) => {
      const array = oneArray(a!, 'array:get', 0);
      return array.members[position(array, oneInteger(at!, 'array:get', 1), 'array:get')]!;
    },
  ],
  put: [
    3,
    ([a, at, value]) => {
      const array = oneArray(a!, 'array:put', 0);
      const members = array.members.slice();
      members[position(array, oneInteger(at!, 'array:put', 1), 'array:put')] = value!;
      return [new XArray(members)];
    },
  ],
  append: [2, ([a, value]) => [new XArray([...oneArray(a!, 'array:append', 0).members, value!])]],
  subarray: [
    [2, 3],
    ([a, start, length]) => {
      const array = oneArray(a!, 'array:subarray', 0);
      const from = oneInteger(start!, 'array:subarray', 1);
      const count = length === undefined ? array.members.length - from + 1 : oneInteger(length, 'array:subarray', 2);
      if (count < 0) throw new MetapathError('FOAY0002', 'array:subarray: the length is negative');
      position(array, from, 'array:subarray', true);
      position(array, from + count, 'array:subarray', true);
      return [new XArray(array.members.slice(from - 1, from - 1 + count))];
    },
  ],
  remove: [
    2,
    ([a, at]) => {
      const array = oneArray(a!, 'array:remove', 0);
      const drop = new Set(
        (at as Item[]).map((p) => position(array, oneInteger([p], 'array:remove', 1), 'array:remove')),
      );
      return [new XArray(array.members.filter((_, i) => !drop.has(i)))];
    },
  ],
  'insert-before': [
    3,
    ([a, at, value]) => {
      const array = oneArray(a!, 'array:insert-before', 0);
      const members = array.members.slice();
      members.splice(
        position(array, oneInteger(at!, 'array:insert-before', 1), 'array:insert-before', true),
        0,
        value!,
      );
      return [new XArray(members)];
    },
  ],
  head: [
    1,
    ([a]) => {
      const array = oneArray(a!, 'array:head', 0);
      if (array.members.length === 0) throw new MetapathError('FOAY0001', 'array:head of an empty array');
      return array.members[0]!;
    },
  ],
  tail: [
    1,
    ([a]) => {
      const array = oneArray(a!, 'array:tail', 0);
      if (array.members.length === 0) throw new MetapathError('FOAY0001', 'array:tail of an empty array');
      return [new XArray(array.members.slice(1))];
    },
  ],
  reverse: [1, ([a]) => [new XArray(oneArray(a!, 'array:reverse', 0).members.slice().reverse())]],
  join: [1, ([arrays]) => [new XArray((arrays as Item[]).flatMap((a) => oneArray([a], 'array:join', 0).members))]],
  flatten: [
    1,
    ([seq]) => {
      const out: Item[] = [];
      const walk = (item: Item): void => {
        if (item instanceof XArray) item.members.forEach((m) => m.forEach(walk));
        else out.push(item);
      };
      seq!.forEach(walk);
      return out;
    },
  ],
  'for-each': [
    2,
    ([a, action]) => {
      const f = oneFunction(action!, 'array:for-each', 1, 1);
      return [new XArray(oneArray(a!, 'array:for-each', 0).members.map((m) => f.call([m])))];
    },
  ],
  filter: [
    2,
    ([a, test]) => {
      const f = oneFunction(test!, 'array:filter', 1, 1);
      return [new XArray(oneArray(a!, 'array:filter', 0).members.filter((m) => ebv(f.call([m]))))];
    },
  ],
  'fold-left': [
    3,
    ([a, zero, action]) => {
      const f = oneFunction(action!, 'array:fold-left', 2, 2);
      return oneArray(a!, 'array:fold-left', 0).members.reduce<Sequence>((acc, m) => f.call([acc, m]), zero!);
    },
  ],
  'fold-right': [
    3,
    ([a, zero, action]) => {
      const f = oneFunction(action!, 'array:fold-right', 2, 2);
      return oneArray(a!, 'array:fold-right', 0).members.reduceRight<Sequence>((acc, m) => f.call([m, acc]), zero!);
    },
  ],
  'for-each-pair': [
    3,
    ([a, b, action]) => {
      const f = oneFunction(action!, 'array:for-each-pair', 2, 2);
      const x = oneArray(a!, 'array:for-each-pair', 0).members;
      const y = oneArray(b!, 'array:for-each-pair', 1).members;
      return [new XArray(x.slice(0, Math.min(x.length, y.length)).map((m, i) => f.call([m, y[i]!])))];
    },
  ],
  sort: [
    [1, 3],
    ([a, collation, key], ctx) => {
      const members = oneArray(a!, 'array:sort', 0).members;
      return [new XArray(sortKeys(members, collation, key, 'array:sort', ctx.dyn.timezone))];
    },
  ],
});
