/**
 * Where the Metaschema specification is silent or says two things, the verdict is the one
 * metaschema-java (the engine of oscal-cli and oscal-server) gives. Each test names the source
 * file of metaschema-java (develop after v2.1.0) whose behaviour it holds us to; the facts are
 * checked here on documents of our own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readConstraintSet } from '../src/oscal/constraints/external.js';
import { validateFully, type ValidationResult } from '../src/oscal/validate/index.js';
import { sarifLog } from '../src/oscal/validate/sarif.js';

const UUID = '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1';

function catalog(groupIds: string[], lastModified = '2024-01-01T00:00:00Z'): string {
  return JSON.stringify({
    catalog: {
      uuid: UUID,
      metadata: { title: 'T', 'last-modified': lastModified, version: '1', 'oscal-version': '1.1.2' },
      groups: groupIds.map((id) => ({ id, title: id.toUpperCase() })),
    },
  });
}

const setOf = (body: string) =>
  readConstraintSet(
    'set',
    `<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0">
    <context><metapath target="/catalog"/><constraints>${body}</constraints></context></metaschema-meta-constraints>`,
  );

interface SarifResult {
  ruleId: string;
  kind: string;
}

function sarif(result: ValidationResult): SarifResult[] {
  const log = sarifLog([{ ...result, file: 'doc.json' }], true) as { runs: { results: SarifResult[] }[] };
  return log.runs[0]!.results;
}

const kindsOf = (results: SarifResult[], ruleId: string) =>
  results
    .filter((r) => r.ruleId === ruleId)
    .map((r) => r.kind)
    .sort();

describe('allowed-values as metaschema-java settles them', () => {
  // IAllowedValuesConstraint.java: EXTENSIBLE_DEFAULT = EXTERNAL (metaschema.xsd's default too),
  // where one paragraph of constraints.md says "model".
  test('without extensible, a list is open to external lists: an external list on a value the model lists raises no conflict', async () => {
    const sets = [
      await setOf('<allowed-values id="ours" target="metadata/link/@rel"><enum value="alternate"/></allowed-values>'),
    ];
    const doc = JSON.parse(catalog(['ac'])) as { catalog: { metadata: Record<string, unknown> } };
    // "alternate" is one of the model's own values for a metadata link's rel, and ours.
    doc.catalog.metadata.links = [{ href: 'https://example.org/', rel: 'alternate' }];
    const r = await validateFully(JSON.stringify(doc), { sets });
    assert.deepEqual(
      r.issues.map((i) => i.code),
      [],
    );
    assert.equal(r.valid, true);
  });

  // DefaultConstraintValidator.java, ValueStatus.validate: the failed constraints are every one
  // that does not list the value; SarifValidationHandler.java gives a result per constraint.
  test("a value that breaks two closed lists fails under each list's id", async () => {
    const sets = [
      await setOf(`
      <allowed-values id="first" target="group/@id"><enum value="ac"/></allowed-values>
      <allowed-values id="second" target="group/@id" level="WARNING"><enum value="ac"/><enum value="au"/></allowed-values>`),
    ];
    const r = await validateFully(catalog(['ac', 'zz']), { sets });
    assert.deepEqual(
      r.issues.map((i) => [i.constraintId, i.path, i.level]),
      [
        ['first', '/catalog/groups/1/id', 'ERROR'],
        ['second', '/catalog/groups/1/id', 'ERROR'],
      ],
    );
    const results = sarif(r);
    assert.deepEqual(kindsOf(results, 'first'), ['fail']);
    assert.deepEqual(kindsOf(results, 'second'), ['fail'], 'no pass beside the failure, though "ac" held');
  });

  // ValueStatus.validate: a list that does not name a value another list allows neither passes
  // nor fails on it (handlePass is called only for the lists that name the value).
  test('a closed list that leaves out a value another list allows is no pass for that value', async () => {
    const sets = [
      await setOf(`
      <allowed-values id="wide" target="group/@id"><enum value="ac"/><enum value="zz"/></allowed-values>
      <allowed-values id="narrow" target="group/@id"><enum value="ac"/></allowed-values>`),
    ];
    const onlyZz = await validateFully(catalog(['zz']), { sets });
    assert.deepEqual(onlyZz.issues, []);
    const results = sarif(onlyZz);
    assert.deepEqual(kindsOf(results, 'wide'), ['pass']);
    assert.deepEqual(kindsOf(results, 'narrow'), [], 'narrow never held: no result at all');
    // Where it does name a value, it holds.
    assert.deepEqual(kindsOf(sarif(await validateFully(catalog(['ac', 'zz']), { sets })), 'narrow'), ['pass']);
  });
});

describe('SARIF pass results', () => {
  // FindingCollectingConstraintValidationHandler.java, handleError: an evaluation error is a
  // FAIL finding of the constraint, so SarifValidationHandler.java reports it failed, never passed.
  test('a constraint whose evaluation raised an error is not reported as passing', async () => {
    const sets = [
      await setOf(`
      <expect id="breaks-on-one" target="group" test="@id = 'ac' or xs:integer(@id) gt 0"/>`),
    ];
    // It holds on "ac"; on "zz" its second operand raises FORG0001.
    const r = await validateFully(catalog(['ac', 'zz']), { sets });
    assert.deepEqual(
      r.issues.map((i) => [i.code, i.constraintId]),
      [['constraint-error', 'breaks-on-one']],
    );
    const results = sarif(r);
    assert.deepEqual(kindsOf(results, 'breaks-on-one'), ['fail']);
  });

  test('a constraint that held everywhere is reported as passing, once', async () => {
    const sets = [await setOf('<expect id="titled" target="group" test="title"/>')];
    assert.deepEqual(kindsOf(sarif(await validateFully(catalog(['ac', 'au']), { sets })), 'titled'), ['pass']);
  });
});

describe('constraints run whatever the schema finds', () => {
  // AbstractValidateContentCommand.java (metaschema-cli): schema validation unless
  // --disable-schema-validation, then constraint validation unless --disable-constraint-validation,
  // the two results aggregated.
  test('a schema error and a constraint finding in one run', async () => {
    const sets = [await setOf('<allowed-values id="ids" target="group/@id"><enum value="ac"/></allowed-values>')];
    const r = await validateFully(catalog(['ac', 'zz'], 'yesterday'), { sets });
    assert.deepEqual(
      r.issues.map((i) => [i.code, i.constraintId ?? '']),
      [
        ['schema-pattern', ''],
        ['constraint-allowed-values', 'ids'],
      ],
    );
    assert.equal(r.constraintsChecked, true);
    const noSchema = await validateFully(catalog(['ac', 'zz'], 'yesterday'), { sets, schema: false });
    assert.deepEqual(
      noSchema.issues.map((i) => i.code),
      ['constraint-allowed-values'],
    );
    const noConstraints = await validateFully(catalog(['ac', 'zz'], 'yesterday'), { sets, constraints: false });
    assert.deepEqual(
      noConstraints.issues.map((i) => i.code),
      ['schema-pattern'],
    );
  });

  test('a partial document: constraints run on the parts that are there', async () => {
    const sets = [await setOf('<expect id="two-groups" target="." test="count(group) = 2"/>')];
    const partial = JSON.stringify({ catalog: { metadata: { 'oscal-version': '1.1.2' }, groups: [{ id: 'ac' }] } });
    const r = await validateFully(partial, { sets, schema: false });
    assert.deepEqual(
      r.issues.map((i) => [i.code, i.constraintId]),
      [['constraint-expect', 'two-groups']],
    );
  });

  test('a document that declares no release is checked against the newest, with a note; or the one asked for', async () => {
    const undeclared = JSON.stringify({ catalog: { uuid: UUID, metadata: { title: 'T' } } });
    const r = await validateFully(undeclared);
    assert.equal(r.version, '1.2.2');
    assert.equal(r.issues[0]!.code, 'version-assumed');
    assert.equal(r.issues[0]!.level, 'INFORMATIONAL');
    assert.match(r.issues[0]!.message, /declares no metadata\/oscal-version; it was checked against OSCAL 1\.2\.2/);
    assert.ok(
      r.issues.some((i) => i.code === 'schema-required'),
      'the schema still says oscal-version is required',
    );
    const asked = await validateFully(undeclared, { oscalVersion: '1.0.4' });
    assert.equal(asked.version, '1.0.4');
    const xml = await validateFully(
      `<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${UUID}">\n  <metadata>\n    <title>T</title>\n  </metadata>\n</catalog>`,
    );
    assert.deepEqual([xml.version, xml.issues[0]!.code], ['1.2.2', 'version-assumed']);
    assert.ok(
      xml.issues.every((i) => i.line !== undefined),
      'located in the XML',
    );
  });
});
