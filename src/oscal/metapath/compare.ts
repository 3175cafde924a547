/**
 * Value and general comparisons (XPath 3.1 3.7) and the equality that distinct-values,
 * index-of and deep-equal use.
 */
import { castAs } from './casts.js';
import { MetapathError } from './errors.js';
import { Atom, isNumeric, numericValue, stringOf, typeOf, type Atomic, type AtomicType } from './items.js';
import {
  adjustToTimezone,
  compareDurations,
  compareTemporal,
  durationsEqual,
  formatTemporal,
  type DurationValue,
  type TemporalValue,
} from './temporal.js';

export type ValueOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

export const GENERAL_TO_VALUE: Record<string, ValueOp> = {
  '=': 'eq',
  '!=': 'ne',
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
};

const STRINGLIKE = new Set<AtomicType>(['string', 'anyURI', 'untypedAtomic']);
const TEMPORAL = new Set<AtomicType>([
  'dateTime',
  'date',
  'time',
  'gYearMonth',
  'gYear',
  'gMonthDay',
  'gDay',
  'gMonth',
]);
const DURATIONS = new Set<AtomicType>(['duration', 'yearMonthDuration', 'dayTimeDuration']);
const ORDERED_TEMPORAL = new Set<AtomicType>(['dateTime', 'date', 'time']);

function holds(op: ValueOp, c: number): boolean {
  switch (op) {
    case 'eq':
      return c === 0;
    case 'ne':
      return c !== 0;
    case 'lt':
      return c < 0;
    case 'le':
      return c <= 0;
    case 'gt':
      return c > 0;
    case 'ge':
      return c >= 0;
  }
}

/**
 * `a op b` for two atomic values (a value comparison: untypedAtomic counts as a string).
 * `timezone` is the implicit timezone, in minutes, for dates and times without one.
 */
export function valueCompare(op: ValueOp, a: Atomic, b: Atomic, timezone: number): boolean {
  if (typeof a === 'string' && typeof b === 'string') return holds(op, a < b ? -1 : a > b ? 1 : 0);
  if (typeof a === 'number' && typeof b === 'number') return holds(op, a < b ? -1 : a > b ? 1 : 0);
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (isNumeric(a) && isNumeric(b)) {
    const x = numericValue(a);
    const y = numericValue(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return op === 'ne';
    return holds(op, x < y ? -1 : x > y ? 1 : 0);
  }
  if (STRINGLIKE.has(ta) && STRINGLIKE.has(tb)) {
    const x = typeof a === 'string' ? a : ((a as Atom).value as string);
    const y = typeof b === 'string' ? b : ((b as Atom).value as string);
    return holds(op, x < y ? -1 : x > y ? 1 : 0);
  }
  if (ta === 'boolean' && tb === 'boolean') return holds(op, Number(a) - Number(b));
  if (ta === tb && TEMPORAL.has(ta)) {
    if (!ORDERED_TEMPORAL.has(ta) && op !== 'eq' && op !== 'ne') throw incomparable(ta, tb, op);
    return holds(op, compareTemporal((a as Atom).value as TemporalValue, (b as Atom).value as TemporalValue, timezone));
  }
  if (DURATIONS.has(ta) && DURATIONS.has(tb)) {
    const x = (a as Atom).value as DurationValue;
    const y = (b as Atom).value as DurationValue;
    if (op === 'eq' || op === 'ne') return holds(op, durationsEqual(x, y) ? 0 : 1);
    if (ta !== tb || ta === 'duration') throw incomparable(ta, tb, op);
    return holds(op, compareDurations(x, y));
  }
  if (ta === tb && (ta === 'base64Binary' || ta === 'hexBinary')) {
    // F&O 3.1 10.1: binary values are ordered by their octets.
    const encoding = ta === 'hexBinary' ? 'hex' : 'base64';
    const x = Buffer.from((a as Atom).value as string, encoding);
    const y = Buffer.from((b as Atom).value as string, encoding);
    return holds(op, Buffer.compare(x, y));
  }
  if (ta === 'QName' && tb === 'QName' && (op === 'eq' || op === 'ne')) {
    const x = (a as Atom<'QName'>).value;
    const y = (b as Atom<'QName'>).value;
    return holds(op, x.uri === y.uri && x.local === y.local ? 0 : 1);
  }
  throw incomparable(ta, tb, op);
}

function incomparable(a: AtomicType, b: AtomicType, op: string): MetapathError {
  return new MetapathError(
    'XPTY0004',
    a === b
      ? `values of type xs:${a} cannot be compared with ${op}`
      : `a value of type xs:${a} cannot be compared with one of type xs:${b}`,
  );
}

/**
 * The comparison the eq, lt, … operators make, as metaschema-java makes it
 * (ComparisonFunctions.compare): where one side is an xs:string, the other side's text is
 * compared with it, whatever its type. XPath 3.1 raises XPTY0004 there instead; a constraint
 * comparing a text flag with a date would then never run. Every other pair is XPath's.
 */
export function operatorCompare(op: ValueOp, a: Atomic, b: Atomic, timezone: number): boolean {
  if ((typeof a === 'string') !== (typeof b === 'string')) {
    const x = stringOf(a);
    const y = stringOf(b);
    return holds(op, x < y ? -1 : x > y ? 1 : 0);
  }
  return valueCompare(op, a, b, timezone);
}

/**
 * One pair of a general comparison (XPath 3.1 3.7.2): an untypedAtomic side is cast to the
 * other side's type (to xs:double against a number, to xs:string against text or untypedAtomic).
 */
export function generalPair(op: ValueOp, a: Atomic, b: Atomic, timezone: number): boolean {
  const ua = a instanceof Atom && a.type === 'untypedAtomic';
  const ub = b instanceof Atom && b.type === 'untypedAtomic';
  if (ua || ub) {
    if (ua && ub) return valueCompare(op, (a as Atom).value as string, (b as Atom).value as string, timezone);
    if (ua) a = castUntyped(a as Atom, b);
    else b = castUntyped(b as Atom, a);
  }
  return operatorCompare(op, a, b, timezone);
}

function castUntyped(untyped: Atom, other: Atomic): Atomic {
  if (isNumeric(other)) return castAs(untyped, 'double');
  const type = typeOf(other);
  if (STRINGLIKE.has(type)) return untyped.value as string;
  return castAs(untyped, type);
}

export function generalCompare(
  op: ValueOp,
  left: readonly Atomic[],
  right: readonly Atomic[],
  timezone: number,
): boolean {
  for (const a of left) for (const b of right) if (generalPair(op, a, b, timezone)) return true;
  return false;
}

/**
 * Equality as fn:distinct-values and fn:index-of define it (F&O 14.2.1 deep-equal on atomics):
 * values that cannot be compared are simply unequal, and NaN equals NaN.
 */
export function atomicEqual(a: Atomic, b: Atomic, timezone: number): boolean {
  if (a === b) return true;
  if (isNumeric(a) && isNumeric(b)) {
    const x = numericValue(a);
    const y = numericValue(b);
    return x === y || (Number.isNaN(x) && Number.isNaN(y));
  }
  try {
    return valueCompare('eq', a, b, timezone);
  } catch (e) {
    if (e instanceof MetapathError) return false;
    throw e;
  }
}

/**
 * A key under which equal atomic values (as atomicEqual has them) meet: for hashing in
 * distinct-values, maps and index lookups. Numbers of every type share their keys.
 */
export function keyOf(value: Atomic, timezone: number): string {
  switch (typeof value) {
    case 'string':
      return `s${value}`;
    case 'number':
      return `n${value}`;
    case 'boolean':
      return value ? 'bt' : 'bf';
  }
  switch (value.type) {
    case 'untypedAtomic':
    case 'anyURI':
      return `s${value.value as string}`;
    case 'decimal':
    case 'double':
    case 'float':
      return `n${value.value as number}`;
    case 'dateTime':
    case 'date':
    case 'time':
    case 'gYearMonth':
    case 'gYear':
    case 'gMonthDay':
    case 'gDay':
    case 'gMonth': {
      // Equal instants in different timezones must meet: key by the instant in UTC.
      const t = value.value as TemporalValue;
      return `t${formatTemporal(adjustToTimezone({ ...t, tz: t.tz ?? timezone }, 0))}`;
    }
    case 'duration':
    case 'yearMonthDuration':
    case 'dayTimeDuration': {
      const d = value.value as DurationValue;
      return `d${d.months}/${d.seconds}`;
    }
    case 'QName': {
      const q = value.value as { uri: string; local: string };
      return `q{${q.uri}}${q.local}`;
    }
    default:
      return `${value.type}:${String(value.value)}`;
  }
}
