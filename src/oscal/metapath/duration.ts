/**
 * xs:duration, xs:yearMonthDuration and xs:dayTimeDuration (XSD 1.1 part 2) and their operations
 * in XPath and XQuery Functions and Operators 3.1 (F&O), section 8, and its casts among them.
 *
 * A duration is F&O's pair of a whole number of months and a decimal number of seconds, both
 * with the same sign. The arithmetic is exact (see decimal.ts); the parts are limited to what a
 * number holds exactly (±2^53 - 1 months and whole seconds), beyond which FODT0002 is raised.
 */
import {
  add,
  compareDecimals,
  decimal,
  decimalOf,
  decimalText,
  divide,
  floorParts,
  isZero,
  multiply,
  numberOf,
  roundToInteger,
  subtract,
  type Decimal,
} from './decimal.js';
import { MetapathError } from './errors.js';

export type DurationKind = 'duration' | 'yearMonthDuration' | 'dayTimeDuration';

export interface DurationValue {
  readonly kind: DurationKind;
  readonly months: number;
  /** May be fractional; never of the opposite sign to `months`. */
  readonly seconds: number;
}

export type DurationComponent = 'years' | 'months' | 'days' | 'hours' | 'minutes' | 'seconds';

const LIMIT = BigInt(Number.MAX_SAFE_INTEGER);
/** Digits kept after the point when a division does not come out exactly (xs:decimal's precision is ours to choose). */
const QUOTIENT_DIGITS = 40;

const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** A duration from exact parts, or FODT0002 when a part is too large to hold exactly. */
function durationOf(kind: DurationKind, months: bigint, seconds: Decimal): DurationValue {
  if (abs(months) > LIMIT || abs(floorParts(seconds).whole) > LIMIT) {
    throw new MetapathError('FODT0002', `xs:${kind} overflow: the value is too large`);
  }
  return { kind, months: Number(months), seconds: numberOf(seconds) };
}

/** XML Schema's whitespace="collapse", which for these lexical forms (no inner spaces) is a trim. */
export const collapseWhitespace = (text: string): string => text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

const LEXICAL = /^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?)?$/;

/**
 * The value of a lexical form, or undefined when `text` is not one of `kind`'s; FODT0002 when it
 * is, but too large (F&O's rule for casts to a duration too large for the implementation).
 */
export function parseDuration(kind: DurationKind, text: string): DurationValue | undefined {
  const match = LEXICAL.exec(collapseWhitespace(text));
  if (!match) return undefined;
  const [, minus, years, months, days, time, hours, minutes, seconds, fraction = ''] = match;
  const hasDate = years !== undefined || months !== undefined || days !== undefined;
  const hasTime = hours !== undefined || minutes !== undefined || seconds !== undefined;
  // The pattern lets "P", "PT" and "P1DT" through: at least one field, and "T" only before one.
  if ((time !== undefined && !hasTime) || (!hasDate && !hasTime)) return undefined;
  if (kind === 'yearMonthDuration' && (days !== undefined || time !== undefined)) return undefined;
  if (kind === 'dayTimeDuration' && (years !== undefined || months !== undefined)) return undefined;
  const sign = minus ? -1n : 1n;
  const totalMonths = BigInt(years ?? 0) * 12n + BigInt(months ?? 0);
  const wholeSeconds =
    BigInt(days ?? 0) * 86400n + BigInt(hours ?? 0) * 3600n + BigInt(minutes ?? 0) * 60n + BigInt(seconds ?? 0);
  const exactSeconds = decimal(sign * BigInt(`${wholeSeconds}${fraction}`), fraction.length);
  return durationOf(kind, sign * totalMonths, exactSeconds);
}

/** The canonical form: "-P1Y2M3DT4H5M6.5S" without zero fields; "P0M" or "PT0S" for zero. */
export function formatDuration(d: DurationValue): string {
  const months = Math.abs(d.months);
  const { whole, fraction } = floorParts(decimalOf(Math.abs(d.seconds)));
  const field = (n: number | bigint, unit: string): string => (n ? `${n}${unit}` : '');
  const seconds = add(decimal(whole % 60n), fraction);
  const date = field(Math.floor(months / 12), 'Y') + field(months % 12, 'M') + field(whole / 86400n, 'D');
  const time =
    field((whole % 86400n) / 3600n, 'H') +
    field((whole % 3600n) / 60n, 'M') +
    (isZero(seconds) ? '' : `${decimalText(seconds)}S`);
  if (!date && !time) return d.kind === 'yearMonthDuration' ? 'P0M' : 'PT0S';
  return `${d.months < 0 || d.seconds < 0 ? '-' : ''}P${date}${time ? `T${time}` : ''}`;
}

/** op:duration-equal, defined for any two durations: P1Y equals P12M, and PT0S equals P0M. */
export const durationsEqual = (a: DurationValue, b: DurationValue): boolean =>
  a.months === b.months && a.seconds === b.seconds;

/** The kind two operands share, when it is one of the two totally ordered duration kinds; XPTY0004 otherwise. */
function orderedKind(a: DurationValue, b: DurationValue, what: string): 'yearMonthDuration' | 'dayTimeDuration' {
  if (a.kind === b.kind && a.kind !== 'duration') return a.kind;
  throw new MetapathError('XPTY0004', `${what} is not defined for xs:${a.kind} and xs:${b.kind}`);
}

/**
 * The order of two yearMonthDurations or two dayTimeDurations (<0, 0, >0). xs:duration itself has
 * no order, so any other pair raises XPTY0004 — use durationsEqual for eq and ne.
 */
export function compareDurations(a: DurationValue, b: DurationValue): number {
  return orderedKind(a, b, 'Ordering') === 'yearMonthDuration'
    ? Math.sign(a.months - b.months)
    : compareDecimals(decimalOf(a.seconds), decimalOf(b.seconds));
}

/** op:add-yearMonthDurations and op:add-dayTimeDurations. */
export function addDurations(a: DurationValue, b: DurationValue): DurationValue {
  const kind = orderedKind(a, b, 'Addition');
  return durationOf(kind, BigInt(a.months) + BigInt(b.months), add(decimalOf(a.seconds), decimalOf(b.seconds)));
}

/** op:subtract-yearMonthDurations and op:subtract-dayTimeDurations. */
export function subtractDurations(a: DurationValue, b: DurationValue): DurationValue {
  const kind = orderedKind(a, b, 'Subtraction');
  return durationOf(kind, BigInt(a.months) - BigInt(b.months), subtract(decimalOf(a.seconds), decimalOf(b.seconds)));
}

/** The kind of a duration that can be multiplied or divided by a number: not plain xs:duration. */
function scalableKind(d: DurationValue, what: string): 'yearMonthDuration' | 'dayTimeDuration' {
  if (d.kind !== 'duration') return d.kind;
  throw new MetapathError('XPTY0004', `${what} of an xs:duration by a number is not defined`);
}

function refuseNaN(n: number, what: string): void {
  if (Number.isNaN(n)) throw new MetapathError('FOCA0005', `${what} of a duration by NaN`);
}

/**
 * op:multiply-yearMonthDuration (months rounded as fn:round does: P2Y11M * 2.3 = P6Y9M) and
 * op:multiply-dayTimeDuration. FOCA0005 for NaN, FODT0002 for an infinite factor or result.
 */
export function multiplyDuration(d: DurationValue, n: number): DurationValue {
  const kind = scalableKind(d, 'Multiplication');
  refuseNaN(n, 'Multiplication');
  if (!Number.isFinite(n)) throw new MetapathError('FODT0002', 'xs:duration overflow: multiplication by infinity');
  const factor = decimalOf(n);
  return kind === 'yearMonthDuration'
    ? durationOf(kind, roundToInteger(multiply(decimal(d.months), factor)), decimal(0))
    : durationOf(kind, 0n, multiply(decimalOf(d.seconds), factor));
}

/**
 * op:divide-yearMonthDuration (months rounded as fn:round does) and op:divide-dayTimeDuration.
 * FOCA0005 for NaN, FODT0002 for a zero divisor (the result would overflow), zero for an infinite one.
 */
export function divideDuration(d: DurationValue, n: number): DurationValue {
  const kind = scalableKind(d, 'Division');
  refuseNaN(n, 'Division');
  if (n === 0) throw new MetapathError('FODT0002', 'xs:duration overflow: division by zero');
  if (!Number.isFinite(n)) return { kind, months: 0, seconds: 0 };
  const divisor = decimalOf(n);
  return kind === 'yearMonthDuration'
    ? durationOf(kind, divide(decimal(d.months), divisor, 0).units, decimal(0))
    : durationOf(kind, 0n, divide(decimalOf(d.seconds), divisor, QUOTIENT_DIGITS));
}

/** op:divide-yearMonthDuration-by-yearMonthDuration and the dayTimeDuration one: an xs:decimal; FOAR0001 for a zero divisor. */
export function divideDurationByDuration(a: DurationValue, b: DurationValue): number {
  const kind = orderedKind(a, b, 'Division');
  const [x, y] =
    kind === 'yearMonthDuration'
      ? [decimal(a.months), decimal(b.months)]
      : [decimalOf(a.seconds), decimalOf(b.seconds)];
  if (isZero(y)) throw new MetapathError('FOAR0001', `Division by a zero-length xs:${kind}`);
  return numberOf(divide(x, y, QUOTIENT_DIGITS));
}

/** Negates `n` when `negative`, without making a -0. */
const signed = (negative: boolean, n: number): number => (negative && n !== 0 ? -n : n);

/**
 * fn:years-from-duration and its siblings: the fields of the canonical form, each with
 * the duration's sign, e.g. hours of PT123H is 3 and seconds of -PT256S is -16.
 */
export function durationComponent(d: DurationValue, name: DurationComponent): number {
  const negative = d.months < 0 || d.seconds < 0;
  const months = Math.abs(d.months);
  const { whole, fraction } = floorParts(decimalOf(Math.abs(d.seconds)));
  switch (name) {
    case 'years':
      return signed(negative, Math.floor(months / 12));
    case 'months':
      return signed(negative, months % 12);
    case 'days':
      return signed(negative, Number(whole / 86400n));
    case 'hours':
      return signed(negative, Number((whole % 86400n) / 3600n));
    case 'minutes':
      return signed(negative, Number((whole % 3600n) / 60n));
    case 'seconds':
      return signed(negative, numberOf(add(decimal(whole % 60n), fraction)));
  }
}

/** Casts among the duration types (F&O 19.1): the target keeps only its own part. */
export function castDuration(d: DurationValue, to: DurationKind): DurationValue {
  switch (to) {
    case 'duration':
      return { kind: to, months: d.months, seconds: d.seconds };
    case 'yearMonthDuration':
      return { kind: to, months: d.months, seconds: 0 };
    case 'dayTimeDuration':
      return { kind: to, months: 0, seconds: d.seconds };
  }
}
