/**
 * Child process of the HTTP benchmark: seeds a data directory with small catalogs through the
 * store's createDocument, before the server opens it. Prints {"ms": …, "batched": …}.
 *
 * Usage: node dist/bench/http-seed.js <data dir> <count>
 */
import { randomUUID } from 'node:crypto';
import { blobOf } from '../src/service/blobs.js';
import { CONTENT_UUID_SCHEME } from '../src/oscal/identifiers.js';
import { openStore } from '../src/store/index.js';
import type { DocumentFields } from '../src/store/types.js';
import { seedTitle } from './http-support.js';

const BATCH = 1000;
const OSCAL_VERSION = '1.1.2';

const [dataDir, countArg] = process.argv.slice(2);
if (!dataDir || !countArg) throw new Error('usage: http-seed.js <data dir> <count>');
const count = Number(countArg);

const store = await openStore({ dataDir });
const start = performance.now();

/**
 * Each document is a catalog as a JSON POST of it would leave it: its list fields in the documents
 * table, a revision, and its JSON rendition. The list reads only the documents table, so all
 * revisions point at one small canonical blob (the first document's), which keeps seeding to
 * the cost of the store's own writes.
 */
const base = Date.UTC(2024, 0, 1);
let shared: ReturnType<typeof blobOf> | undefined;
function seed(i: number): Promise<unknown> {
  const id = randomUUID();
  const documentIds = [{ scheme: CONTENT_UUID_SCHEME, identifier: id }];
  // Spread over the period, not in insertion order, so the last-modified sort has work to do.
  const lastModified = new Date(base + ((i * 7919) % count) * 60_000).toISOString();
  const fields: DocumentFields = { title: seedTitle(i), version: '1.0.0', oscalVersion: OSCAL_VERSION, lastModified, documentIds, markings: [] };
  if (!shared) {
    const content = { catalog: { uuid: randomUUID(), metadata: { title: fields.title, 'last-modified': lastModified, version: '1.0.0', 'oscal-version': OSCAL_VERSION, 'document-ids': documentIds } } };
    shared = blobOf(Buffer.from(JSON.stringify(content, null, 2) + '\n'));
  }
  return store.createDocument(
    { id, model: 'catalog', owner: 'admin', visibility: 'private' },
    { canonical: shared, original: shared, originalFormat: 'json', author: 'admin', fields, renditions: [{ format: 'json', blob: shared }], pendingFormats: [] },
    { actor: 'admin', action: 'document.create', documentId: id, detail: { model: 'catalog', format: 'json' } },
  );
}

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
    for (let i = from; i < Math.min(count, from + BATCH); i++) outcomes.push(seed(i));
  };
  if (batched) db!.transaction!(run)();
  else run();
  await Promise.all(outcomes);
}
const ms = performance.now() - start;
await store.close();
console.log(JSON.stringify({ ms, batched }));
