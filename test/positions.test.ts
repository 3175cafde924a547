import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { positionAt, positionsIn } from '../src/oscal/formats/positions.js';

test('positionsIn gives, for every offset, what positionAt gives', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', ' ') }), (text) => {
      const positionOf = positionsIn(text);
      for (let offset = 0; offset <= text.length; offset++)
        assert.deepEqual(positionOf(offset), positionAt(text, offset), `offset ${offset} of ${JSON.stringify(text)}`);
    }),
  );
});
