/** Numeric functions and aggregates (F&O 4.4, 4.8, 14.4). */
import { arithmetic } from '../arithmetic.js';
import { castAs } from '../casts.js';
import { valueCompare } from '../compare.js';
import { NS } from '../context.js';
import { MetapathError } from '../errors.js';
import {
  Atom,
  atomize,
  EMPTY,
  isNumeric,
  numericValue,
  stringOf,
  typeOf,
  type Atomic,
  type Sequence,
} from '../items.js';
import { oneInteger, optNumeric, oneNumber } from './args.js';
import { define, type FunctionImpl } from './registry.js';
import { decimalOf, numberOf, roundAt } from '../decimal.js';

/** Applies `op` keeping the numeric type of the argument (an integer stays an integer). */
function sameType(value: Atomic, op: (n: number) => number): Atomic {
  if (typeof value === 'number') return op(value);
  const atom = value as Atom;
  return new Atom(atom.type as 'double', op(atom.value as number));
}

function numericArg(args: Sequence[], fn: string): Atomic | undefined {
  return optNumeric(args[0]!, fn, 0);
}

/** Round half to even at `precision` decimal places (F&O 4.4.5). */
function roundHalfEven(n: number, precision: number): number {
  const factor = 10 ** precision;
  const scaled = n * factor;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  const rounded = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1;
  return rounded / factor;
}

/** Round half towards positive infinity at `precision` decimal places (F&O 4.4.4). */
function roundHalfUp(n: number, precision: number): number {
  const factor = 10 ** precision;
  return Math.floor(n * factor + 0.5) / factor;
}

/**
 * fn:round and fn:round-half-to-even keeping the argument's type. An xs:decimal or xs:integer is
 * rounded as the decimal it prints as (round(35.425, 2) is 35.43); an xs:double as its binary
 * value (round(35.425e0, 2) is 35.42, as F&O's own example has it).
 */
function rounded(value: Atomic, precision: number, halves: 'up' | 'even'): Atomic {
  const type = typeOf(value);
  if (type !== 'integer' && type !== 'decimal') {
    const round = halves === 'up' ? roundHalfUp : roundHalfEven;
    return sameType(value, (n) => (Number.isFinite(n) ? round(n, precision) : n));
  }
  return sameType(value, (n) => numberOf(roundAt(decimalOf(n), precision, halves)));
}

/** Values for sum/avg/min/max: untypedAtomic counts as xs:double (F&O 14.4). */
function aggregateValues(seq: Sequence): Atomic[] {
  return atomize(seq).map((v) => (v instanceof Atom && v.type === 'untypedAtomic' ? castAs(v, 'double') : v));
}

/** The values of fn:sum or fn:avg added up; values that cannot be added together are FORG0006 (F&O 14.4.5). */
function addAll(values: readonly Atomic[], fn: string): Atomic {
  let total = values[0]!;
  for (const v of values.slice(1)) {
    try {
      total = arithmetic('+', total, v);
    } catch (e) {
      if (e instanceof MetapathError && e.code === 'XPTY0004')
        throw new MetapathError('FORG0006', `${fn} cannot add xs:${typeOf(total)} and xs:${typeOf(v)}`);
      throw e;
    }
  }
  return total;
}

function extreme(seq: Sequence, fn: string, pick: 'lt' | 'gt', timezone: number): Sequence {
  // xs:anyURI values take part as strings (F&O 14.4.3, 14.4.4).
  const values = aggregateValues(seq).map((v) => (v instanceof Atom && v.type === 'anyURI' ? (v.value as string) : v));
  if (values.length === 0) return EMPTY;
  let best = values[0]!;
  for (const v of values.slice(1)) {
    try {
      if (valueCompare(pick, v, best, timezone)) best = v;
    } catch (e) {
      if (e instanceof MetapathError)
        throw new MetapathError(
          'FORG0006',
          `${fn} needs values of one comparable type, but has xs:${typeOf(best)} and xs:${typeOf(v)}`,
        );
      throw e;
    }
  }
  if (values.some((v) => isNumeric(v) && Number.isNaN(numericValue(v)))) return [new Atom('double', NaN)];
  return [best];
}

/** A math: function of one xs:double? (F&O 4.8). */
function math(name: string, f: (n: number) => number): [number, FunctionImpl] {
  return [1, ([a]) => (a!.length === 0 ? EMPTY : [new Atom('double', f(oneNumber(a!, `math:${name}`, 0)))])];
}

define(NS.fn, {
  number: [
    [0, 1],
    (args, ctx) => {
      const items = args.length === 0 ? [ctx.contextItem()] : args[0]!;
      const atoms = atomize(items);
      if (atoms.length === 0) return [new Atom('double', NaN)];
      try {
        return [castAs(atoms[0]!, 'double')];
      } catch (e) {
        if (e instanceof MetapathError) return [new Atom('double', NaN)];
        throw e;
      }
    },
  ],
  abs: [
    1,
    (args) => {
      const v = numericArg(args, 'fn:abs');
      return v === undefined ? EMPTY : [sameType(v, Math.abs)];
    },
  ],
  ceiling: [
    1,
    (args) => {
      const v = numericArg(args, 'fn:ceiling');
      return v === undefined ? EMPTY : [sameType(v, Math.ceil)];
    },
  ],
  floor: [
    1,
    (args) => {
      const v = numericArg(args, 'fn:floor');
      return v === undefined ? EMPTY : [sameType(v, Math.floor)];
    },
  ],
  round: [
    [1, 2],
    (args) => {
      const v = numericArg(args, 'fn:round');
      const precision = args[1] === undefined ? 0 : oneInteger(args[1], 'fn:round', 1);
      return v === undefined ? EMPTY : [rounded(v, precision, 'up')];
    },
  ],
  'round-half-to-even': [
    [1, 2],
    (args) => {
      const v = numericArg(args, 'fn:round-half-to-even');
      const precision = args[1] === undefined ? 0 : oneInteger(args[1], 'fn:round-half-to-even', 1);
      return v === undefined ? EMPTY : [rounded(v, precision, 'even')];
    },
  ],
  sum: [
    [1, 2],
    ([seq, zero]) => {
      const values = aggregateValues(seq!);
      if (values.length === 0) return zero === undefined ? [0] : atomize(zero);
      const total = addAll(values, 'fn:sum');
      if (typeof total === 'string' || typeof total === 'boolean')
        throw new MetapathError('FORG0006', `fn:sum adds numbers and durations, not ${stringOf(total)}`);
      return [total];
    },
  ],
  avg: [
    1,
    ([seq]) => {
      const values = aggregateValues(seq!);
      if (values.length === 0) return EMPTY;
      return [arithmetic('div', addAll(values, 'fn:avg'), values.length)];
    },
  ],
  min: [[1, 2], ([seq], ctx) => extreme(seq!, 'fn:min', 'lt', ctx.dyn.timezone)],
  max: [[1, 2], ([seq], ctx) => extreme(seq!, 'fn:max', 'gt', ctx.dyn.timezone)],
});

define(NS.math, {
  pi: [0, () => [new Atom('double', Math.PI)]],
  sqrt: math('sqrt', Math.sqrt),
  exp: math('exp', Math.exp),
  exp10: math('exp10', (n) => 10 ** n),
  log: math('log', Math.log),
  log10: math('log10', Math.log10),
  sin: math('sin', Math.sin),
  cos: math('cos', Math.cos),
  tan: math('tan', Math.tan),
  asin: math('asin', Math.asin),
  acos: math('acos', Math.acos),
  atan: math('atan', Math.atan),
  pow: [
    2,
    ([a, b]) =>
      a!.length === 0 ? EMPTY : [new Atom('double', oneNumber(a!, 'math:pow', 0) ** oneNumber(b!, 'math:pow', 1))],
  ],
  atan2: [
    2,
    ([a, b]) => [new Atom('double', Math.atan2(oneNumber(a!, 'math:atan2', 0), oneNumber(b!, 'math:atan2', 1)))],
  ],
});
