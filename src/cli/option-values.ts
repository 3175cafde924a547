import { InvalidArgumentError } from 'commander';
import { expiryFrom } from '../auth/tokens.js';
import { parseSize } from './sizes.js';

/**
 * Option values checked while the command line is parsed, so that a mistyped value is refused
 * in commander's words before any file, store or token is touched. Commander passes values from
 * the environment through the same parsers.
 */

function checked<T>(parse: (text: string) => T): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };
}

export const portValue = checked((text: string): number => {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new Error('expected a TCP port from 0 to 65535');
  return Number(text);
});

export const wholeNumberValue = checked((text: string): number => {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new Error('expected a whole number such as 0 or 10');
  }
  return Number(text);
});

export const sizeValue = checked(parseSize);

/** Seconds, fractions allowed: 5, 0.5 or 0. */
export const secondsValue = checked((text: string): number => {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(n)) {
    throw new Error('expected a number of seconds, e.g. 5 or 0');
  }
  return n;
});

/** A repeatable option: every value given, in order. */
export const collectValue = (text: string, all: string[]): string[] => [...all, text];

/** A duration such as 30d or 120s, kept as written: when it counts from is the caller's to say. */
export const durationValue = checked((text: string): string => {
  expiryFrom(text);
  return text;
});

/** How many at a time: a whole number of at least 1. */
export const countValue = checked((text: string): number => {
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new Error('expected a whole number of at least 1, such as 4');
  }
  return Number(text);
});
