/** Map and array access: the lookup operator `?`, and maps and arrays called as functions. */
import { keyOf } from './compare.js';
import { MetapathError } from './errors.js';
import { atomize, XArray, XFunction, XMap, type Atomic, type Sequence } from './items.js';

/**
 * Map keys compare as op:same-key does; a date or time without a timezone is keyed as if in
 * UTC, so it meets the same instant written with Z (a simplification of same-key, which keeps
 * the two apart).
 */
export function mapKey(key: Atomic): string {
  return keyOf(key, 0);
}

export function mapGet(map: XMap, key: Atomic): Sequence {
  return map.entries.get(mapKey(key))?.value ?? [];
}

export function arrayGet(array: XArray, index: Atomic): Sequence {
  if (typeof index !== 'number') throw new MetapathError('XPTY0004', 'an array is looked up by an integer position');
  const member = array.members[index - 1];
  if (member === undefined)
    throw new MetapathError('FOAY0001', `position ${index} is outside the array of ${array.members.length} members`);
  return member;
}

/** A map or an array as the function of one argument that looks its argument up. */
export function asFunction(item: XMap | XArray | XFunction): XFunction {
  if (item instanceof XFunction) return item;
  return new XFunction(item instanceof XMap ? 'map' : 'array', 1, ([arg]) => {
    const keys = atomize(arg!);
    if (keys.length !== 1)
      throw new MetapathError('XPTY0004', `a ${item instanceof XMap ? 'map' : 'array'} is called with exactly one key`);
    return item instanceof XMap ? mapGet(item, keys[0]!) : arrayGet(item, keys[0]!);
  });
}
