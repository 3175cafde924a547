import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OscalError } from '../src/oscal/errors.js';
import { parseOscal } from '../src/oscal/formats/index.js';
import { SUPPORTED_VERSIONS } from '../src/oscal/model/versions.js';
import { UUID, catalogXml } from './support/documents.js';

function xmlError(text: string): OscalError {
  try {
    parseOscal(text, 'xml');
  } catch (e) {
    assert.ok(e instanceof OscalError, `expected an OscalError, got ${String(e)}`);
    return e;
  }
  assert.fail('the document was accepted');
}

describe('XML reader', () => {
  test('reads a catalog into the JSON form, values typed and flags as properties', () => {
    const doc = parseOscal(
      catalogXml(
        '',
        `
  <group id="g1" class="family">
    <title>Group <em>one</em></title>
    <control id="c1">
      <title>Control</title>
    </control>
  </group>`,
      ),
    );
    assert.equal(doc.model, 'catalog');
    assert.equal(doc.version, '1.1.2');
    assert.deepEqual(doc.content, {
      catalog: {
        uuid: UUID,
        metadata: {
          title: 'Test catalog',
          'last-modified': '2024-01-01T00:00:00Z',
          version: '1.0',
          'oscal-version': '1.1.2',
        },
        groups: [{ id: 'g1', class: 'family', title: 'Group *one*', controls: [{ id: 'c1', title: 'Control' }] }],
      },
    });
  });

  test('an unknown element is an error naming it, with its line and column', () => {
    const e = xmlError(catalogXml('\n    <colour>red</colour>'));
    assert.equal(e.code, 'unknown-element');
    assert.match(e.message, /<colour> is not allowed in <metadata>/);
    assert.equal(e.line, 8);
    assert.equal(e.column, 5);
  });

  test('an unknown attribute is an error with its line', () => {
    const e = xmlError(catalogXml('', '\n  <group id="g" colour="red"><title>G</title></group>'));
    assert.equal(e.code, 'unknown-element');
    assert.match(e.message, /attribute colour is not allowed on <group>/);
    assert.equal(e.line, 9);
  });

  test('an element in another namespace is unknown', () => {
    const e = xmlError(catalogXml('\n    <x:title xmlns:x="urn:other">T</x:title>'));
    assert.equal(e.code, 'unknown-element');
  });

  test('text directly inside an assembly is refused', () => {
    const e = xmlError(catalogXml('\n    stray words'));
    assert.match(e.message, /text "stray words" is not allowed directly in <metadata>/);
  });

  test('between elements: comments, processing instructions and blank CDATA pass, any other text is refused where it stands', () => {
    const quiet = parseOscal(
      catalogXml('\n    <!-- a <comment> -->\n    <?pi x?>\n    <![CDATA[ ]]>&#32;', '\n  <!---->'),
    );
    assert.equal((quiet.content.catalog as { metadata: { version: string } }).metadata.version, '1.0');
    for (const [stray, column] of [
      ['<!-- c -->stray', 20],
      ['&amp;', 10],
      ['<![CDATA[x]]>', 17],
      ['<?pi?> x', 13],
    ] as const) {
      const e = xmlError(catalogXml(`\n    ${stray}<published>2024-01-01T00:00:00Z</published>`));
      assert.equal(e.code, 'unknown-element', stray);
      assert.match(e.message, /is not allowed directly in <metadata>/, stray);
      assert.deepEqual([e.line, e.column], [8, column], stray);
    }
    const beforeClose = xmlError(catalogXml('', '\n  <!-- c --> x'));
    assert.match(beforeClose.message, /text "x" is not allowed directly in <catalog>/);
  });

  test('a single-valued element given twice is refused rather than one value lost', () => {
    const e = xmlError(
      catalogXml('\n    <published>2024-01-01T00:00:00Z</published><published>2024-01-02T00:00:00Z</published>'),
    );
    assert.equal(e.code, 'invalid-structure');
    assert.match(e.message, /<published> may appear only once in <metadata>/);
  });

  test('any DOCTYPE is refused before parsing, so no entity is declared or expanded', () => {
    const xxe = catalogXml()
      .replace('<catalog', '<!DOCTYPE catalog [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<catalog')
      .replace('Test catalog', '&xxe;');
    const e = xmlError(xxe);
    assert.equal(e.code, 'forbidden-construct');
    assert.equal(e.line, 2);
    const laughs = catalogXml().replace(
      '<catalog',
      '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<catalog',
    );
    assert.equal(xmlError(laughs).code, 'forbidden-construct');
    assert.equal(
      xmlError(catalogXml().replace('<catalog', '<!-- c --><?pi x?>\n<!DOCTYPE catalog>\n<catalog')).code,
      'forbidden-construct',
    );
  });

  test('an undeclared entity reference is malformed, never resolved', () => {
    const e = xmlError(catalogXml().replace('Test catalog', 'Test &xxe;'));
    assert.equal(e.code, 'malformed');
    assert.equal(e.line, 4);
  });

  test('mismatched tags are reported as not well-formed, with the line', () => {
    const e = xmlError(catalogXml().replace('</metadata>', '</metadata-x>'));
    assert.equal(e.code, 'malformed');
    assert.match(e.message, /not well-formed XML/);
    assert.equal(e.line, 8);
  });

  test('roots: wrong namespace, unknown model, missing or unsupported version', () => {
    assert.equal(
      xmlError(catalogXml().replace('xmlns="http://csrc.nist.gov/ns/oscal/1.0"', 'xmlns="urn:x"')).code,
      'unknown-root',
    );
    const unknown = xmlError(catalogXml().replace(/catalog/g, 'recipe-book'));
    assert.equal(unknown.code, 'unknown-root');
    assert.match(unknown.message, /<recipe-book> is not an OSCAL model; expected one of: catalog, /);
    const missing = xmlError(catalogXml().replace(/<oscal-version>.*<\/oscal-version>/, ''));
    assert.equal(missing.code, 'unsupported-version');
    assert.ok(missing.message.includes(SUPPORTED_VERSIONS.join(', ')));
    assert.match(xmlError(catalogXml('', '', '9.9.9')).message, /"9\.9\.9" is not supported/);
  });

  test('grouped children (revisions) become the JSON array; CDATA is text', () => {
    const doc = parseOscal(
      catalogXml(`
    <revisions>
      <revision><title>R1</title><version><![CDATA[1.0 <beta>]]></version></revision>
      <revision><version>2</version></revision>
    </revisions>`),
    );
    const metadata = (doc.content.catalog as { metadata: { revisions: unknown } }).metadata;
    assert.deepEqual(metadata.revisions, [{ title: 'R1', version: '1.0 <beta>' }, { version: '2' }]);
  });

  test('numbers and booleans are typed by the model; a bad one is an error at its line', () => {
    const ssp = (start: string) => `<?xml version="1.0"?>
<profile xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${UUID}">
  <metadata><title>P</title><last-modified>2024-01-01T00:00:00Z</last-modified><version>1</version><oscal-version>1.1.2</oscal-version></metadata>
  <import href="#x"><include-all/></import>
  <merge><as-is>${start}</as-is></merge>
</profile>`;
    const doc = parseOscal(ssp('true'));
    assert.deepEqual((doc.content.profile as { merge: unknown }).merge, { 'as-is': true });
    const e = xmlError(ssp('maybe'));
    assert.equal(e.code, 'invalid-value');
    assert.match(e.message, /<as-is> must be true or false, not "maybe"/);
    assert.equal(e.line, 5);
  });
});
