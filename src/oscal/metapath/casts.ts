/**
 * Casting between atomic types (XPath 3.1 F&O chapter 19) and the canonical text of each.
 * xs:string subtypes and xs:integer subtypes are checked on the way in and then held as plain
 * strings and numbers: constraints compare values, they do not ask for subtypes.
 */
import { MetapathError } from './errors.js';
import { Atom, setAtomText, stringOf, typeOf, type Atomic, type AtomicType } from './items.js';
import {
  castDuration,
  castTemporal,
  formatDuration,
  formatTemporal,
  parseDuration,
  parseTemporal,
  type DurationKind,
  type TemporalKind,
} from './temporal.js';

const TEMPORAL = new Set<string>(['dateTime', 'date', 'time', 'gYearMonth', 'gYear', 'gMonthDay', 'gDay', 'gMonth']);
const DURATIONS = new Set<string>(['duration', 'yearMonthDuration', 'dayTimeDuration']);

/** xs:string subtypes, with the lexical rule each adds. */
const STRING_SUBTYPES: Record<string, RegExp> = {
  normalizedString: /^[^\r\n\t]*$/,
  token: /^(?:\S+(?: \S+)*)?$/,
  language: /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/,
  NMTOKEN: /^[\p{L}\p{N}._:\-\u00B7\u0300-\u036F\u203F\u2040]+$/u,
  Name: /^[\p{L}_:][\p{L}\p{N}._:\-\u00B7\u0300-\u036F\u203F\u2040]*$/u,
  NCName: /^[\p{L}_][\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F\u2040]*$/u,
  ID: /^[\p{L}_][\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F\u2040]*$/u,
  IDREF: /^[\p{L}_][\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F\u2040]*$/u,
  ENTITY: /^[\p{L}_][\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F\u2040]*$/u,
};

/** xs:integer subtypes and their ranges. */
const INTEGER_SUBTYPES: Record<string, [number, number]> = {
  nonPositiveInteger: [-Infinity, 0],
  negativeInteger: [-Infinity, -1],
  nonNegativeInteger: [0, Infinity],
  positiveInteger: [1, Infinity],
  long: [-(2 ** 63), 2 ** 63 - 1],
  int: [-(2 ** 31), 2 ** 31 - 1],
  short: [-32768, 32767],
  byte: [-128, 127],
  unsignedLong: [0, 2 ** 64 - 1],
  unsignedInt: [0, 2 ** 32 - 1],
  unsignedShort: [0, 65535],
  unsignedByte: [0, 255],
};

const PRIMITIVES = new Set<string>([
  'string',
  'boolean',
  'integer',
  'decimal',
  'double',
  'float',
  'untypedAtomic',
  'anyURI',
  'base64Binary',
  'hexBinary',
  ...TEMPORAL,
  ...DURATIONS,
]);

/** Whether `name` (the local name of an xs: type) is an atomic type a value can be cast to. */
export function isCastTarget(name: string): boolean {
  return PRIMITIVES.has(name) || name in STRING_SUBTYPES || name in INTEGER_SUBTYPES || name === 'dateTimeStamp';
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const DOUBLE = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NaN)$/;
const BASE64 =
  /^(?:[A-Za-z0-9+/] ?[A-Za-z0-9+/] ?[A-Za-z0-9+/] ?[A-Za-z0-9+/] ?)*(?:[A-Za-z0-9+/] ?[A-Za-z0-9+/] ?[AEIMQUYcgkosw048] ?= ?|[A-Za-z0-9+/] ?[AQgw] ?= ?= ?)?$/;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

function collapse(text: string): string {
  return text.replace(/[ \t\r\n]+/g, ' ').trim();
}

/**
 * The value a text stands for as `type`, or undefined when it is not a valid lexical form.
 * This is casting from xs:string / xs:untypedAtomic, the commonest cast by far.
 */
export function castFromText(text: string, type: string): Atomic | undefined {
  switch (type) {
    case 'string':
      return text;
    case 'untypedAtomic':
      return new Atom('untypedAtomic', text);
    case 'anyURI':
      return new Atom('anyURI', collapse(text));
    case 'boolean': {
      const t = collapse(text);
      if (t === 'true' || t === '1') return true;
      if (t === 'false' || t === '0') return false;
      return undefined;
    }
    case 'integer': {
      const t = collapse(text);
      return INTEGER.test(t) ? Number(t) : undefined;
    }
    case 'decimal': {
      const t = collapse(text);
      return DECIMAL.test(t) ? new Atom('decimal', Number(t)) : undefined;
    }
    case 'double':
    case 'float': {
      const t = collapse(text);
      if (!DOUBLE.test(t)) return undefined;
      const n = t.endsWith('INF') ? (t.startsWith('-') ? -Infinity : Infinity) : Number(t);
      return new Atom(type, type === 'float' ? Math.fround(n) : n);
    }
    case 'base64Binary': {
      const t = collapse(text);
      return BASE64.test(t) ? new Atom('base64Binary', t.replace(/ /g, '')) : undefined;
    }
    case 'hexBinary': {
      const t = collapse(text);
      return HEX.test(t) ? new Atom('hexBinary', t.toUpperCase()) : undefined;
    }
    case 'dateTimeStamp': {
      const v = parseTemporal('dateTime', text);
      return v && v.tz !== null ? new Atom('dateTime', v) : undefined;
    }
  }
  if (TEMPORAL.has(type)) {
    const v = parseTemporal(type as TemporalKind, text);
    return v ? new Atom(type as TemporalKind, v) : undefined;
  }
  if (DURATIONS.has(type)) {
    const v = parseDuration(type as DurationKind, text);
    return v ? new Atom(type as DurationKind, v) : undefined;
  }
  const pattern = STRING_SUBTYPES[type];
  if (pattern) {
    const t = type === 'normalizedString' ? text.replace(/[\r\n\t]/g, ' ') : collapse(text);
    return pattern.test(t) ? t : undefined;
  }
  const range = INTEGER_SUBTYPES[type];
  if (range) {
    const n = castFromText(text, 'integer') as number | undefined;
    return n !== undefined && n >= range[0] && n <= range[1] ? n : undefined;
  }
  throw new MetapathError('XPST0051', `xs:${type} is not an atomic type`);
}

/** `value cast as xs:type` (F&O 19.1). */
export function castAs(value: Atomic, type: string): Atomic {
  const from = typeOf(value);
  if (from === type) return value;
  if (from === 'string' || from === 'untypedAtomic') {
    const cast = castFromText(stringOf(value), type);
    if (cast === undefined) throw invalid(value, type);
    return cast;
  }
  if (type === 'string') return stringOf(value);
  if (type === 'untypedAtomic') return new Atom('untypedAtomic', stringOf(value));
  const numeric = numericCast(value, from, type);
  if (numeric !== undefined) return numeric;
  if (type === 'boolean') {
    if (from === 'integer' || from === 'decimal' || from === 'double' || from === 'float') {
      const n = typeof value === 'number' ? value : ((value as Atom).value as number);
      return !(n === 0 || Number.isNaN(n));
    }
  }
  if (TEMPORAL.has(type) && TEMPORAL.has(from)) {
    return new Atom(type as TemporalKind, castTemporal((value as Atom<TemporalKind>).value, type as TemporalKind));
  }
  if (DURATIONS.has(type) && DURATIONS.has(from)) {
    return new Atom(type as DurationKind, castDuration((value as Atom<DurationKind>).value, type as DurationKind));
  }
  if (type === 'anyURI' && from === 'anyURI') return value;
  if ((type === 'base64Binary' && from === 'hexBinary') || (type === 'hexBinary' && from === 'base64Binary')) {
    const bytes =
      from === 'hexBinary'
        ? Buffer.from((value as Atom).value as string, 'hex')
        : Buffer.from((value as Atom).value as string, 'base64');
    return new Atom(type, type === 'hexBinary' ? bytes.toString('hex').toUpperCase() : bytes.toString('base64'));
  }
  if (type in STRING_SUBTYPES || type in INTEGER_SUBTYPES) {
    const cast = castFromText(stringOf(castAs(value, type in STRING_SUBTYPES ? 'string' : 'integer')), type);
    if (cast === undefined) throw invalid(value, type);
    return cast;
  }
  if (!isCastTarget(type)) throw new MetapathError('XPST0051', `xs:${type} is not an atomic type`);
  throw new MetapathError('XPTY0004', `a value of type xs:${from} cannot be cast to xs:${type}`);
}

function numericCast(value: Atomic, from: AtomicType, to: string): Atomic | undefined {
  const isNum = from === 'integer' || from === 'decimal' || from === 'double' || from === 'float';
  const n = isNum
    ? typeof value === 'number'
      ? value
      : ((value as Atom).value as number)
    : from === 'boolean'
      ? value
        ? 1
        : 0
      : undefined;
  if (n === undefined) return undefined;
  switch (to) {
    case 'double':
      return new Atom('double', n);
    case 'float':
      return new Atom('float', Math.fround(n));
    case 'decimal':
      if (!Number.isFinite(n)) throw new MetapathError('FOCA0002', `${stringOf(value)} cannot be cast to xs:decimal`);
      return new Atom('decimal', n);
    case 'integer':
      if (!Number.isFinite(n)) throw new MetapathError('FOCA0002', `${stringOf(value)} cannot be cast to xs:integer`);
      return Math.trunc(n);
  }
  const range = INTEGER_SUBTYPES[to];
  if (range) {
    if (!Number.isFinite(n)) throw new MetapathError('FOCA0002', `${stringOf(value)} cannot be cast to xs:${to}`);
    const i = Math.trunc(n);
    if (i < range[0] || i > range[1]) throw invalid(value, to);
    return i;
  }
  return undefined;
}

function invalid(value: Atomic, type: string): MetapathError {
  const text = stringOf(value);
  const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return new MetapathError('FORG0001', `"${shown}" is not a valid xs:${type}`);
}

/** The canonical text of a number held as xs:decimal. */
function decimalText(n: number): string {
  if (Number.isInteger(n)) return BigInt(n).toString();
  const text = String(n);
  if (!/e/i.test(text)) return text;
  return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/** The canonical text of xs:double and xs:float (F&O 19.1.2.2): plain between 1e-6 and 1e6, else with an exponent. */
function doubleText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'INF';
  if (n === -Infinity) return '-INF';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const abs = Math.abs(n);
  if (abs >= 1e-6 && abs < 1e6) return decimalText(n);
  const [mantissa, exponent] = n.toExponential().split('e') as [string, string];
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent.replace('+', '')}`;
}

setAtomText((atom) => {
  switch (atom.type) {
    case 'decimal':
      return decimalText(atom.value as number);
    case 'double':
    case 'float':
      return doubleText(atom.value as number);
    case 'QName': {
      const q = atom.value as { local: string; prefix?: string };
      return q.prefix ? `${q.prefix}:${q.local}` : q.local;
    }
  }
  if (TEMPORAL.has(atom.type)) return formatTemporal((atom as Atom<TemporalKind>).value);
  if (DURATIONS.has(atom.type)) return formatDuration((atom as Atom<DurationKind>).value);
  return atom.value as string;
});
