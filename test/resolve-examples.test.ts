import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { OscalError } from '../src/oscal/errors.js';
import { parseOscal } from '../src/oscal/formats/index.js';
import { ResolutionError, resolveProfile } from '../src/oscal/resolve/index.js';
import { validateDocument } from '../src/oscal/validate/index.js';
import { EXAMPLES, exampleBase, examplesLoader, readExample, scrub } from './support/resolve.js';

const expected = (name: string) => scrub(readExample(join(EXAMPLES, 'output-expected', `${name}_RESOLVED.xml`)));

async function resolveExample(name: string, profile = readExample(join(EXAMPLES, name))) {
  const result = await resolveProfile(profile, { loader: examplesLoader, base: exampleBase(name) });
  assert.deepEqual(validateDocument(result.document), [], `${name}: the result is a valid catalog`);
  return result;
}

/** The examples whose expected output the specification agrees with, and the warnings each gives. */
const AGREED: Record<string, string[]> = {
  'base-test_profile.xml': [],
  'base2-test_profile.xml': [],
  'exclude-call-test_profile.xml': [],
  'full-test_profile.xml': [],
  'import-twice_profile.xml': [
    'duplicate-control /profile/imports/1',
    'duplicate-control /profile/imports/1',
    'duplicate-control /profile/imports/1',
  ],
  'include-all-no-children-test_profile.xml': [],
  'include-all-test_profile.xml': [],
  'include-call-with-children-test_profile.xml': [],
  'include-loose-param-test_profile.xml': [],
  'include-match-test_profile.xml': ['no-match /profile/imports/0/include-controls/0/matching/0'],
  'merge-implicit-keep_profile.xml': ['duplicate-control /profile/imports/1', 'duplicate-control /profile/imports/1'],
  'merge-keep-resources_profile.xml': [],
  'merge-keep_profile.xml': ['duplicate-control /profile/imports/1', 'duplicate-control /profile/imports/1'],
};

describe('NIST profile resolution examples', () => {
  for (const [name, warnings] of Object.entries(AGREED)) {
    test(`${name} resolves to its expected output`, async () => {
      const result = await resolveExample(name);
      assert.deepEqual(scrub(result.document.content), expected(name.replace('.xml', '')));
      assert.deepEqual(
        result.warnings.map((w) => `${w.code} ${w.path}`),
        warnings,
      );
    });
  }

  test("the metadata is the profile's, with a new uuid, the resolution time, the tool and the source profile", async () => {
    const now = new Date('2025-03-04T05:06:07.890Z');
    const first = await resolveProfile(readExample(join(EXAMPLES, 'full-test_profile.xml')), {
      loader: examplesLoader,
      base: exampleBase('full-test_profile.xml'),
      now,
      tool: 'tool 1.2',
    });
    const second = await resolveExample('full-test_profile.xml');
    const catalog = first.document.content.catalog as Record<string, any>;
    assert.notEqual(catalog.uuid, (second.document.content.catalog as Record<string, any>).uuid);
    assert.match(catalog.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(catalog.metadata, {
      title: 'Full test Profile',
      'last-modified': '2025-03-04T05:06:07.890Z',
      version: '1.0',
      'oscal-version': '1.0.0',
      props: [{ name: 'resolution-tool', value: 'tool 1.2' }],
      links: [{ href: exampleBase('full-test_profile.xml'), rel: 'source-profile' }],
    });
    assert.deepEqual(
      Object.keys(catalog),
      ['uuid', 'metadata', 'params', 'controls', 'back-matter'],
      'canonical order',
    );
  });

  test('modify-adds: an add whose by-id names the altered control itself is inoperative (the expectation adds it)', async () => {
    const result = await resolveExample('modify-adds_profile.xml');
    const want = expected('modify-adds_profile');
    const a1 = want.groups[0].controls[0];
    assert.deepEqual(a1.props[0], { name: 'CORE', ns: 'https://fedramp.gov/ns/oscal', value: 'core' });
    a1.props.shift();
    assert.deepEqual(scrub(result.document.content), want);
    assert.deepEqual(
      result.warnings.map((w) => `${w.code} ${w.path}`),
      ['inoperative-alter /profile/modify/alters/0/adds/0'],
    );
  });

  test('broken_profile: a missing import stops the resolution (the expectation is an empty catalog)', async () => {
    await assert.rejects(resolveExample('broken_profile.xml'), (e: unknown) => {
      assert.ok(e instanceof ResolutionError);
      assert.equal(e.code, 'import-not-found');
      assert.equal(e.href, 'missing_profile.xml');
      return true;
    });
  });

  for (const [name, other] of [
    ['circular_profile.xml', 'home_profile.xml'],
    ['home_profile.xml', 'circular_profile.xml'],
  ] as const) {
    test(`${name}: a circular import stops the resolution (the expectation is an empty catalog)`, async () => {
      await assert.rejects(resolveExample(name), (e: unknown) => {
        assert.ok(e instanceof ResolutionError);
        assert.equal(e.code, 'circular-import');
        assert.deepEqual(e.chain, [other, name]);
        assert.match(
          e.message,
          new RegExp(
            `^import "${other}": import "${name}" is circular: .*${name} imports .*${other} imports .*${name}$`,
          ),
        );
        return true;
      });
    });
  }

  test('without-parent: the reader refuses with-parent-controls, which is no OSCAL; without it the expectation holds', async () => {
    const text = readFileSync(join(EXAMPLES, 'without-parent_profile.xml'), 'utf8');
    assert.throws(
      () => parseOscal(text),
      (e: unknown) =>
        e instanceof OscalError && /with-parent-controls is not allowed on <include-controls>/.test(e.message),
    );
    const result = await resolveExample(
      'without-parent_profile.xml',
      parseOscal(text.replace(' with-parent-controls="no"', '')).content,
    );
    assert.deepEqual(scrub(result.document.content), expected('without-parent_profile'));
  });

  test('the example catalogs declare 1.0.0-rc2, which the readers refuse', () => {
    const text = readFileSync(join(EXAMPLES, 'catalogs', 'abc-simple_catalog.xml'), 'utf8');
    assert.throws(
      () => parseOscal(text),
      (e: unknown) => e instanceof OscalError && e.code === 'unsupported-version',
    );
  });
});
