import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OscalError } from '../src/oscal/errors.js';
import { parseOscal } from '../src/oscal/formats/index.js';
import { validateFully, validateText, type ValidationIssue } from '../src/oscal/validate/index.js';
import { UUID } from './support/documents.js';

/** A catalog with an unknown property in its metadata, and neither title nor last-modified. */
const json = `{
  "catalog": {
    "uuid": "${UUID}",
    "metadata": {
      "version": "1.0",
      "oscal-version": "1.1.2",
      "colour": "red"
    }
  }
}`;

const yaml = `catalog:
  uuid: ${UUID}
  metadata:
    version: "1.0"
    oscal-version: 1.1.2
    colour: red
`;

const summary = (issues: ValidationIssue[]) => issues.map((i) => `${i.code} ${i.path}`).sort();

describe('validation reports every problem it can find in one run, in JSON and YAML alike', () => {
  test('an unknown property and two missing required fields: the same issues from both formats', () => {
    const fromJson = validateText(json);
    const fromYaml = validateText(yaml);
    assert.equal(fromJson.valid, false);
    assert.equal(fromYaml.valid, false);
    const expected = [
      'schema-required /catalog/metadata',
      'schema-required /catalog/metadata',
      'unknown-property /catalog/metadata/colour',
    ];
    assert.deepEqual(summary(fromJson.issues), expected);
    assert.deepEqual(summary(fromYaml.issues), expected);
    assert.deepEqual(fromYaml.issues.map((i) => i.message).sort(), fromJson.issues.map((i) => i.message).sort());
  });

  test('each issue has its place in its own format', () => {
    const at = (issues: ValidationIssue[], code: string) =>
      issues.filter((i) => i.code === code).map((i) => [i.line, i.column]);
    const fromJson = validateText(json).issues;
    assert.deepEqual(at(fromJson, 'unknown-property'), [[7, 7]]);
    assert.deepEqual(at(fromJson, 'schema-required'), [
      [4, 5],
      [4, 5],
    ]);
    const fromYaml = validateText(yaml).issues;
    assert.deepEqual(
      at(fromYaml, 'unknown-property').map(([line]) => line),
      [6],
    );
    assert.deepEqual(at(fromYaml, 'schema-required'), [
      [4, 5],
      [4, 5],
    ]);
  });

  test('with constraints asked for, the same issues, and the constraints ran over what could be read', async () => {
    for (const text of [json, yaml]) {
      const r = await validateFully(text);
      assert.equal(r.constraintsChecked, true);
      assert.deepEqual(summary(r.issues), [
        'schema-required /catalog/metadata',
        'schema-required /catalog/metadata',
        'unknown-property /catalog/metadata/colour',
      ]);
    }
  });

  test('a value the reader cannot type is reported once, not again by the schema', () => {
    const badBoolean = `profile:
  uuid: ${UUID}
  metadata:
    title: P
    last-modified: 2024-01-01T00:00:00Z
    version: "1"
    oscal-version: 1.1.2
    shade: dark
  imports:
    - href: "#b"
      include-all: {}
  merge:
    as-is: perhaps
`;
    assert.deepEqual(summary(validateText(badBoolean).issues), [
      'invalid-value /profile/merge/as-is',
      'unknown-property /profile/metadata/shade',
    ]);
  });

  test('reading for conversion still stops at the first problem', () => {
    assert.throws(
      () => parseOscal(yaml),
      (e: unknown) => e instanceof OscalError && e.code === 'unknown-property' && e.line === 6,
    );
    assert.throws(
      () => parseOscal(json),
      (e: unknown) => e instanceof OscalError && e.code === 'unknown-property' && e.line === 7,
    );
  });
});
