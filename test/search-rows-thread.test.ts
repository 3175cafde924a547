/**
 * PostgreSQL's writes have their search rows made on a thread of their own
 * (search-rows-thread.ts): what the thread makes must be what searchRows makes on the event loop,
 * and a write must get its rows when the thread is lost under it. The thread's calls
 * (thread-calls.ts) answer each one, a failure included, and start the thread again once lost.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseOscal } from '../src/oscal/formats/index.js';
import { searchEntriesOf } from '../src/oscal/search/extract.js';
import { searchRows, type RowBatch } from '../src/store/postgres/search.js';
import { ROWS_SCRIPT, searchRowsThread, type RowsInput } from '../src/store/postgres/search-rows-thread.js';
import { threadCalls } from '../src/thread-calls.js';
import { storedEntry, type DocumentScope } from '../src/store/search-query.js';
import { REV5_A849 } from './support/shared.js';

const CATALOG = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');
const entries = searchEntriesOf(parseOscal(readFileSync(CATALOG, 'utf8'), 'json')).map(storedEntry);
const scope: DocumentScope = { model: 'catalog', owner: 'alice', visibility: 'private', grantees: ['group:auditors'] };

describe('the search rows thread', () => {
  const thread = searchRowsThread();
  after(() => thread.close());

  test("makes the 800-53 catalog's rows as the event loop does, in several INSERTs", async () => {
    // The thread's own answer: the write's function would make the rows here were the thread to fail.
    const calls = threadCalls<RowsInput, RowBatch[]>(ROWS_SCRIPT);
    try {
      const rows = await calls.call({ entries, scope });
      assert.ok(rows.length > 1, 'more entries than one INSERT takes');
      assert.deepEqual(rows, searchRows(entries, scope));
    } finally {
      await calls.close();
    }
  });

  test('gives a write its rows when the thread stops under it, and starts again for the next', async () => {
    const pending = thread.rows(entries, scope);
    await thread.close();
    assert.deepEqual(await pending, searchRows(entries, scope));
    assert.deepEqual(await thread.rows(entries.slice(0, 5), scope), searchRows(entries.slice(0, 5), scope));
  });
});

describe('thread calls', () => {
  test('answer what the function threw, and the thread goes on', async () => {
    const calls = threadCalls<RowsInput, RowBatch[]>(ROWS_SCRIPT);
    try {
      await assert.rejects(
        calls.call({ entries: null, scope } as unknown as RowsInput),
        /Cannot read properties of null/,
      );
      assert.deepEqual(
        await calls.call({ entries: entries.slice(0, 3), scope }),
        searchRows(entries.slice(0, 3), scope),
      );
    } finally {
      await calls.close();
    }
  });

  test('reject when the script cannot start, and try again at the next call', async () => {
    const calls = threadCalls<number, number>(new URL('./no-such-thread.js', import.meta.url));
    await assert.rejects(calls.call(1), /no-such-thread/);
    await assert.rejects(calls.call(2), /no-such-thread/);
    await calls.close();
  });
});
