/**
 * Constraint validation: every kind of constraint and every level, each holding on one document
 * and broken by one change to it, in JSON, XML and YAML, with the finding's node, level,
 * constraint id and source position; lets, message templates and the allowed-values rules.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readConstraintSet } from '../src/oscal/constraints/external.js';
import type { ConstraintSet } from '../src/oscal/constraints/index.js';
import { serializeOscal, type Format } from '../src/oscal/formats/index.js';
import { validateFully, type ValidationIssue } from '../src/oscal/validate/index.js';

type Json = Record<string, unknown>;

/** Every control of a catalog needs its statement (a constraint of the release's own). */
function statement(control: string): Json {
  return { id: `${control}_smt`, name: 'statement', prose: `The ${control} statement.` };
}

function catalog(): Json {
  return {
    catalog: {
      uuid: '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1',
      metadata: {
        title: 'Constraint test catalog',
        'last-modified': '2024-01-01T00:00:00Z',
        version: '1',
        'oscal-version': '1.1.2',
        roles: [{ id: 'owner', title: 'Owner' }],
      },
      groups: [
        {
          id: 'ac',
          title: 'Access Control',
          controls: [
            { id: 'ac-1', title: 'Policy', props: [{ name: 'label', value: 'AC-1' }], parts: [statement('ac-1')] },
            {
              id: 'ac-2',
              title: 'Accounts',
              props: [{ name: 'label', value: 'AC-2' }],
              links: [{ href: '#ac-1', rel: 'related' }],
              parts: [statement('ac-2')],
            },
          ],
        },
        {
          id: 'au',
          title: 'Audit',
          controls: [
            {
              id: 'au-1',
              title: 'Audit Policy',
              props: [{ name: 'label', value: 'AU-1' }],
              parts: [statement('au-1')],
            },
          ],
        },
      ],
    },
  };
}

/** One constraint of each kind, at each level (the set's context is the catalog). */
const SET = `<?xml version="1.0" encoding="UTF-8"?>
<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0">
  <context>
    <metapath target="/catalog"/>
    <constraints>
      <let var="most-groups" expression="2"/>
      <allowed-values id="group-ids" target="group/@id" level="ERROR">
        <enum value="ac"/>
        <enum value="au"/>
      </allowed-values>
      <matches id="control-id-form" target="//control/@id" regex="[a-z]{2}-\\d+" level="WARNING"/>
      <matches id="version-integer" target="metadata/version" datatype="integer" level="INFORMATIONAL"/>
      <expect id="few-groups" target="." test="count(group) le $most-groups" level="CRITICAL">
        <message>{ count(group) } groups; at most { $most-groups }</message>
      </expect>
      <has-cardinality id="has-roles" target="metadata/role" min-occurs="1" level="DEBUG"/>
      <index id="control-index" name="controls" target="//control" level="ERROR">
        <key-field target="@id"/>
      </index>
      <index-has-key id="related-controls" name="controls" target="//control/link[@rel='related']" level="ERROR">
        <key-field target="@href" pattern="#(.*)"/>
      </index-has-key>
      <is-unique id="unique-labels" target="//prop[@name='label']" level="WARNING">
        <key-field target="@value"/>
      </is-unique>
    </constraints>
  </context>
</metaschema-meta-constraints>
`;

interface Case {
  id: string;
  kind: string;
  level: string;
  /** Breaks the constraint, and only it. */
  edit: (doc: Json) => void;
  /** JSON pointer of the node the finding is about. */
  path: string;
  message: RegExp;
  /** Text at the node's place in each format: the finding's line and column must be where it starts. */
  at: Record<Format, string>;
}

const body = (doc: Json) => doc.catalog as { metadata: Json; groups: { id: string; controls: Json[] }[] };

const CASES: Case[] = [
  {
    id: 'group-ids',
    kind: 'allowed-values',
    level: 'ERROR',
    edit: (d) => {
      body(d).groups[1]!.id = 'zz';
    },
    path: '/catalog/groups/1/id',
    message: /group\/@id is "zz"; it must be one of: ac, au/,
    at: { json: '"id": "zz"', xml: '<group id="zz"', yaml: 'zz' },
  },
  {
    id: 'control-id-form',
    kind: 'matches',
    level: 'WARNING',
    edit: (d) => {
      body(d).groups[1]!.controls[0]!.id = 'audit1';
    },
    path: '/catalog/groups/1/controls/0/id',
    message: /control\/@id is "audit1", which does not match the pattern/,
    at: { json: '"id": "audit1"', xml: '<control id="audit1"', yaml: 'audit1' },
  },
  {
    id: 'version-integer',
    kind: 'matches',
    level: 'INFORMATIONAL',
    edit: (d) => {
      body(d).metadata.version = '1.0';
    },
    path: '/catalog/metadata/version',
    message: /version is "1\.0", which is not a valid integer/,
    at: { json: '"version": "1.0"', xml: '<version>1.0', yaml: "'1.0'" },
  },
  {
    id: 'few-groups',
    kind: 'expect',
    level: 'CRITICAL',
    edit: (d) => {
      body(d).groups.push({
        id: 'au',
        title: 'More',
        controls: [{ id: 'au-2', title: 'X', parts: [statement('au-2')] }],
      } as never);
    },
    path: '/catalog',
    message: /^3 groups; at most 2$/,
    at: { json: '"catalog"', xml: '<catalog', yaml: 'uuid' },
  },
  {
    id: 'has-roles',
    kind: 'has-cardinality',
    level: 'DEBUG',
    edit: (d) => {
      delete body(d).metadata.roles;
    },
    path: '/catalog',
    message: /catalog has 0 of "metadata\/role"; at least 1 is required/,
    at: { json: '"catalog"', xml: '<catalog', yaml: 'uuid' },
  },
  {
    id: 'control-index',
    kind: 'index',
    level: 'ERROR',
    edit: (d) => {
      body(d).groups[1]!.controls[0]!.id = 'ac-1';
    },
    path: '/catalog/groups/1/controls/0',
    message: /control has the key "ac-1", which \/catalog\[1\]\/group\[1\]\/control\[1\] has already/,
    at: {
      json: '{\n            "id": "ac-1",\n            "title": "Audit Policy"',
      xml: '<control id="ac-1">\n      <title>Audit Policy',
      yaml: 'id: ac-1\n          title: Audit Policy',
    },
  },
  {
    id: 'related-controls',
    kind: 'index-has-key',
    level: 'ERROR',
    edit: (d) => {
      (body(d).groups[0]!.controls[1]!.links as Json[])[0]!.href = '#ac-9';
    },
    path: '/catalog/groups/0/controls/1/links/0',
    message: /link refers to "ac-9", which is not a key of the index controls/,
    at: { json: '{\n                "href": "#ac-9"', xml: '<link href="#ac-9"', yaml: "href: '#ac-9'" },
  },
  {
    id: 'unique-labels',
    kind: 'is-unique',
    level: 'WARNING',
    edit: (d) => {
      (body(d).groups[1]!.controls[0]!.props as Json[])[0]!.value = 'AC-1';
    },
    path: '/catalog/groups/1/controls/0/props/0',
    message: /prop has the key "AC-1", which \/catalog\[1\]\/group\[1\]\/control\[1\]\/prop\[1\] has already/,
    at: {
      json: '{\n                "name": "label",\n                "value": "AC-1"',
      xml: '<prop name="label" value="AC-1"/>',
      yaml: 'name: label\n              value: AC-1',
    },
  },
];

const FORMATS: Format[] = ['json', 'xml', 'yaml'];

function write(doc: Json, format: Format): string {
  return format === 'json'
    ? JSON.stringify(doc, null, 2)
    : serializeOscal({ model: 'catalog', version: '1.1.2', content: doc }, format);
}

/** 1-based line and column of the first character of `marker`'s last occurrence (the yaml markers' first line, for several lines). */
function positionOf(text: string, marker: string, format: Format): { line: number; column: number } {
  const offset = text.lastIndexOf(marker);
  assert.ok(offset >= 0, `the ${format} text holds ${JSON.stringify(marker)}`);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

let set: ConstraintSet;
const fromSet = (issues: ValidationIssue[]) => issues.filter((i) => i.source === 'test-set');

describe('constraint kinds and levels, in every format', () => {
  test('the set reads', async () => {
    set = await readConstraintSet('test-set', SET);
    assert.equal(set.contexts.length, 1);
  });

  for (const format of FORMATS) {
    test(`${format}: the unchanged document breaks none of the set's constraints`, async () => {
      const r = await validateFully(write(catalog(), format), { sets: [set] });
      assert.equal(r.constraintsChecked, true);
      assert.deepEqual(fromSet(r.issues), []);
      assert.equal(r.valid, true);
      const held = r
        .constraints!.filter((c) => c.source === 'test-set' && c.applied && !c.failed)
        .map((c) => c.id)
        .sort();
      assert.deepEqual(
        held,
        CASES.map((c) => c.id)
          .filter((id, i, all) => all.indexOf(id) === i)
          .sort(),
      );
    });
  }

  for (const c of CASES) {
    for (const format of FORMATS) {
      test(`${c.kind} at ${c.level} (${c.id}), ${format}: fires on its node, and nothing else does`, async () => {
        const doc = catalog();
        c.edit(doc);
        const text = write(doc, format);
        const r = await validateFully(text, { sets: [set] });
        const found = fromSet(r.issues);
        assert.deepEqual(
          found.map((i) => [i.constraintId, i.code, i.level, i.path]),
          [[c.id, `constraint-${c.kind}`, c.level, c.path]],
          JSON.stringify(found, null, 1),
        );
        assert.match(found[0]!.message, c.message);
        assert.deepEqual({ line: found[0]!.line, column: found[0]!.column }, positionOf(text, c.at[format], format));
        assert.equal(r.valid, !['ERROR', 'CRITICAL'].includes(c.level), 'valid unless something is at ERROR or above');
        const outcome = r.constraints!.find((s) => s.id === c.id)!;
        assert.deepEqual([outcome.applied, outcome.failed], [true, true]);
      });
    }
  }
});

describe('allowed-values: the applicable set of a value', () => {
  const setOf = (body: string) =>
    readConstraintSet(
      'values',
      `<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0">
    <context><metapath target="/catalog"/><constraints>${body}</constraints></context></metaschema-meta-constraints>`,
    );

  test('two closed lists on one value: it may be in either', async () => {
    const sets = [
      await setOf(`
      <allowed-values id="a" target="group/@id" extensible="external"><enum value="ac"/></allowed-values>
      <allowed-values id="b" target="group/@id" extensible="external"><enum value="au"/></allowed-values>`),
    ];
    const r = await validateFully(JSON.stringify(catalog()), { sets });
    assert.deepEqual(
      r.issues.filter((i) => i.source === 'values'),
      [],
    );
  });

  // metaschema-java's DefaultConstraintValidator (ValueStatus.validate): a value no list names,
  // where one list is closed, fails every list that does not name it, each at the highest level among them.
  test('an open list (allow-other) beside a closed one: the closed one decides, and a value in neither fails both', async () => {
    const sets = [
      await setOf(`
      <allowed-values id="open" target="group/@id" allow-other="yes" extensible="external"><enum value="zz"/></allowed-values>
      <allowed-values id="closed" target="group/@id" extensible="external" level="WARNING"><enum value="ac"/></allowed-values>`),
    ];
    const r = await validateFully(JSON.stringify(catalog()), { sets });
    assert.deepEqual(
      r.issues.filter((i) => i.source === 'values').map((i) => [i.constraintId, i.path, i.level]),
      [
        ['open', '/catalog/groups/1/id', 'ERROR'],
        ['closed', '/catalog/groups/1/id', 'ERROR'],
      ],
    );
  });

  test('only open lists: any value goes', async () => {
    const sets = [
      await setOf('<allowed-values id="open" target="group/@id" allow-other="yes"><enum value="zz"/></allowed-values>'),
    ];
    const r = await validateFully(JSON.stringify(catalog()), { sets });
    assert.deepEqual(
      r.issues.filter((i) => i.source === 'values'),
      [],
    );
  });

  // DefaultConstraintValidator.ValueStatus.registerAllowedValue: a list more open than one before it is the error.
  test('extensible="none" followed by another list on the same value is an error of the later one', async () => {
    const sets = [
      await setOf(`
      <allowed-values id="only" target="group/@id" extensible="none"><enum value="ac"/><enum value="au"/></allowed-values>
      <allowed-values id="more" target="group/@id"><enum value="ac"/><enum value="au"/></allowed-values>`),
    ];
    const r = await validateFully(JSON.stringify(catalog()), { sets });
    const errors = r.issues.filter((i) => i.source === 'values');
    assert.deepEqual(
      errors.map((i) => [i.code, i.constraintId, i.level]),
      [['constraint-error', 'more', 'ERROR']],
    );
    assert.match(errors[0]!.message, /extensible="none"/);
    assert.equal(r.valid, false);
  });

  // IAllowedValuesConstraint.EXTENSIBLE_DEFAULT is EXTERNAL in metaschema-java, as in metaschema.xsd.
  test('an external list on a value the model lists too: no conflict, since model lists are open to extension by default', async () => {
    const sets = [
      await setOf(
        '<allowed-values id="ours" target="group/control/link/@rel" extensible="external"><enum value="related"/></allowed-values>',
      ),
    ];
    const r = await validateFully(JSON.stringify(catalog()), { sets });
    assert.deepEqual(
      r.issues.filter((i) => i.code === 'constraint-error'),
      [],
    );
  });

  test('a list after one that says extensible="model" is still an error when it is more open', async () => {
    const sets = [
      await setOf(`
      <allowed-values id="closer" target="group/@id" extensible="model"><enum value="ac"/><enum value="au"/></allowed-values>
      <allowed-values id="wider" target="group/@id" extensible="external"><enum value="zz"/></allowed-values>`),
    ];
    const r = await validateFully(JSON.stringify(catalog()), { sets });
    const errors = r.issues.filter((i) => i.code === 'constraint-error');
    assert.deepEqual(
      errors.map((i) => i.constraintId),
      ['wider'],
    );
    assert.match(
      errors[0]!.message,
      /allowed-values wider \(extensible="external"\) extends a value whose allowed-values closer says extensible="model"/,
    );
  });
});

describe('processing errors', () => {
  test('a target that gives values, not nodes, is one finding for the constraint, however many nodes it meets', async () => {
    const sets = [
      await readConstraintSet(
        'broken',
        `<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0">
      <context><metapath target="//control"/><constraints><expect id="strings" target="string(@id)" test="true()"/></constraints></context>
    </metaschema-meta-constraints>`,
      ),
    ];
    const r = await validateFully(JSON.stringify(catalog()), { sets });
    const errors = r.issues.filter((i) => i.source === 'broken');
    assert.deepEqual(
      errors.map((i) => [i.code, i.constraintId, i.level]),
      [['constraint-error', 'strings', 'ERROR']],
    );
    assert.match(
      errors[0]!.message,
      /the target "string\(@id\)" could not be evaluated: the target gives the value "ac-1", not a node \[XPTY0004\] \(the same on 2 more nodes\)/,
    );
    assert.equal(r.valid, false, 'a document with a constraint that could not be evaluated is not proven valid');
  });

  test('a test that fails to evaluate names the expression and the error', async () => {
    const sets = [
      await readConstraintSet(
        'broken',
        `<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0">
      <context><metapath target="/catalog"/><constraints><expect id="bad-test" target="." test="xs:integer(metadata/title) gt 0"/></constraints></context>
    </metaschema-meta-constraints>`,
      ),
    ];
    const r = await validateFully(JSON.stringify(catalog()), { sets });
    const [error] = r.issues.filter((i) => i.source === 'broken');
    assert.equal(error!.code, 'constraint-error');
    assert.match(error!.message, /"Constraint test catalog" is not a valid xs:integer \[FORG0001\]/);
  });
});

// metaschema-java's AbstractValidateContentCommand runs the constraints whatever the schema found.
describe('constraints run whatever the schema finds', () => {
  test('a schema error is reported with the constraint findings, and the result says constraints were checked', async () => {
    const doc = catalog();
    body(doc).metadata['last-modified'] = 'yesterday';
    body(doc).groups[1]!.id = 'zz';
    const r = await validateFully(JSON.stringify(doc), { sets: [set] });
    assert.deepEqual(
      r.issues.map((i) => [i.code, i.constraintId ?? '']),
      [
        ['schema-pattern', ''],
        ['constraint-allowed-values', 'group-ids'],
      ],
    );
    assert.equal(r.constraintsChecked, true);
  });

  test('with the schema check off, only the constraint findings', async () => {
    const doc = catalog();
    body(doc).metadata['last-modified'] = 'yesterday';
    body(doc).groups[1]!.id = 'zz';
    const r = await validateFully(JSON.stringify(doc), { sets: [set], schema: false });
    assert.deepEqual(
      r.issues.map((i) => i.code),
      ['constraint-allowed-values'],
    );
  });

  test('--no-constraints: the schema only', async () => {
    const doc = catalog();
    body(doc).groups[1]!.id = 'zz';
    const r = await validateFully(JSON.stringify(doc), { sets: [set], constraints: false });
    assert.deepEqual(r.issues, []);
    assert.equal(r.constraintsChecked, false);
  });
});

describe("a constraint's own message", () => {
  const WORDED = `<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0">
  <context><metapath target="/catalog"/><constraints>
    <let var="where" expression="'in ' || metadata/title"/>
    <allowed-values id="group-ids" target="group/@id"><enum value="ac"/><enum value="au"/><message>never used</message></allowed-values>
    <matches id="control-id-form" target="//control/@id" regex="[a-z]{2}-\\d+"><message>bad control id { . } { $where }</message></matches>
    <has-cardinality id="has-roles" target="metadata/role" min-occurs="1"><message>{ count(group) } groups but no role</message></has-cardinality>
    <index id="control-index" name="controls" target="//control"><key-field target="@id"/><message>{ @id } twice</message></index>
    <index-has-key id="related-controls" name="controls" target="//control/link[@rel='related']"><key-field target="@href" pattern="#(.*)"/><message>no control { @href } { $where }</message></index-has-key>
    <is-unique id="unique-labels" target="//prop[@name='label']"><key-field target="@value"/><message>label { @value } again</message></is-unique>
  </constraints></context></metaschema-meta-constraints>`;

  test('words the violations of every kind but allowed-values, read on the violating node with the lets in scope', async () => {
    const set = await readConstraintSet('worded', WORDED);
    const doc = catalog();
    const groups = body(doc).groups;
    groups[1]!.id = 'zz';
    groups[0]!.controls[0]!.id = 'audit1';
    delete body(doc).metadata.roles;
    groups[1]!.controls[0]!.id = 'ac-2';
    (groups[0]!.controls[1]!.links as Json[])[0]!.href = '#ac-9';
    (groups[1]!.controls[0]!.props as Json[])[0]!.value = 'AC-2';
    const r = await validateFully(JSON.stringify(doc), { sets: [set], schema: false });
    const said = Object.fromEntries(
      r.issues.filter((i) => i.source === 'worded').map((i) => [i.constraintId, i.message] as const),
    );
    assert.deepEqual(
      { ...said, 'group-ids': /it must be one of: ac, au/.test(said['group-ids'] ?? '') },
      {
        'group-ids': true,
        'control-id-form': 'bad control id audit1 in Constraint test catalog',
        'has-roles': '2 groups but no role',
        'control-index': 'ac-2 twice',
        'related-controls': 'no control #ac-9 in Constraint test catalog',
        'unique-labels': 'label AC-2 again',
      },
    );
  });
});
