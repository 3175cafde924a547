/**
 * Child process of the HTTP benchmark: seeds a data directory with small catalogs through the
 * store's createDocument, before the server opens it. Prints {"ms": …, "how": …}.
 *
 * Usage: node dist/bench/http-seed.js <data dir> <count>
 */
import { openStore } from '../src/store/index.js';
import { SeedDocuments } from './http-seed-data.js';

const BATCH = 1000;

const [dataDir, countArg] = process.argv.slice(2);
if (!dataDir || !countArg) throw new Error('usage: http-seed.js <data dir> <count>');
const count = Number(countArg);

const store = await openStore({ dataDir });
const seeds = new SeedDocuments(count);
const start = performance.now();

/**
 * createDocument commits each document on its own, with an fsync (synchronous=FULL): ~0.6 ms a
 * document on a fast disk, a minute or more for 100 000. When the store's SQLite connection is
 * reachable, a thousand calls share one outer transaction (each becomes a savepoint; the calls
 * run synchronously, their promises only carry the outcome).
 */
const db = (store as unknown as { db?: { transaction?: (fn: () => void) => () => void } }).db;
const batched = typeof db?.transaction === 'function';
for (let from = 0; from < count; from += BATCH) {
  const outcomes: Promise<unknown>[] = [];
  const run = () => {
    for (let i = from; i < Math.min(count, from + BATCH); i++) outcomes.push(store.createDocument(...seeds.args(i)));
  };
  if (batched) db!.transaction!(run)();
  else run();
  await Promise.all(outcomes);
}
const ms = performance.now() - start;
await store.close();
console.log(
  JSON.stringify({ ms, how: `through the store's createDocument${batched ? ` (${BATCH} to a transaction)` : ''}` }),
);
