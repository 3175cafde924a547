import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { bindingsFromIR } from '../src/metaschema/bindings.js';
import { compileIR } from '../src/metaschema/compile-ir.js';
import type { AssemblyDefinition, FieldDefinition, NamedModelInstance } from '../src/metaschema/ir.js';
import { MODELS } from '../src/oscal/model/models.js';
import { SUPPORTED_VERSIONS } from '../src/oscal/model/versions.js';
import { PROJECT_ROOT } from './support/shared.js';

const fixture = join(PROJECT_ROOT, 'test', 'fixtures', 'metaschema', 'main_metaschema.xml');
const vendored = (tag: string) =>
  join(PROJECT_ROOT, 'vendor', 'nist-oscal-metaschema', tag, 'oscal_complete_metaschema.xml');

describe('metaschema compiler on a purpose-built module pair', () => {
  const ir = compileIR(fixture);
  const doc = ir.definitions[ir.roots.doc!] as AssemblyDefinition;
  const named = (name: string) =>
    doc.model.find((m): m is NamedModelInstance => m.kind !== 'choice' && m.kind !== 'any' && m.name === name)!;

  test("a module's own definition shadows an imported one of the same name", () => {
    const remark = named('remark');
    assert.equal(remark.def, 'main:field:note');
    assert.equal((ir.definitions[remark.def] as FieldDefinition).type, 'string');
  });

  test('instance use-name renames the element; group-as names the JSON property', () => {
    assert.equal(named('remark').minOccurs, 1);
    assert.deepEqual(named('label').groupAs, { name: 'labels', inJson: 'SINGLETON_OR_ARRAY', inXml: 'UNGROUPED' });
    assert.deepEqual(named('item').groupAs, { name: 'items', inJson: 'BY_KEY', inXml: 'GROUPED' });
    assert.equal(named('label').maxOccurs, -1);
  });

  test('json-value-key, json-value-key-flag and json-key are carried', () => {
    assert.equal((ir.definitions['main:field:label'] as FieldDefinition).valueKey, 'text');
    assert.equal((ir.definitions['main:field:measure'] as FieldDefinition).valueKeyFlag, 'unit');
    assert.equal((ir.definitions['base:assembly:item'] as AssemblyDefinition).jsonKey, 'id');
  });

  test('imported definitions resolve their own references inside their module, local scope included', () => {
    const item = ir.definitions['base:assembly:item'] as AssemblyDefinition;
    assert.equal((item.model[0] as NamedModelInstance).def, 'base:field:secret');
    assert.equal(item.flags[0]!.required, true);
  });

  test('old datatype names are normalized and inline definitions get keys under their parent', () => {
    assert.equal(ir.definitions['main:assembly:doc/flag:count']!.kind, 'flag');
    assert.equal((ir.definitions['main:assembly:doc/flag:count'] as { type: string }).type, 'non-negative-integer');
  });

  test('choices keep their alternatives; UNWRAPPED markup is marked', () => {
    const choice = doc.model.find((m) => m.kind === 'choice');
    assert.ok(choice && choice.kind === 'choice');
    assert.deepEqual(
      choice.options.map((o) => (o as NamedModelInstance).name),
      ['left', 'right'],
    );
    assert.equal((choice.options[1] as NamedModelInstance).wrapped, false);
  });

  test('external entity includes are spliced into constraints', () => {
    const allowed = doc.constraints[0]!;
    assert.equal(allowed.name, 'allowed-values');
    const values = allowed.children
      .filter((c) => typeof c !== 'string')
      .map((c) => (c as { attrs: Record<string, string> }).attrs.value);
    assert.deepEqual(values, ['1', '2']);
  });

  test('binding tables: BY_KEY with wrapper, default value keys, choice numbers, unwrapped', () => {
    const bindings = bindingsFromIR(ir);
    const root = bindings.defs[bindings.roots.doc!]!;
    assert.equal(root.kind, 'assembly');
    if (root.kind !== 'assembly') return;
    const byName = Object.fromEntries(root.children.map((c) => [c.name, c]));
    assert.equal(byName.item!.json, 'items');
    assert.equal(byName.item!.wrapper, 'items');
    assert.equal(byName.item!.group, 'BY_KEY');
    assert.equal(byName.remark!.group, undefined);
    assert.equal(byName.left!.choice, 0);
    assert.equal(byName.right!.choice, 0);
    assert.equal(byName.right!.unwrapped, true);
    const measure = bindings.defs[byName.measure!.def]!;
    assert.equal(measure.kind === 'field' && measure.valueKeyFlag, 'unit');
  });
});

describe("metaschema compiler on NIST's modules", () => {
  test('v1.2.2 has the mapping model and every other model; v1.0.0 lacks mapping', () => {
    const models = [
      'assessment-plan',
      'assessment-results',
      'catalog',
      'component-definition',
      'plan-of-action-and-milestones',
      'profile',
      'system-security-plan',
    ];
    assert.deepEqual(Object.keys(compileIR(vendored('v1.2.2')).roots).sort(), [...models, 'mapping-collection'].sort());
    assert.deepEqual(Object.keys(compileIR(vendored('v1.0.0')).roots).sort(), models);
  });

  test('the model table of both interfaces names the root models of the newest release', () => {
    const newest = SUPPORTED_VERSIONS.at(-1)!;
    assert.deepEqual([...MODELS].sort(), Object.keys(compileIR(vendored(`v${newest}`)).roots).sort());
  });

  test('v1.1.2 catalog bindings: part prose is unwrapped markup, props are an array of <prop>, hash keeps its value key', () => {
    const b = bindingsFromIR(compileIR(vendored('v1.1.2')));
    const catalog = b.defs[b.roots.catalog!]!;
    assert.ok(catalog.kind === 'assembly');
    const control = b.defs[catalog.children.find((c) => c.name === 'control')!.def]!;
    assert.ok(control.kind === 'assembly');
    const part = b.defs[control.children.find((c) => c.name === 'part')!.def]!;
    assert.ok(part.kind === 'assembly');
    const prose = part.children.find((c) => c.json === 'prose')!;
    assert.equal(prose.unwrapped, true);
    const props = part.children.find((c) => c.name === 'prop')!;
    assert.equal(props.json, 'props');
    assert.equal(props.group, 'ARRAY');
    const hash = b.defs.find((d) => d.name === 'hash')!;
    assert.ok(hash.kind === 'field');
    assert.equal(hash.valueKey, 'value');
    assert.deepEqual(
      hash.flags.map((f) => [f.name, f.required === true]),
      [['algorithm', true]],
    );
    const metadata = b.defs[catalog.children.find((c) => c.name === 'metadata')!.def]!;
    assert.ok(metadata.kind === 'assembly');
    assert.equal(metadata.children.find((c) => c.name === 'revision')!.wrapper, 'revisions');
  });
});
