import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { validateText } from '../src/oscal/validate/index.js';
import { CONTENT, filesUnder, shortName } from './support/shared.js';
import { UUID, catalogJson, catalogXml, profileYaml } from './support/documents.js';

describe('every published NIST document is valid for the release it declares', () => {
  const files = [...filesUnder(CONTENT, '.json'), ...filesUnder(CONTENT, '.xml'), ...filesUnder(CONTENT, '.yaml')];
  test(`found the published documents (${files.length})`, () => assert.ok(files.length >= 80));
  for (const file of files) {
    test(shortName(file), () => {
      const result = validateText(readFileSync(file, 'utf8'));
      assert.deepEqual(result.issues, []);
      assert.equal(result.valid, true);
    });
  }
});

describe('issues carry the JSON pointer and the source line', () => {
  test('JSON: a bad uuid and a date-time without timezone, each at its own line', () => {
    const text = catalogJson().replace(`"uuid": "${UUID}"`, '"uuid": "not-a-uuid"').replace('00:00:00Z', '00:00:00');
    const r = validateText(text);
    assert.equal(r.valid, false);
    assert.deepEqual(
      r.issues.map((i) => [i.path, i.line, i.code]),
      [
        ['/catalog/uuid', 3, 'schema-pattern'],
        ['/catalog/metadata/last-modified', 6, 'schema-pattern'],
      ],
    );
    assert.match(r.issues[0]!.message, /uuid is "not-a-uuid"; it must be a version 4 or 5 UUID/);
    assert.match(r.issues[1]!.message, /must be a date and time with a timezone/);
  });

  test('JSON: a missing required property is reported at the object that lacks it', () => {
    const r = validateText(catalogJson().replace('"title": "T",\n', ''));
    assert.deepEqual(
      r.issues.map((i) => [i.path, i.line, i.message]),
      [['/catalog/metadata', 4, 'metadata is missing its required "title"']],
    );
  });

  test('JSON: an empty array and a bad enumerated value', () => {
    const r = validateText(
      catalogJson(',\n      "roles": []', ',\n    "params": [{"id": "p1", "select": {"how-many": "several"}}]'),
    );
    assert.deepEqual(
      r.issues.map((i) => [i.path, i.line]),
      [
        ['/catalog/metadata/roles', 9],
        ['/catalog/params/0/select/how-many', 11],
      ],
    );
    assert.match(r.issues[0]!.message, /roles is an empty list/);
    assert.equal(r.issues[1]!.message, 'how-many is "several"; it must be one of: one, one-or-more');
  });

  test('XML: issues point at the element (or, for a flag, the element carrying it)', () => {
    const text = catalogXml(
      '',
      `
  <group id="g1">
    <title>G</title>
    <control id="c 1">
      <title>C</title>
    </control>
  </group>`,
    ).replace('2024-01-01T00:00:00Z', '2024-01-01');
    const r = validateText(text);
    assert.deepEqual(
      r.issues.map((i) => [i.path, i.line, i.column]),
      [
        ['/catalog/metadata/last-modified', 5, 5],
        ['/catalog/groups/0/controls/0/id', 11, 5],
      ],
    );
    assert.match(r.issues[1]!.message, /id is "c 1"; it must be a token/);
  });

  test('XML: a lone item of a SINGLETON_OR_ARRAY group is found without its index', () => {
    const r = validateText(catalogXml('\n    <role id="1bad"><title>R</title></role>'));
    assert.deepEqual(
      r.issues.map((i) => [i.path, i.line]),
      [['/catalog/metadata/roles/0/id', 8]],
    );
  });

  test("YAML: the value's own line", () => {
    const r = validateText(
      profileYaml()
        .replace('include-all: {}', 'include-controls: [{with-ids: []}]')
        .replace('2024-01-01T00:00:00Z', 'yesterday'),
    );
    assert.deepEqual(
      r.issues.map((i) => [i.path, i.line]),
      [
        ['/profile/metadata/last-modified', 6],
        ['/profile/imports/0/include-controls/0/with-ids', 11],
      ],
    );
  });

  test('two alternatives of a choice given together are named in one issue', () => {
    const r = validateText(
      catalogJson(
        '',
        ',\n    "groups": [{"title": "G", "groups": [{"title": "H"}], "controls": [{"id": "c", "title": "C"}]}]',
      ),
    );
    assert.deepEqual(
      r.issues.map((i) => [i.path, i.code]),
      [['/catalog/groups/0', 'schema-not']],
    );
    assert.equal(r.issues[0]!.message, 'groups has both "groups" and "controls"; they are alternatives, give only one');
  });
});

describe('roots: unknown, not in the declared release, not what the caller expected', () => {
  test('a root that is no OSCAL model', () => {
    const r = validateText(catalogJson().replace('"catalog"', '"recipe-book"'));
    assert.deepEqual(
      r.issues.map((i) => i.code),
      ['unknown-root'],
    );
    assert.match(r.issues[0]!.message, /"recipe-book" is not an OSCAL model; expected one of: catalog, /);
  });

  test('a model the declared release does not have', () => {
    const mapping = `{"mapping-collection": {"uuid": "${UUID}", "metadata": {"title": "M", "last-modified": "2024-01-01T00:00:00Z", "version": "1", "oscal-version": "1.0.0"}}}`;
    const r = validateText(mapping);
    assert.deepEqual(
      r.issues.map((i) => i.code),
      ['model-not-in-version'],
    );
    assert.match(r.issues[0]!.message, /"mapping-collection" is not a model of OSCAL 1\.0\.0/);
    const xml = validateText(catalogXml('', '', '1.0.0').replace(/catalog/g, 'mapping-collection'));
    assert.deepEqual(
      xml.issues.map((i) => i.code),
      ['model-not-in-version'],
    );
  });

  test('a valid document of another model than the caller expects', () => {
    const r = validateText(catalogJson(), { expectedModel: 'profile' });
    assert.deepEqual(
      r.issues.map((i) => [i.code, i.message]),
      [['unexpected-model', 'expected a profile document, but this is a catalog']],
    );
    assert.equal(validateText(catalogJson(), { expectedModel: 'catalog' }).valid, true);
  });

  test('a missing or unsupported oscal-version names the supported releases', () => {
    const r = validateText(catalogJson().replace('"oscal-version": "1.1.2"', '"oscal-version": "0.9"'));
    assert.deepEqual(
      r.issues.map((i) => i.code),
      ['unsupported-version'],
    );
    assert.match(r.issues[0]!.message, /must be one of 1\.0\.0, .*1\.2\.2/);
  });
});

describe("an empty markup-line is judged by the document's own release", () => {
  /** NIST's SSP example with an empty title and a diagram with an empty caption. */
  function ssp(version: string): string {
    const path = `${CONTENT}/oscal-content@88bb8de/examples/ssp/json/ssp-example.json`;
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    const plan = doc['system-security-plan'];
    plan.metadata['oscal-version'] = version;
    plan.metadata.title = '';
    plan['system-characteristics']['authorization-boundary'].diagrams = [
      { uuid: 'd2eb3c18-6754-4e3a-a933-03d289e3fad5', caption: '' },
    ];
    return JSON.stringify(doc, null, 2);
  }
  const formats = ['json', 'xml', 'yaml'] as const;
  const inFormat = (text: string, format: (typeof formats)[number]) =>
    format === 'json' ? text : serializeOscal(parseOscal(text, 'json'), format);
  const emptyPaths = [
    '/system-security-plan/metadata/title',
    '/system-security-plan/system-characteristics/authorization-boundary/diagrams/0/caption',
  ];

  for (const format of formats) {
    test(`1.0.4 ${format}: valid, nothing to say (its XSD and JSON Schema both accept it)`, () => {
      const r = validateText(inFormat(ssp('1.0.4'), format), { format });
      assert.deepEqual(r.issues, []);
      assert.equal(r.valid, true);
    });
    for (const version of ['1.1.2', '1.2.2']) {
      test(`${version} ${format}: valid, with a warning that names the disagreement, at its line`, () => {
        const text = inFormat(ssp(version), format);
        const r = validateText(text, { format });
        assert.equal(r.valid, true);
        assert.deepEqual(
          r.issues.map((i) => [i.code, i.level, i.path]),
          emptyPaths.map((p) => ['schema-disagreement', 'WARNING', p]),
        );
        for (const issue of r.issues) {
          assert.match(
            issue.message,
            new RegExp(
              `OSCAL ${version.replace(/\./g, '\\.')} XML Schema accepts an empty markup-line, its JSON Schema does not`,
            ),
          );
          assert.ok(issue.line !== undefined && issue.line > 1, 'located');
        }
      });
    }
  }

  test('1.1.2: the warning does not hide an error elsewhere, nor an empty string where the datatype is not markup', () => {
    const doc = JSON.parse(ssp('1.1.2'));
    doc['system-security-plan'].metadata.version = '';
    doc['system-security-plan'].uuid = 'not-a-uuid';
    const r = validateText(JSON.stringify(doc));
    assert.equal(r.valid, false);
    assert.deepEqual(
      r.issues
        .filter((i) => i.level === undefined)
        .map((i) => i.path)
        .sort(),
      ['/system-security-plan/metadata/version', '/system-security-plan/uuid'],
    );
    assert.equal(r.issues.filter((i) => i.code === 'schema-disagreement').length, 2);
  });

  test('a line break in a markup-line stays an error in every release', () => {
    for (const version of ['1.0.4', '1.1.2']) {
      const doc = JSON.parse(ssp(version));
      doc['system-security-plan'].metadata.title = 'two\nlines';
      assert.equal(validateText(JSON.stringify(doc)).valid, false, version);
    }
  });
});
