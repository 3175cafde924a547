/** map: functions (F&O 17.1). */
import { NS } from '../context.js';
import { MetapathError } from '../errors.js';
import { atomize, EMPTY, stringOf, XArray, XMap, type Atomic, type Item, type Sequence } from '../items.js';
import { mapGet, mapKey } from '../lookup.js';
import { oneAtomic, oneFunction, oneMap } from './args.js';
import { define } from './registry.js';

type Entries = Map<string, { key: Atomic; value: Item[] }>;

function mapsOf(seq: Sequence, fn: string): XMap[] {
  return seq.map((item) => {
    if (!(item instanceof XMap)) throw new MetapathError('XPTY0004', `${fn} takes maps only`);
    return item;
  });
}

/** map:merge's duplicates option: use-first (the default), use-last, use-any, combine or reject. */
function duplicatesPolicy(options: Sequence | undefined): string {
  if (!options) return 'use-first';
  const value = mapGet(oneMap(options, 'map:merge', 1), 'duplicates');
  return value.length ? stringOf(oneAtomic(value, 'map:merge', 1)) : 'use-first';
}

define(NS.map, {
  merge: [
    [1, 2],
    ([maps, options]) => {
      const policy = duplicatesPolicy(options);
      if (!['use-first', 'use-last', 'use-any', 'combine', 'reject'].includes(policy)) {
        throw new MetapathError(
          'FOJS0005',
          `map:merge's duplicates option is "${policy}"; it must be use-first, use-last, use-any, combine or reject`,
        );
      }
      const out: Entries = new Map();
      for (const map of mapsOf(maps!, 'map:merge')) {
        for (const [id, entry] of map.entries) {
          const existing = out.get(id);
          if (!existing || policy === 'use-last') out.set(id, entry);
          else if (policy === 'combine') out.set(id, { key: existing.key, value: [...existing.value, ...entry.value] });
          else if (policy === 'reject')
            throw new MetapathError('FOJS0003', `map:merge found the key ${stringOf(entry.key)} twice`);
        }
      }
      return [new XMap(out)];
    },
  ],
  size: [1, ([map]) => [oneMap(map!, 'map:size', 0).entries.size]],
  keys: [1, ([map]) => [...oneMap(map!, 'map:keys', 0).entries.values()].map((e) => e.key)],
  contains: [
    2,
    ([map, key]) => [oneMap(map!, 'map:contains', 0).entries.has(mapKey(oneAtomic(key!, 'map:contains', 1)))],
  ],
  get: [2, ([map, key]) => mapGet(oneMap(map!, 'map:get', 0), oneAtomic(key!, 'map:get', 1))],
  find: [
    2,
    ([input, key]) => {
      const id = mapKey(oneAtomic(key!, 'map:find', 1));
      const found: Sequence[] = [];
      const search = (item: Item): void => {
        if (item instanceof XMap) {
          const hit = item.entries.get(id);
          if (hit) found.push(hit.value);
          for (const entry of item.entries.values()) entry.value.forEach(search);
        } else if (item instanceof XArray) item.members.forEach((m) => m.forEach(search));
      };
      input!.forEach(search);
      return [new XArray(found)];
    },
  ],
  put: [
    3,
    ([map, key, value]) => {
      const k = oneAtomic(key!, 'map:put', 1);
      const out: Entries = new Map(oneMap(map!, 'map:put', 0).entries);
      out.set(mapKey(k), { key: k, value: value! });
      return [new XMap(out)];
    },
  ],
  entry: [
    2,
    ([key, value]) => {
      const k = oneAtomic(key!, 'map:entry', 0);
      return [new XMap(new Map([[mapKey(k), { key: k, value: value! }]]))];
    },
  ],
  remove: [
    2,
    ([map, keys]) => {
      const out: Entries = new Map(oneMap(map!, 'map:remove', 0).entries);
      for (const key of atomize(keys!)) out.delete(mapKey(key));
      return [new XMap(out)];
    },
  ],
  'for-each': [
    2,
    ([map, action]) => {
      const f = oneFunction(action!, 'map:for-each', 1, 2);
      const out: Item[] = [];
      for (const entry of oneMap(map!, 'map:for-each', 0).entries.values())
        for (const item of f.call([[entry.key], entry.value])) out.push(item);
      return out.length ? out : EMPTY;
    },
  ],
});
