/**
 * PostgreSQL's writes have their search rows made on a thread of their own
 * (search-rows-thread.ts): what comes back must be what searchRows makes on the event loop, and a
 * write must get its rows when the thread is lost under it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseOscal } from '../src/oscal/formats/index.js';
import { searchEntriesOf } from '../src/oscal/search/extract.js';
import { searchRows } from '../src/store/postgres/search.js';
import { searchRowsThread } from '../src/store/postgres/search-rows-thread.js';
import { storedEntry, type DocumentScope } from '../src/store/search-query.js';
import { REV5_A849 } from './support/shared.js';

const CATALOG = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');
const entries = searchEntriesOf(parseOscal(readFileSync(CATALOG, 'utf8'), 'json')).map(storedEntry);
const scope: DocumentScope = { model: 'catalog', owner: 'alice', visibility: 'private', grantees: ['group:auditors'] };

describe('the search rows thread', () => {
  const thread = searchRowsThread();
  after(() => thread.close());

  test("makes the 800-53 catalog's rows as the event loop does, in several INSERTs", async () => {
    const rows = await thread.rows(entries, scope);
    assert.ok(rows.length > 1, 'more entries than one INSERT takes');
    assert.deepEqual(rows, searchRows(entries, scope));
  });

  test('gives a write its rows when the thread stops under it, and starts again for the next', async () => {
    const pending = thread.rows(entries, scope);
    await thread.close();
    assert.deepEqual(await pending, searchRows(entries, scope));
    assert.deepEqual(await thread.rows(entries.slice(0, 5), scope), searchRows(entries.slice(0, 5), scope));
  });
});
