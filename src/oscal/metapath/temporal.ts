/**
 * The date and time types of XSD 1.1 (xs:dateTime, xs:date, xs:time, xs:gYearMonth, xs:gYear,
 * xs:gMonthDay, xs:gDay, xs:gMonth) and their operations in XPath and XQuery Functions and
 * Operators 3.1 (F&O) section 9: comparison (9.4), components (9.5), timezone adjustment and
 * arithmetic with durations; and the casts among them (19.1). Durations are in duration.ts and
 * re-exported from here, so that this module is the engine's one entry point.
 *
 * Values follow F&O's seven-property model. The fields a kind has no use for hold the values of
 * the reference xs:dateTime through which F&O 9.4 compares it (an xs:time lies on 1972-12-31, an
 * xs:gDay in December 1972, an xs:gYear on its 1 January at 00:00:00, …), so that every value is
 * a complete date and time and comparison needs no case per kind. A time of 24:00:00 is read as
 * 00:00:00 of the next day (XSD 1.1), so `hour` is 0-23.
 *
 * Years are astronomical, as in XSD 1.1 (0000 is 1 BCE), in the proleptic Gregorian calendar,
 * from -99999999 to 99999999: within that range the difference of any two instants fits a
 * dayTimeDuration exactly. A value beyond it, read or computed, raises FODT0001.
 */
import {
  add,
  compareDecimals,
  decimal,
  decimalOf,
  floorDiv,
  floorParts,
  numberOf,
  plainText,
  subtract,
  type Decimal,
} from './decimal.js';
import { collapseWhitespace, type DurationValue } from './duration.js';
import { MetapathError } from './errors.js';

export {
  addDurations,
  castDuration,
  compareDurations,
  divideDuration,
  divideDurationByDuration,
  durationComponent,
  durationsEqual,
  formatDuration,
  multiplyDuration,
  parseDuration,
  subtractDurations,
  type DurationComponent,
  type DurationKind,
  type DurationValue,
} from './duration.js';

export type TemporalKind = 'dateTime' | 'date' | 'time' | 'gYearMonth' | 'gYear' | 'gMonthDay' | 'gDay' | 'gMonth';

export interface TemporalValue {
  readonly kind: TemporalKind;
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  /** May be fractional. */
  readonly second: number;
  /** Minutes east of UTC, or null for a value without a timezone. */
  readonly tz: number | null;
}

export type TemporalComponent = 'year' | 'month' | 'day' | 'hours' | 'minutes' | 'seconds' | 'timezone';

type Fields = Omit<TemporalValue, 'kind' | 'tz'>;

const MAX_YEAR = 99_999_999;
const MAX_TIMEZONE = 14 * 60;
/** The kinds that hold an instant or a time of day: the only ones with arithmetic and timezone adjustment. */
const TIMELINE_KINDS: ReadonlySet<TemporalKind> = new Set(['dateTime', 'date', 'time']);

const MIDNIGHT = { hour: 0, minute: 0, second: 0 };
/** The reference xs:dateTime of F&O 9.4 for each kind: the fields the kind lacks. */
const REFERENCE: Record<TemporalKind, Partial<Fields>> = {
  dateTime: {},
  date: MIDNIGHT,
  time: { year: 1972, month: 12, day: 31 },
  gYearMonth: { day: 1, ...MIDNIGHT },
  gYear: { month: 1, day: 1, ...MIDNIGHT },
  gMonthDay: { year: 1972, ...MIDNIGHT },
  gDay: { year: 1972, month: 12, ...MIDNIGHT },
  gMonth: { year: 1972, day: 1, ...MIDNIGHT },
};

/** The value of `kind` with `fields` (a full date and time) and `tz`; FODT0001 for a year out of range. */
function project(kind: TemporalKind, fields: Fields, tz: number | null): TemporalValue {
  const { year, month, day, hour, minute, second } = fields;
  const value: TemporalValue = { kind, year, month, day, hour, minute, second, ...REFERENCE[kind], tz };
  if (Math.abs(value.year) > MAX_YEAR) {
    throw new MetapathError('FODT0001', `xs:${kind} overflow: year ${value.year} is out of the supported range`);
  }
  return value;
}

// ---- Calendar ----

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// Days since 1970-01-01 and back, after Howard Hinnant's "chrono-Compatible Low-Level Date
// Algorithms": years are counted from March so that the leap day falls at the end of one.

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

// ---- The timeline ----

/** Seconds from 1970-01-01T00:00:00 to the local date and time, as if it were UTC. */
function localSeconds(f: Fields): Decimal {
  const whole = BigInt(daysFromCivil(f.year, f.month, f.day)) * 86400n + BigInt(f.hour * 3600 + f.minute * 60);
  return add(decimal(whole), decimalOf(f.second));
}

/** The instant in UTC; a value without a timezone is taken in the implicit one (F&O 9.4). */
const instant = (v: TemporalValue, implicitTz: number): Decimal =>
  subtract(localSeconds(v), decimal((v.tz ?? implicitTz) * 60));

/** The value of `kind` whose local date and time is `seconds` (as localSeconds counts them). */
function fromLocalSeconds(kind: TemporalKind, seconds: Decimal, tz: number | null): TemporalValue {
  const { whole, fraction } = floorParts(seconds);
  const days = floorDiv(whole, 86400n);
  const secondOfDay = Number(whole - days * 86400n);
  return project(
    kind,
    {
      ...civilFromDays(Number(days)),
      hour: Math.floor(secondOfDay / 3600),
      minute: Math.floor(secondOfDay / 60) % 60,
      second: numberOf(add(decimal(secondOfDay % 60), fraction)),
    },
    tz,
  );
}

// ---- Lexical forms ----

// XSD 1.1's lexical patterns, with named groups; the day of the month is checked afterwards.
const YEAR = '(?<year>-?(?:[1-9]\\d{3,}|0\\d{3}))';
const MONTH = '(?<month>0[1-9]|1[0-2])';
const DAY = '(?<day>0[1-9]|[12]\\d|3[01])';
const TIME =
  '(?:(?<hour>[01]\\d|2[0-3]):(?<minute>[0-5]\\d):(?<second>[0-5]\\d(?:\\.\\d+)?)|(?<midnight>24:00:00(?:\\.0+)?))';
const TIMEZONE = '(?<tz>Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00))?';

const LEXICAL: Record<TemporalKind, RegExp> = {
  dateTime: new RegExp(`^${YEAR}-${MONTH}-${DAY}T${TIME}${TIMEZONE}$`),
  date: new RegExp(`^${YEAR}-${MONTH}-${DAY}${TIMEZONE}$`),
  time: new RegExp(`^${TIME}${TIMEZONE}$`),
  gYearMonth: new RegExp(`^${YEAR}-${MONTH}${TIMEZONE}$`),
  gYear: new RegExp(`^${YEAR}${TIMEZONE}$`),
  gMonthDay: new RegExp(`^--${MONTH}-${DAY}${TIMEZONE}$`),
  gDay: new RegExp(`^---${DAY}${TIMEZONE}$`),
  gMonth: new RegExp(`^--${MONTH}${TIMEZONE}$`),
};

function timezoneOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (text === 'Z') return 0;
  const minutes = Number(text.slice(1, 3)) * 60 + Number(text.slice(4, 6));
  return text.startsWith('-') && minutes !== 0 ? -minutes : minutes;
}

/**
 * The value of a lexical form, or undefined when `text` is not one of `kind`'s (2023-02-29,
 * 24:30:00, 1999-1-01, …); FODT0001 when it is, but its year is out of range (F&O's rule for
 * casts to a date or time too large for the implementation).
 */
export function parseTemporal(kind: TemporalKind, text: string): TemporalValue | undefined {
  const groups = LEXICAL[kind].exec(collapseWhitespace(text))?.groups;
  if (!groups) return undefined;
  // A field the form lacks is the kind's reference value, or 0 in 24:00:00; `|| 0` because the
  // lexical form -0000 is year 0, not -0.
  const field = (name: keyof Fields): number =>
    groups[name] === undefined ? (REFERENCE[kind][name] ?? 0) : Number(groups[name]) || 0;
  const fields: Fields = {
    year: field('year'),
    month: field('month'),
    day: field('day'),
    hour: groups.midnight ? 24 : field('hour'),
    minute: field('minute'),
    second: field('second'),
  };
  if (fields.day > daysInMonth(fields.year, fields.month)) return undefined;
  const tz = timezoneOf(groups.tz);
  // 24:00:00 is the first instant of the next day: counting it on the timeline carries it over.
  return fields.hour === 24 ? fromLocalSeconds(kind, localSeconds(fields), tz) : project(kind, fields, tz);
}

const pad = (n: number | string, width = 2): string => String(n).padStart(width, '0');

const yearText = (year: number): string => `${year < 0 ? '-' : ''}${pad(Math.abs(year), 4)}`;

function timeText(v: TemporalValue): string {
  const [whole = '0', fraction] = plainText(v.second).split('.');
  return `${pad(v.hour)}:${pad(v.minute)}:${pad(whole)}${fraction ? `.${fraction}` : ''}`;
}

const dateText = (v: TemporalValue): string => `${yearText(v.year)}-${pad(v.month)}-${pad(v.day)}`;

function timezoneText(tz: number | null): string {
  if (tz === null) return '';
  if (tz === 0) return 'Z';
  const minutes = Math.abs(tz);
  return `${tz < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

const FORMAT: Record<TemporalKind, (v: TemporalValue) => string> = {
  dateTime: (v) => `${dateText(v)}T${timeText(v)}`,
  date: dateText,
  time: timeText,
  gYearMonth: (v) => `${yearText(v.year)}-${pad(v.month)}`,
  gYear: (v) => yearText(v.year),
  gMonthDay: (v) => `--${pad(v.month)}-${pad(v.day)}`,
  gDay: (v) => `---${pad(v.day)}`,
  gMonth: (v) => `--${pad(v.month)}`,
};

/** The canonical lexical form (XSD 1.1): the timezone as given, Z for +00:00; no trailing fraction zeros. */
export const formatTemporal = (v: TemporalValue): string => FORMAT[v.kind](v) + timezoneText(v.tz);

// ---- Comparison ----

/**
 * The order of two values of the same kind by their reference instants (F&O 9.4); XPTY0004 for
 * different kinds. XPath defines only eq and ne on the g* kinds; keeping lt and gt from them is
 * the caller's part.
 */
export function compareTemporal(a: TemporalValue, b: TemporalValue, implicitTz: number): number {
  if (a.kind !== b.kind) throw new MetapathError('XPTY0004', `An xs:${a.kind} cannot be compared with an xs:${b.kind}`);
  return compareDecimals(instant(a, implicitTz), instant(b, implicitTz));
}

// ---- Arithmetic ----

/** The month shifted by `months`, its day clamped to the new month's length (XML Schema Part 2, appendix E). */
function addMonths(v: TemporalValue, months: number): TemporalValue {
  const total = v.year * 12 + (v.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  return project(v.kind, { ...v, year, month, day: Math.min(v.day, daysInMonth(year, month)) }, v.tz);
}

/**
 * A dateTime, date or time plus a yearMonthDuration or dayTimeDuration (op:add-yearMonthDuration-
 * to-dateTime and its siblings), the timezone kept: 2000-01-31 + P1M is 2000-02-29, a date moves
 * by whole days (its time of day being 00:00:00, the part of a day left over is dropped), and a
 * time wraps around midnight. XPTY0004 for the other pairs (a time plus months, a gYear, …).
 */
export function addToTemporal(v: TemporalValue, d: DurationValue): TemporalValue {
  if (d.kind === 'yearMonthDuration' && (v.kind === 'dateTime' || v.kind === 'date')) return addMonths(v, d.months);
  if (d.kind === 'dayTimeDuration' && TIMELINE_KINDS.has(v.kind)) {
    return fromLocalSeconds(v.kind, add(localSeconds(v), decimalOf(d.seconds)), v.tz);
  }
  throw new MetapathError('XPTY0004', `Arithmetic on an xs:${v.kind} and an xs:${d.kind} is not defined`);
}

export function subtractFromTemporal(v: TemporalValue, d: DurationValue): TemporalValue {
  // The negated operand is only read, so its -0 fields never reach a result.
  return addToTemporal(v, { kind: d.kind, months: -d.months, seconds: -d.seconds });
}

/**
 * a - b for two dateTimes, dates or times (op:subtract-dateTimes, -dates, -times): the
 * dayTimeDuration between their instants. XPTY0004 for other operands.
 */
export function subtractTemporals(a: TemporalValue, b: TemporalValue, implicitTz: number): DurationValue {
  if (a.kind !== b.kind || !TIMELINE_KINDS.has(a.kind)) {
    throw new MetapathError('XPTY0004', `Subtracting an xs:${b.kind} from an xs:${a.kind} is not defined`);
  }
  return {
    kind: 'dayTimeDuration',
    months: 0,
    seconds: numberOf(subtract(instant(a, implicitTz), instant(b, implicitTz))),
  };
}

// ---- Components, timezones and casts ----

/** The kinds F&O 9.5 has an fn:<component>-from-<kind> function for. */
const COMPONENT_KINDS: Record<TemporalComponent, readonly TemporalKind[]> = {
  year: ['dateTime', 'date'],
  month: ['dateTime', 'date'],
  day: ['dateTime', 'date'],
  hours: ['dateTime', 'time'],
  minutes: ['dateTime', 'time'],
  seconds: ['dateTime', 'time'],
  timezone: ['dateTime', 'date', 'time'],
};

/**
 * fn:year-from-dateTime and its siblings (F&O 9.5): the local value's field, so hours of
 * 1999-12-31T21:20:00-05:00 is 21; the timezone as a dayTimeDuration, undefined without one.
 * XPTY0004 for a component the kind has no function for (hours of a date, anything of a gYear).
 */
export function temporalComponent(v: TemporalValue, name: 'timezone'): DurationValue | undefined;
export function temporalComponent(v: TemporalValue, name: Exclude<TemporalComponent, 'timezone'>): number;
export function temporalComponent(v: TemporalValue, name: TemporalComponent): number | DurationValue | undefined;
export function temporalComponent(v: TemporalValue, name: TemporalComponent): number | DurationValue | undefined {
  if (!COMPONENT_KINDS[name].includes(v.kind)) {
    throw new MetapathError('XPTY0004', `fn:${name}-from-${v.kind} is not defined`);
  }
  switch (name) {
    case 'year':
      return v.year;
    case 'month':
      return v.month;
    case 'day':
      return v.day;
    case 'hours':
      return v.hour;
    case 'minutes':
      return v.minute;
    case 'seconds':
      return v.second;
    case 'timezone':
      return v.tz === null ? undefined : { kind: 'dayTimeDuration', months: 0, seconds: v.tz * 60 };
  }
}

function checkTimezone(tz: number): void {
  if (!Number.isInteger(tz) || Math.abs(tz) > MAX_TIMEZONE) {
    throw new MetapathError('FODT0003', `Invalid timezone: ${tz} minutes (a whole number from -14:00 to +14:00)`);
  }
}

/**
 * fn:adjust-dateTime-to-timezone, -date- and -time-: to the same instant in `tz`
 * (minutes east of UTC), or with null, the same local time without a timezone. A value without
 * one takes `tz` as it is. FODT0003 for a timezone beyond ±14:00 or not of whole minutes.
 */
export function adjustToTimezone(v: TemporalValue, tz: number | null): TemporalValue {
  if (!TIMELINE_KINDS.has(v.kind))
    throw new MetapathError('XPTY0004', `An xs:${v.kind} cannot be adjusted to a timezone`);
  if (tz !== null) checkTimezone(tz);
  if (tz === null || v.tz === null) return { ...v, tz };
  return fromLocalSeconds(v.kind, add(localSeconds(v), decimal((tz - v.tz) * 60)), tz);
}

/**
 * Casts among the date and time kinds (F&O 19.1): an xs:dateTime casts to all of them, an xs:date
 * to all but xs:time (as 00:00:00 when to xs:dateTime), the others only to themselves; XPTY0004
 * otherwise. The timezone is kept as it is.
 */
export function castTemporal(v: TemporalValue, to: TemporalKind): TemporalValue {
  if (v.kind !== to && v.kind !== 'dateTime' && !(v.kind === 'date' && to !== 'time')) {
    throw new MetapathError('XPTY0004', `An xs:${v.kind} cannot be cast to xs:${to}`);
  }
  return project(to, v, v.tz);
}

/** The dateTime of a clock reading in the timezone `tzMinutes`, to the millisecond, for fn:current-dateTime. */
export function temporalFromDate(date: Date, tzMinutes: number): TemporalValue {
  checkTimezone(tzMinutes);
  return fromLocalSeconds('dateTime', add(decimal(date.getTime(), 3), decimal(tzMinutes * 60)), tzMinutes);
}
