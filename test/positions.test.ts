import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { jsonLocator } from '../src/oscal/formats/json-reader.js';
import { positionAt, positionsIn } from '../src/oscal/formats/positions.js';
import { CONTENT } from './support/shared.js';

test('positionsIn gives, for every offset, what positionAt gives', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', ' ') }), (text) => {
      const positionOf = positionsIn(text);
      for (let offset = 0; offset <= text.length; offset++)
        assert.deepEqual(positionOf(offset), positionAt(text, offset), `offset ${offset} of ${JSON.stringify(text)}`);
    }),
  );
});

/** Every value's JSON pointer, with the path segments (keys as strings, indexes as numbers) that lead to it. */
function pointers(value: unknown, pointer = '', segments: (string | number)[] = []): [string, (string | number)[]][] {
  const here: [string, (string | number)[]][] = [[pointer, segments]];
  if (typeof value !== 'object' || value === null) return here;
  for (const [key, child] of Object.entries(value)) {
    const segment = Array.isArray(value) ? Number(key) : key;
    here.push(...pointers(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, [...segments, segment]));
  }
  return here;
}

/** Where jsonc-parser's tree puts each value: at its key inside an object, else at the value. */
function reference(
  text: string,
  paths: [string, (string | number)[]][],
): Map<string, { line: number; column: number }> {
  const root = parseTree(text)!;
  return new Map(
    paths.map(([pointer, segments]) => {
      const node = findNodeAtLocation(root, segments)!;
      return [pointer, positionAt(text, node.parent?.type === 'property' ? node.parent.offset : node.offset)];
    }),
  );
}

function assertLocatesAll(text: string, only?: (pointer: string) => boolean): void {
  const all = pointers(JSON.parse(text));
  const asked = only ? all.filter(([p]) => only(p)) : all;
  const expected = reference(text, asked);
  const locate = jsonLocator(
    text,
    asked.map(([p]) => p),
  );
  for (const [pointer] of asked) assert.deepEqual(locate(pointer), expected.get(pointer), pointer);
  assert.equal(locate('/no/such/path'), undefined);
}

test('the JSON locator places every value where the jsonc-parser tree does', () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 4 }), fc.constantFrom(0, 1, 2, '\t', ' \r\n '), (json, indent) => {
      const text = JSON.stringify(JSON.parse(json), null, indent);
      assertLocatesAll(text);
      // Asked for some paths only, it skips the values that hold none of them.
      assertLocatesAll(text, (p) => p.length % 2 === 0);
    }),
  );
});

test('the JSON locator finds a few paths of a large document, and every path of a small one', () => {
  const ssp = readFileSync(
    join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json'),
    'utf8',
  );
  assertLocatesAll(ssp);
  const catalog = readFileSync(
    join(CONTENT, 'oscal-content@a849dbc', 'nist.gov', 'SP800-53', 'rev5', 'json', 'NIST_SP-800-53_rev5_catalog.json'),
    'utf8',
  );
  assertLocatesAll(catalog, (p) => /^\/catalog\/(back-matter\/resources\/9\d|groups\/3\/controls\/1)(\/|$)/.test(p));
});
