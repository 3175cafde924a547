/**
 * XPath's function conversion rules (3.1.5.2) for the argument types the library uses:
 * atomization, xs:untypedAtomic cast to the expected type, xs:anyURI promoted to xs:string,
 * numeric promotion; and the cardinality checks, each failing with a message that names the
 * function and the argument.
 */
import { castAs } from '../casts.js';
import { MetapathError } from '../errors.js';
import {
  Atom,
  atomize,
  isNode,
  type Atomic,
  type Item,
  type MetaNode,
  type Sequence,
  XArray,
  XFunction,
  XMap,
} from '../items.js';
import { asFunction } from '../lookup.js';

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];

export function argName(fn: string, index: number): string {
  return `the ${ORDINALS[index] ?? `${index + 1}th`} argument of ${fn}`;
}

function typeError(fn: string, index: number, expected: string, got: string): MetapathError {
  return new MetapathError('XPTY0004', `${argName(fn, index)} must be ${expected}, not ${got}`);
}

function describe(value: Atomic): string {
  return typeof value === 'string'
    ? 'a string'
    : typeof value === 'number'
      ? 'an integer'
      : typeof value === 'boolean'
        ? 'a boolean'
        : `an xs:${value.type}`;
}

/** Zero or one atomic value. */
export function optAtomic(seq: Sequence, fn: string, index: number): Atomic | undefined {
  const atoms = atomize(seq);
  if (atoms.length > 1)
    throw new MetapathError('XPTY0004', `${argName(fn, index)} must be one value at most, not ${atoms.length}`);
  return atoms[0];
}

export function oneAtomic(seq: Sequence, fn: string, index: number): Atomic {
  const value = optAtomic(seq, fn, index);
  if (value === undefined)
    throw new MetapathError('XPTY0004', `${argName(fn, index)} must be a value, not an empty sequence`);
  return value;
}

function asString(value: Atomic, fn: string, index: number): string {
  if (typeof value === 'string') return value;
  if (value instanceof Atom && (value.type === 'untypedAtomic' || value.type === 'anyURI'))
    return value.value as string;
  throw typeError(fn, index, 'a string', describe(value));
}

/** xs:string?: undefined for the empty sequence. */
export function optString(seq: Sequence, fn: string, index: number): string | undefined {
  const value = optAtomic(seq, fn, index);
  return value === undefined ? undefined : asString(value, fn, index);
}

/** xs:string? where F&O treats the empty sequence as "". */
export function stringOrEmpty(seq: Sequence, fn: string, index: number): string {
  return optString(seq, fn, index) ?? '';
}

export function oneString(seq: Sequence, fn: string, index: number): string {
  return asString(oneAtomic(seq, fn, index), fn, index);
}

export function strings(seq: Sequence, fn: string, index: number): string[] {
  return atomize(seq).map((v) => asString(v, fn, index));
}

/** A numeric argument (xs:numeric?), untypedAtomic cast to xs:double. */
export function optNumeric(seq: Sequence, fn: string, index: number): Atomic | undefined {
  const value = optAtomic(seq, fn, index);
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  if (value instanceof Atom) {
    if (value.type === 'untypedAtomic') return castAs(value, 'double');
    if (value.type === 'decimal' || value.type === 'double' || value.type === 'float') return value;
  }
  throw typeError(fn, index, 'a number', describe(value));
}

/** A number argument as a JavaScript number (xs:double after promotion). */
export function oneNumber(seq: Sequence, fn: string, index: number): number {
  const value = optNumeric(seq, fn, index);
  if (value === undefined)
    throw new MetapathError('XPTY0004', `${argName(fn, index)} must be a number, not an empty sequence`);
  return typeof value === 'number' ? value : ((value as Atom).value as number);
}

export function oneInteger(seq: Sequence, fn: string, index: number): number {
  const value = oneAtomic(seq, fn, index);
  if (typeof value === 'number') return value;
  if (value instanceof Atom && value.type === 'untypedAtomic') return castAs(value, 'integer') as number;
  throw typeError(fn, index, 'an integer', describe(value));
}

export function oneBoolean(seq: Sequence, fn: string, index: number): boolean {
  const value = oneAtomic(seq, fn, index);
  if (typeof value === 'boolean') return value;
  if (value instanceof Atom && value.type === 'untypedAtomic') return castAs(value, 'boolean') as boolean;
  throw typeError(fn, index, 'a boolean', describe(value));
}

export function optNode(seq: Sequence, fn: string, index: number): MetaNode | undefined {
  if (seq.length > 1)
    throw new MetapathError('XPTY0004', `${argName(fn, index)} must be one node at most, not ${seq.length} items`);
  const item = seq[0];
  if (item === undefined) return undefined;
  if (!isNode(item)) throw new MetapathError('XPTY0004', `${argName(fn, index)} must be a node`);
  return item;
}

export function oneItem(seq: Sequence, fn: string, index: number): Item {
  if (seq.length !== 1)
    throw new MetapathError('XPTY0004', `${argName(fn, index)} must be exactly one item, not ${seq.length}`);
  return seq[0]!;
}

export function oneMap(seq: Sequence, fn: string, index: number): XMap {
  const item = oneItem(seq, fn, index);
  if (!(item instanceof XMap)) throw new MetapathError('XPTY0004', `${argName(fn, index)} must be a map`);
  return item;
}

export function oneArray(seq: Sequence, fn: string, index: number): XArray {
  const item = oneItem(seq, fn, index);
  if (!(item instanceof XArray)) throw new MetapathError('XPTY0004', `${argName(fn, index)} must be an array`);
  return item;
}

/** A function item of the given arity (maps and arrays are functions of one argument). */
export function oneFunction(seq: Sequence, fn: string, index: number, arity: number): XFunction {
  const item = oneItem(seq, fn, index);
  if (item instanceof XFunction) {
    if (item.arity !== arity)
      throw new MetapathError(
        'XPTY0004',
        `${argName(fn, index)} must be a function of ${arity} argument${arity === 1 ? '' : 's'}, not ${item.arity}`,
      );
    return item;
  }
  if ((item instanceof XMap || item instanceof XArray) && arity === 1) return asFunction(item);
  throw new MetapathError('XPTY0004', `${argName(fn, index)} must be a function`);
}
