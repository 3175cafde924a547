/**
 * A write's search entries are extracted on a thread of their own from the document's canonical
 * JSON (extract-thread.ts): they must be the entries extracted on the event loop from the parsed
 * document, whichever format it came in, and a write must get them when the thread is lost under it.
 * A reindex takes its entries from the same extraction, as `serve` runs one while it serves.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseOscal, type Format } from '../src/oscal/formats/index.js';
import { extractionThread, type SearchEntriesOf } from '../src/oscal/search/extract-thread.js';
import { searchEntriesOf } from '../src/oscal/search/extract.js';
import { canonicalJson } from '../src/service/renditions.js';
import { createServices } from '../src/service/services.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { newDataDir } from './support/server.js';
import { SERVICE_ADMIN as ADMIN, SERVICE_SETTINGS as SETTINGS } from './support/services.js';
import { CONTENT, REV5_A849 } from './support/shared.js';

const EXAMPLES = join(CONTENT, 'oscal-content@88bb8de', 'examples');
const FORMATS: Format[] = ['json', 'xml', 'yaml'];
const DOCUMENTS = [
  ...readdirSync(EXAMPLES, { withFileTypes: true }).flatMap((model) =>
    FORMATS.flatMap((format) =>
      model.isDirectory()
        ? readdirSync(join(EXAMPLES, model.name, format)).map((name) => ({
            path: join(EXAMPLES, model.name, format, name),
            format,
          }))
        : [],
    ),
  ),
  { path: join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_catalog.xml'), format: 'xml' as const },
];

describe('search entries extracted on a thread', () => {
  const thread = extractionThread();
  after(() => thread.close());

  test(`are those of the event loop for NIST's examples in every format and the 800-53 catalog (${DOCUMENTS.length} documents)`, async () => {
    assert.ok(DOCUMENTS.length >= 30, `${DOCUMENTS.length} documents found`);
    for (const { path, format } of DOCUMENTS) {
      const doc = parseOscal(readFileSync(path, 'utf8'), format);
      const expected = searchEntriesOf(doc);
      assert.ok(expected.length > 1, path);
      assert.deepStrictEqual(await thread.entriesOf(doc, canonicalJson(doc)), expected, path);
    }
  });

  test('are extracted on the event loop when the thread stops under a write, and the thread starts again for the next', async () => {
    // Large enough that the thread is still at work when it stops.
    const doc = parseOscal(readFileSync(DOCUMENTS.at(-1)!.path, 'utf8'), 'xml');
    const canonical = canonicalJson(doc);
    const pending = thread.entriesOf(doc, canonical);
    await thread.close();
    assert.deepStrictEqual(await pending, searchEntriesOf(doc));
    assert.deepStrictEqual(await thread.entriesOf(doc, canonical), searchEntriesOf(doc));
  });

  test("a reindex extracts through the writes' extraction, from the stored canonical JSON", async () => {
    const store = new SqliteStore(join(newDataDir(), 'depot.sqlite'));
    try {
      const given: Buffer[] = [];
      const recorded: SearchEntriesOf = (doc, canonical) => {
        given.push(canonical);
        return thread.entriesOf(doc, canonical);
      };
      const services = createServices(store, SETTINGS, recorded);
      const body = readFileSync(join(EXAMPLES, 'catalog', 'json', 'basic-catalog.json'));
      const { record } = await services.documents.create(ADMIN, 'catalog', body, 'application/json');
      const found = async () => (await services.search.search(ADMIN, { q: 'segregation', limit: 5 })).results;
      assert.ok((await found()).length > 0);

      await services.search.reindexAll();
      assert.equal(given.length, 2, 'the write, then the reindex');
      assert.deepStrictEqual(given[1], given[0]);
      assert.ok((await found()).length > 0);

      // An extraction that makes none leaves the entries as they are, as it does for a write.
      const none = createServices(store, SETTINGS, async () => undefined);
      assert.equal(await none.search.indexCurrent(record.id), false);
      assert.ok((await found()).length > 0);
    } finally {
      await store.close();
    }
  });
});
