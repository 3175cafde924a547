import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { CONTENT, SHARED, filesUnder, shortName } from './support/shared.js';

const work = mkdtempSync(join(tmpdir(), 'oscal-xsd-'));

/** xmllint (Debian's libxml2-utils, installed by .ci/run) against NIST's official XSD. */
function xsdErrors(xml: string, version: string): string {
  const file = join(work, 'doc.xml');
  writeFileSync(file, xml);
  const schema = join(SHARED, 'oscal', 'schemas', `v${version}`, 'oscal_complete_schema.xsd');
  try {
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', schema, file], { stdio: 'pipe' });
    return '';
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e);
  }
}

const v10 = filesUnder(CONTENT, '.json')
  .map((path) => ({ path, doc: parseOscal(readFileSync(path, 'utf8'), 'json') }))
  .filter(({ doc }) => doc.version.startsWith('1.0.'));

describe('XML we write for OSCAL 1.0.x content validates against NIST\'s XSD', () => {
  test(`there is 1.0.x content to check (${v10.length} documents)`, () => {
    assert.ok(v10.length >= 9);
  });

  test('the XSD check is live: an element out of model order is rejected', () => {
    const { doc } = v10.find(({ doc }) => doc.model === 'profile')!;
    const xml = serializeOscal(doc, 'xml');
    const swapped = xml.replace(/(<metadata>[\s\S]*?<\/metadata>)(\s*)(<import[\s\S]*?<\/import>)/, '$3$2$1');
    assert.notEqual(swapped, xml);
    assert.match(xsdErrors(swapped, doc.version), /fails to validate|not expected/);
  });

  for (const { path, doc } of v10) {
    test(shortName(path), () => {
      assert.equal(xsdErrors(serializeOscal(doc, 'xml'), doc.version), '');
    });
  }
});
