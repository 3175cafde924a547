/**
 * The store as a whole: open, ping and close. Run on each backend, a fresh store per test, by
 * harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conformance } from './harness.js';

conformance('lifecycle', ({ open }) => {
  test('ping answers true while open; after close the store refuses work', async () => {
    const store = await open();
    assert.equal(await store.ping(), true);
    await store.close();
    await assert.rejects(store.ping());
  });
});
