/** Accessors, booleans, the focus and errors (F&O 2, 3, 7, 16.1). */
import { NS } from '../context.js';
import { MetapathError } from '../errors.js';
import { atomize, ebv, stringOf, stringValueOf } from '../items.js';
import { optAtomic, optString } from './args.js';
import { define } from './registry.js';

define(NS.fn, {
  true: [0, () => [true]],
  false: [0, () => [false]],
  boolean: [1, ([a]) => [ebv(a!)]],
  not: [1, ([a]) => [!ebv(a!)]],
  string: [
    [0, 1],
    (args, ctx) => {
      const items = args.length === 0 ? [ctx.contextItem()] : args[0]!;
      if (items.length > 1) throw new MetapathError('XPTY0004', 'string() takes one item at most');
      return [items.length === 0 ? '' : stringValueOf(items[0]!)];
    },
  ],
  data: [[0, 1], (args, ctx) => atomize(args.length === 0 ? [ctx.contextItem()] : args[0]!)],
  position: [
    0,
    (_, ctx) => {
      ctx.contextItem();
      return [ctx.position];
    },
  ],
  last: [
    0,
    (_, ctx) => {
      ctx.contextItem();
      return [ctx.size];
    },
  ],
  error: [
    [0, 3],
    (args) => {
      const code = args[0] === undefined ? 'FOER0000' : (optAtomic(args[0], 'fn:error', 0) ?? 'FOER0000');
      const description =
        args[1] === undefined ? 'an error was raised by fn:error()' : (optString(args[1], 'fn:error', 1) ?? '');
      throw new MetapathError(stringOf(code), description);
    },
  ],
  // Constraints have no place to print to; trace returns its value, as F&O allows.
  trace: [[1, 2], ([value]) => value!],
});
