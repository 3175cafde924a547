/**
 * Exact decimal arithmetic for the seconds of dates, times and durations.
 *
 * The engine holds seconds as JavaScript numbers, but binary floating point would leak into
 * results: PT0.1S + PT0.2S must be PT0.3S, not PT0.30000000000000004S, and two instants
 * thousands of years apart must still compare by their milliseconds. So each number is read as
 * the decimal it prints as (its shortest round-trip form), computed on exactly with bigints, and
 * turned back into the nearest number only at the end.
 */

/** The value `units / 10^scale`; `scale` is never negative. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

export function decimal(units: bigint | number, scale = 0): Decimal {
  const whole = BigInt(units);
  return scale < 0 ? { units: whole * pow10(-scale), scale: 0 } : { units: whole, scale };
}

/** The decimal a finite number prints as: 0.1 is exactly 1/10 here, not its binary neighbour. */
export function decimalOf(n: number): Decimal {
  // String(n) is the shortest form that reads back as n, possibly with an exponent ("1e-7").
  const [mantissa = '', exponent = '0'] = String(n).split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  return decimal(BigInt(whole + fraction), fraction.length - Number(exponent));
}

/** Plain notation without an exponent or trailing fraction zeros: "0.0000001", "12.5", "-3". */
export function decimalText(d: Decimal): string {
  const digits = (d.units < 0n ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  return `${d.units < 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The number nearest to `d` (Number() rounds a decimal numeral correctly). */
export const numberOf = (d: Decimal): number => Number(decimalText(d));

/** A number in plain decimal notation, for lexical forms that allow no exponent. */
export const plainText = (n: number): string => decimalText(decimalOf(n));

/** Both values' units at their common scale. */
function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = aligned(a, b);
  return { units: x + y, scale };
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = aligned(a, b);
  return { units: x - y, scale };
}

export const multiply = (a: Decimal, b: Decimal): Decimal => ({ units: a.units * b.units, scale: a.scale + b.scale });

/** `a mod b` as XPath has it: the remainder of truncating division, with the sign of `a`; `b` must not be zero. */
export function remainder(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = aligned(a, b);
  return { units: x % y, scale };
}

/**
 * `d` rounded to `precision` fraction digits (a negative precision rounds to tens, hundreds…),
 * halves up (fn:round) or to even (fn:round-half-to-even).
 */
export function roundAt(d: Decimal, precision: number, halves: 'up' | 'even'): Decimal {
  if (precision >= d.scale) return d;
  const divisor = pow10(d.scale - precision);
  const q = halves === 'up' ? roundDiv(d.units, divisor) : roundEvenDiv(d.units, divisor);
  return decimal(q, precision);
}

function roundEvenDiv(n: bigint, d: bigint): bigint {
  const q = floorDiv(n, d);
  const twice = 2n * (n - q * d);
  if (twice > d || (twice === d && q % 2n !== 0n)) return q + 1n;
  return q;
}

export function compareDecimals(a: Decimal, b: Decimal): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const isZero = (d: Decimal): boolean => d.units === 0n;

/** ⌊n / d⌋ for d > 0 (bigint division truncates toward zero). */
export function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d < 0n ? q - 1n : q;
}

/** n / d rounded to an integer, halves toward positive infinity as fn:round does. */
function roundDiv(n: bigint, d: bigint): bigint {
  return d < 0n ? floorDiv(-2n * n - d, -2n * d) : floorDiv(2n * n + d, 2n * d);
}

/** `a / b` rounded (halves up) to `scale` fraction digits; `b` must not be zero. */
export function divide(a: Decimal, b: Decimal, scale: number): Decimal {
  return { units: roundDiv(a.units * pow10(b.scale + scale), b.units * pow10(a.scale)), scale };
}

/** fn:round: the nearest integer, halves toward positive infinity. */
export const roundToInteger = (d: Decimal): bigint => roundDiv(d.units, pow10(d.scale));

/** The integer part toward negative infinity and the fraction in [0, 1) that remains. */
export function floorParts(d: Decimal): { whole: bigint; fraction: Decimal } {
  const one = pow10(d.scale);
  const whole = floorDiv(d.units, one);
  return { whole, fraction: { units: d.units - whole * one, scale: d.scale } };
}
