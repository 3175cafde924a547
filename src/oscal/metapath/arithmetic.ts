/** Arithmetic on atomic values (XPath 3.1 3.5 and F&O 4.2, 8.4, 9.7). */
import { castAs } from './casts.js';
import { add, decimalOf, multiply, numberOf as decimalNumber, remainder, subtract } from './decimal.js';
import { MetapathError } from './errors.js';
import { Atom, typeOf, type Atomic, type AtomicType } from './items.js';
import {
  addDurations,
  addToTemporal,
  divideDuration,
  divideDurationByDuration,
  multiplyDuration,
  subtractDurations,
  subtractFromTemporal,
  subtractTemporals,
  type DurationValue,
  type TemporalValue,
} from './temporal.js';

export type ArithmeticOp = '+' | '-' | '*' | 'div' | 'idiv' | 'mod';

const NUMERIC_RANK: Partial<Record<AtomicType, number>> = { integer: 0, decimal: 1, float: 2, double: 3 };
const RANKED: AtomicType[] = ['integer', 'decimal', 'float', 'double'];
const DURATIONS = new Set<AtomicType>(['yearMonthDuration', 'dayTimeDuration']);
const TEMPORAL = new Set<AtomicType>(['dateTime', 'date', 'time']);

export function arithmetic(op: ArithmeticOp, a: Atomic, b: Atomic): Atomic {
  if (typeof a === 'number' && typeof b === 'number' && op !== 'div') return integerOp(op, a, b);
  if (a instanceof Atom && a.type === 'untypedAtomic') a = castAs(a, 'double');
  if (b instanceof Atom && b.type === 'untypedAtomic') b = castAs(b, 'double');
  const ta = typeOf(a);
  const tb = typeOf(b);
  const ra = NUMERIC_RANK[ta];
  const rb = NUMERIC_RANK[tb];
  if (ra !== undefined && rb !== undefined)
    return numericOp(op, numberOf(a), numberOf(b), RANKED[Math.max(ra, rb, op === 'div' ? 1 : 0)]!);
  if (DURATIONS.has(ta) || DURATIONS.has(tb) || TEMPORAL.has(ta) || TEMPORAL.has(tb))
    return temporalOp(op, a, b, ta, tb, ra, rb);
  throw new MetapathError('XPTY0004', `${op} is not defined for xs:${ta} and xs:${tb}`);
}

function numberOf(a: Atomic): number {
  return typeof a === 'number' ? a : ((a as Atom).value as number);
}

function integerOp(op: ArithmeticOp, a: number, b: number): Atomic {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case 'idiv':
      if (b === 0) throw divisionByZero();
      return Math.trunc(a / b);
    case 'mod':
      if (b === 0) throw divisionByZero();
      return a % b;
    default:
      return numericOp(op, a, b, 'decimal');
  }
}

function numericOp(op: ArithmeticOp, a: number, b: number, type: AtomicType): Atomic {
  const exact = type === 'integer' || type === 'decimal';
  if (type === 'decimal' && Number.isFinite(a) && Number.isFinite(b)) {
    const n = exactDecimalOp(op, a, b);
    if (n !== undefined) return new Atom('decimal', n);
  }
  let n: number;
  switch (op) {
    case '+':
      n = a + b;
      break;
    case '-':
      n = a - b;
      break;
    case '*':
      n = a * b;
      break;
    case 'div':
      if (b === 0 && exact) throw divisionByZero();
      n = a / b;
      break;
    case 'idiv':
      if (b === 0) throw divisionByZero();
      if (!Number.isFinite(a) || Number.isNaN(b))
        throw new MetapathError('FOAR0002', 'integer division of an infinite or NaN value');
      return Math.trunc(a / b);
    case 'mod':
      if (b === 0 && exact) throw divisionByZero();
      n = a % b;
      break;
  }
  if (type === 'integer') return n;
  return new Atom(type as 'decimal' | 'double' | 'float', type === 'float' ? Math.fround(n) : n);
}

/**
 * +, -, * and mod of xs:decimal values on the decimals they print as, so that 4.5 mod 1.2 is 0.9
 * and 0.1 + 0.2 is 0.3 as XPath's exact decimals have them, not binary floating point's neighbours.
 */
function exactDecimalOp(op: ArithmeticOp, a: number, b: number): number | undefined {
  const x = decimalOf(a);
  const y = decimalOf(b);
  switch (op) {
    case '+':
      return decimalNumber(add(x, y));
    case '-':
      return decimalNumber(subtract(x, y));
    case '*':
      return decimalNumber(multiply(x, y));
    case 'mod':
      if (b === 0) throw divisionByZero();
      return decimalNumber(remainder(x, y));
    default:
      return undefined;
  }
}

function divisionByZero(): MetapathError {
  return new MetapathError('FOAR0001', 'division by zero');
}

function temporalOp(
  op: ArithmeticOp,
  a: Atomic,
  b: Atomic,
  ta: AtomicType,
  tb: AtomicType,
  ra: number | undefined,
  rb: number | undefined,
): Atomic {
  const va = (a as Atom).value;
  const vb = (b as Atom).value;
  if (DURATIONS.has(ta) && ta === tb) {
    const x = va as DurationValue;
    const y = vb as DurationValue;
    if (op === '+') return new Atom(ta as 'dayTimeDuration', addDurations(x, y));
    if (op === '-') return new Atom(ta as 'dayTimeDuration', subtractDurations(x, y));
    if (op === 'div') return new Atom('decimal', divideDurationByDuration(x, y));
  }
  if (DURATIONS.has(ta) && rb !== undefined && (op === '*' || op === 'div')) {
    const d = va as DurationValue;
    return new Atom(
      ta as 'dayTimeDuration',
      op === '*' ? multiplyDuration(d, numberOf(b)) : divideDuration(d, numberOf(b)),
    );
  }
  if (DURATIONS.has(tb) && ra !== undefined && op === '*')
    return new Atom(tb as 'dayTimeDuration', multiplyDuration(vb as DurationValue, numberOf(a)));
  if (TEMPORAL.has(ta) && DURATIONS.has(tb) && (op === '+' || op === '-')) {
    const t = va as TemporalValue;
    const d = vb as DurationValue;
    return new Atom(ta as 'dateTime', op === '+' ? addToTemporal(t, d) : subtractFromTemporal(t, d));
  }
  if (DURATIONS.has(ta) && TEMPORAL.has(tb) && op === '+')
    return new Atom(tb as 'dateTime', addToTemporal(vb as TemporalValue, va as DurationValue));
  throw new MetapathError('XPTY0004', `${op} is not defined for xs:${ta} and xs:${tb}`);
}

/** dateTime - dateTime (and date - date, time - time) needs the implicit timezone, which the evaluator passes. */
export function subtractTemporalValues(a: Atomic, b: Atomic, timezone: number): Atomic | undefined {
  if (!(a instanceof Atom) || !(b instanceof Atom) || a.type !== b.type || !TEMPORAL.has(a.type)) return undefined;
  return new Atom('dayTimeDuration', subtractTemporals(a.value as TemporalValue, b.value as TemporalValue, timezone));
}
