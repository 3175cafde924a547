/** Functions on dates, times and durations (F&O 8, 9, 10). */
import { castAs } from '../casts.js';
import { NS, type Ctx } from '../context.js';
import { MetapathError } from '../errors.js';
import { Atom, EMPTY, typeOf, type Sequence } from '../items.js';
import {
  adjustToTimezone,
  castTemporal,
  durationComponent,
  temporalComponent,
  type DurationComponent,
  type DurationValue,
  type TemporalComponent,
  type TemporalKind,
  type TemporalValue,
} from '../temporal.js';
import { optAtomic } from './args.js';
import { define, type FunctionImpl } from './registry.js';

const DURATIONS = new Set(['duration', 'yearMonthDuration', 'dayTimeDuration']);

/** The argument as a value of `kind`, untypedAtomic cast to it; undefined for the empty sequence. */
function temporalArg(seq: Sequence, kind: TemporalKind, fn: string): TemporalValue | undefined {
  let value = optAtomic(seq, fn, 0);
  if (value === undefined) return undefined;
  if (value instanceof Atom && value.type === 'untypedAtomic') value = castAs(value, kind);
  if (typeOf(value) !== kind)
    throw new MetapathError('XPTY0004', `${fn} takes an xs:${kind}, not an xs:${typeOf(value)}`);
  return (value as Atom<TemporalKind>).value;
}

function durationArg(seq: Sequence, fn: string): DurationValue | undefined {
  let value = optAtomic(seq, fn, 0);
  if (value === undefined) return undefined;
  if (value instanceof Atom && value.type === 'untypedAtomic') value = castAs(value, 'duration');
  if (!DURATIONS.has(typeOf(value)))
    throw new MetapathError('XPTY0004', `${fn} takes a duration, not an xs:${typeOf(value)}`);
  return (value as Atom<'duration'>).value;
}

function componentResult(value: number | DurationValue | undefined, name: TemporalComponent): Sequence {
  if (value === undefined) return EMPTY;
  if (typeof value !== 'number') return [new Atom('dayTimeDuration', value)];
  return [name === 'seconds' ? new Atom('decimal', value) : value];
}

/** `<component>-from-<kind>`, e.g. year-from-dateTime. */
function component(kind: TemporalKind, name: TemporalComponent): [number, FunctionImpl] {
  const fn = `fn:${name}-from-${kind}`;
  return [
    1,
    ([arg]) => {
      const value = temporalArg(arg!, kind, fn);
      return value === undefined ? EMPTY : componentResult(temporalComponent(value, name), name);
    },
  ];
}

function durationPart(name: DurationComponent): [number, FunctionImpl] {
  const fn = `fn:${name}-from-duration`;
  return [
    1,
    ([arg]) => {
      const value = durationArg(arg!, fn);
      if (value === undefined) return EMPTY;
      const n = durationComponent(value, name);
      return [name === 'seconds' ? new Atom('decimal', n) : n];
    },
  ];
}

/** The timezone argument of adjust-*-to-timezone: absent means the implicit one, empty means none. */
function timezoneArg(args: Sequence[], ctx: Ctx, fn: string): number | null {
  if (args.length < 2) return ctx.dyn.timezone;
  const tz = optAtomic(args[1]!, fn, 1);
  if (tz === undefined) return null;
  if (typeOf(tz) !== 'dayTimeDuration')
    throw new MetapathError('XPTY0004', `${fn}'s timezone must be an xs:dayTimeDuration`);
  const seconds = (tz as Atom<'dayTimeDuration'>).value.seconds;
  if (seconds % 60 !== 0) throw new MetapathError('FODT0003', `${fn}: a timezone is a whole number of minutes`);
  return seconds / 60;
}

function adjust(kind: TemporalKind): [[number, number], FunctionImpl] {
  const fn = `fn:adjust-${kind}-to-timezone`;
  return [
    [1, 2],
    (args, ctx) => {
      const value = temporalArg(args[0]!, kind, fn);
      return value === undefined ? EMPTY : [new Atom(kind, adjustToTimezone(value, timezoneArg(args, ctx, fn)))];
    },
  ];
}

define(NS.fn, {
  'current-dateTime': [0, (_, ctx) => [new Atom('dateTime', ctx.dyn.now())]],
  'current-date': [0, (_, ctx) => [new Atom('date', castTemporal(ctx.dyn.now(), 'date'))]],
  'current-time': [0, (_, ctx) => [new Atom('time', castTemporal(ctx.dyn.now(), 'time'))]],
  'implicit-timezone': [
    0,
    (_, ctx) => [new Atom('dayTimeDuration', { kind: 'dayTimeDuration', months: 0, seconds: ctx.dyn.timezone * 60 })],
  ],
  dateTime: [
    2,
    ([date, time]) => {
      const d = temporalArg(date!, 'date', 'fn:dateTime');
      const t = temporalArg(time!, 'time', 'fn:dateTime');
      if (d === undefined || t === undefined) return EMPTY;
      if (d.tz !== null && t.tz !== null && d.tz !== t.tz)
        throw new MetapathError('FORG0008', 'fn:dateTime: the date and the time have different timezones');
      return [
        new Atom('dateTime', {
          ...d,
          kind: 'dateTime',
          hour: t.hour,
          minute: t.minute,
          second: t.second,
          tz: d.tz ?? t.tz,
        }),
      ];
    },
  ],
  ...Object.fromEntries(
    (['year', 'month', 'day', 'hours', 'minutes', 'seconds', 'timezone'] as const).map((n) => [
      `${n}-from-dateTime`,
      component('dateTime', n),
    ]),
  ),
  ...Object.fromEntries(
    (['year', 'month', 'day', 'timezone'] as const).map((n) => [`${n}-from-date`, component('date', n)]),
  ),
  ...Object.fromEntries(
    (['hours', 'minutes', 'seconds', 'timezone'] as const).map((n) => [`${n}-from-time`, component('time', n)]),
  ),
  ...Object.fromEntries(
    (['years', 'months', 'days', 'hours', 'minutes', 'seconds'] as const).map((n) => [
      `${n}-from-duration`,
      durationPart(n),
    ]),
  ),
  'adjust-dateTime-to-timezone': adjust('dateTime'),
  'adjust-date-to-timezone': adjust('date'),
  'adjust-time-to-timezone': adjust('time'),
});
