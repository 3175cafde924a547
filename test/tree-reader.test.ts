import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OscalError } from '../src/oscal/errors.js';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { catalogJson, profileYaml } from './support/documents.js';

function error(text: string, format: 'json' | 'yaml'): OscalError {
  try {
    parseOscal(text, format);
  } catch (e) {
    assert.ok(e instanceof OscalError, `expected an OscalError, got ${String(e)}`);
    return e;
  }
  assert.fail('the document was accepted');
}

describe('JSON reader', () => {
  test('an unknown property is an error with its JSON pointer, line and column', () => {
    const e = error(catalogJson(',\n      "colour": "red"'), 'json');
    assert.equal(e.code, 'unknown-property');
    assert.equal(e.path, '/catalog/metadata/colour');
    assert.match(e.message, /property "colour" is not allowed in metadata; allowed: /);
    assert.equal(e.line, 9);
    assert.equal(e.column, 7);
  });

  test('a syntax error names the problem and its position', () => {
    const e = error(catalogJson().replace('"T",', '"T"'), 'json');
    assert.equal(e.code, 'malformed');
    assert.match(e.message, /^not valid JSON: comma expected/);
    assert.equal(e.line, 6);
  });

  test('an object where a value belongs, and a single value where an array belongs, are errors', () => {
    assert.equal(error(catalogJson().replace('"T"', '{"x": 1}'), 'json').path, '/catalog/metadata/title');
    assert.equal(
      error(catalogJson(',\n      "props": {"name": "a", "value": "b"}'), 'json').path,
      '/catalog/metadata/props',
    );
  });

  test('characters XML cannot carry (NUL, other controls, unpaired surrogates) are refused, so every document converts', () => {
    for (const bad of ['a\\u0000b', 'a\\u0007b', 'a\\ud800b', 'a\\udc00']) {
      const e = error(catalogJson().replace('"T"', `"${bad}"`), 'json');
      assert.equal(e.code, 'invalid-value', bad);
      assert.equal(e.path, '/catalog/metadata/title');
    }
    assert.equal(
      parseOscal(catalogJson().replace('"T"', '"tab\\tnew\\nline \\ud83d\\ude00"'), 'json').model,
      'catalog',
    );
  });

  test('the document must hold exactly one known model', () => {
    assert.equal(error('{"recipe": {}}', 'json').code, 'unknown-root');
    assert.equal(error('[]', 'json').code, 'invalid-structure');
    assert.equal(error(`{"catalog": {}, "profile": {}}`, 'json').code, 'unknown-root');
    const wrongRoot = error(catalogJson().replace('"catalog"', '"recipe-book"'), 'json');
    assert.equal(wrongRoot.code, 'unknown-root');
  });
});

describe('YAML reader', () => {
  test('scalars are typed by the model, not by how they look', () => {
    const doc = parseOscal(profileYaml(), 'yaml');
    const profile = doc.content.profile as { metadata: Record<string, unknown>; merge: unknown };
    assert.equal(profile.metadata.version, '1.0');
    assert.equal(profile.metadata['oscal-version'], '1.1.2');
    assert.equal(profile.metadata['last-modified'], '2024-01-01T00:00:00Z');
    assert.deepEqual(profile.merge, { 'as-is': true });
  });

  test('strings that look like other types survive a YAML round trip', () => {
    const doc = parseOscal(
      profileYaml().replace('title: Test profile', 'title: "true"').replace('version: 1.0', 'version: "2024-01-01"'),
      'yaml',
    );
    const back = parseOscal(serializeOscal(doc, 'yaml'), 'yaml');
    assert.deepEqual(back.content, doc.content);
    const metadata = (back.content.profile as { metadata: Record<string, unknown> }).metadata;
    assert.equal(metadata.title, 'true');
    assert.equal(metadata.version, '2024-01-01');
  });

  test('an unknown property is an error with its line', () => {
    const e = error(profileYaml('  colour: red\n'), 'yaml');
    assert.equal(e.code, 'unknown-property');
    assert.equal(e.path, '/profile/colour');
    assert.equal(e.line, 14);
  });

  test('a value of the wrong type is an error with its line', () => {
    const e = error(profileYaml().replace('as-is: true', 'as-is: perhaps'), 'yaml');
    assert.equal(e.code, 'invalid-value');
    assert.equal(e.path, '/profile/merge/as-is');
    assert.equal(e.line, 13);
  });

  test('anchors and aliases (the billion-laughs shape) are refused', () => {
    const bomb = profileYaml().replace(
      'title: Test profile',
      'title: Test profile\n    props: &a [{name: x, value: y}]\n    links: *a',
    );
    assert.equal(error(bomb, 'yaml').code, 'forbidden-construct');
  });

  test('a syntax error has its line', () => {
    const e = error(profileYaml().replace('  merge:', '  merge: [unclosed'), 'yaml');
    assert.equal(e.code, 'malformed');
    assert.ok(e.line !== undefined && e.line >= 12);
  });
});
