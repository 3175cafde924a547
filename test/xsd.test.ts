import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { xsdVerdict } from './support/nist-oracle.js';
import { CONTENT, filesUnder, shortName } from './support/shared.js';

/** NIST's official XSD, by the oracle's one XSD validator: its messages, or '' when valid. */
function xsdErrors(xml: string, version: string): string {
  const { valid, errors } = xsdVerdict(xml, version);
  return valid ? '' : errors.join('\n') || 'invalid, without a message';
}

const v10 = filesUnder(CONTENT, '.json')
  .map((path) => ({ path, doc: parseOscal(readFileSync(path, 'utf8'), 'json') }))
  .filter(({ doc }) => doc.version.startsWith('1.0.'));

describe("XML we write for OSCAL 1.0.x content validates against NIST's XSD", () => {
  test(`there is 1.0.x content to check (${v10.length} documents)`, () => {
    assert.ok(v10.length >= 9);
  });

  test('the XSD check is live: an element out of model order is rejected', () => {
    const { doc } = v10.find(({ doc }) => doc.model === 'profile')!;
    const xml = serializeOscal(doc, 'xml');
    const swapped = xml.replace(/(<metadata>[\s\S]*?<\/metadata>)(\s*)(<import[\s\S]*?<\/import>)/, '$3$2$1');
    assert.notEqual(swapped, xml);
    assert.match(xsdErrors(swapped, doc.version), /not expected/);
  });

  for (const { path, doc } of v10) {
    test(shortName(path), () => {
      assert.equal(xsdErrors(serializeOscal(doc, 'xml'), doc.version), '');
    });
  }
});
