import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { modelFor } from '../src/oscal/model/model.js';
import { SUPPORTED_VERSIONS } from '../src/oscal/model/versions.js';
import { arbitraryDocument, type JsonObject } from './support/arbitrary-document.js';

/** Releases within a minor line share their models nearly unchanged, so the newest of each stands for the line. */
const NEWEST_PER_MINOR = [...new Map(SUPPORTED_VERSIONS.map((v) => [v.split('.').slice(0, 2).join('.'), v])).values()];

/**
 * Runs per model and release, sized so the whole file takes about 8 s on an idle 2-core machine;
 * catalog and system-security-plan get the most as the models most used.
 */
const RUNS: Record<string, number> = {
  catalog: 60,
  'system-security-plan': 50,
  profile: 25,
  'component-definition': 20,
  'assessment-plan': 15,
  'assessment-results': 12,
  'plan-of-action-and-milestones': 15,
  'mapping-collection': 25,
};

function assertRoundTrips(content: JsonObject): void {
  const fromJson = parseOscal(JSON.stringify(content), 'json');
  const xml = serializeOscal(fromJson, 'xml');
  const viaXml = parseOscal(xml, 'xml');
  assert.deepStrictEqual(viaXml.content, content, 'JSON -> XML -> JSON');

  const viaYaml = parseOscal(serializeOscal(fromJson, 'yaml'), 'yaml');
  assert.deepStrictEqual(viaYaml.content, content, 'JSON -> YAML -> JSON');

  const fromYaml = parseOscal(serializeOscal(viaXml, 'yaml'), 'yaml');
  const xmlAgain = serializeOscal(fromYaml, 'xml');
  assert.deepStrictEqual(parseOscal(xmlAgain, 'xml').content, content, 'XML -> YAML -> XML -> JSON');
  // The writer orders everything by the model, so the same content must give the same text.
  assert.equal(xmlAgain, xml, 'XML -> YAML -> XML gives back the XML text');
}

describe('generated documents survive every conversion chain', () => {
  for (const version of NEWEST_PER_MINOR) {
    const roots = Object.keys(modelFor(version).roots);
    for (const [root, numRuns] of Object.entries(RUNS)) {
      if (!roots.includes(root)) continue;
      test(`OSCAL ${version} ${root}`, () => {
        fc.assert(fc.property(arbitraryDocument(version, root), assertRoundTrips), { numRuns });
      });
    }
  }
});

// ---- the generator itself: a round trip of trivial documents would prove nothing ------------

/** Every value held under property `key` anywhere in the tree, arrays flattened. */
function collect(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const item of node) collect(item, key, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(...(Array.isArray(v) ? v : [v]));
      collect(v, key, out);
    }
  }
  return out;
}

function leaves(node: unknown, out: unknown[] = []): unknown[] {
  if (typeof node === 'object' && node !== null) for (const v of Object.values(node)) leaves(v, out);
  else out.push(node);
  return out;
}

const sample = (version: string, root: string, numRuns = 100) =>
  fc.sample(arbitraryDocument(version, root), { numRuns, seed: 42 });
const share = (docs: unknown[], has: (doc: unknown) => boolean) => docs.filter(has).length / docs.length;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

describe('the document generator', () => {
  const newest = NEWEST_PER_MINOR.at(-1)!;

  test('catalogs have controls with params and parts, nested controls and nested parts', () => {
    const catalogs = sample(newest, 'catalog');
    const controls = (doc: unknown) => collect(doc, 'controls').filter(isObject);
    assert.ok(
      share(catalogs, (d) => controls(d).some((c) => c.params && c.parts)) >= 0.2,
      'controls with params and parts',
    );
    assert.ok(share(catalogs, (d) => controls(d).some((c) => c.controls)) >= 0.1, 'control enhancements');
    assert.ok(share(catalogs, (d) => collect(d, 'parts').some((p) => isObject(p) && p.parts)) >= 0.1, 'parts in parts');
    assert.ok(
      share(catalogs, (d) => collect(d, 'groups').some((g) => isObject(g) && (g.controls || g.groups))) >= 0.1,
      'groups with content',
    );
  });

  test('system security plans reach down to by-components and carry their required structure', () => {
    const plans = sample(newest, 'system-security-plan');
    assert.ok(share(plans, (d) => collect(d, 'by-components').length > 0) >= 0.2, 'by-components');
    for (const plan of plans) {
      const body = (plan as JsonObject)['system-security-plan'] as JsonObject;
      for (const required of [
        'uuid',
        'metadata',
        'import-profile',
        'system-characteristics',
        'system-implementation',
        'control-implementation',
      ]) {
        assert.ok(required in body, `${required} is required`);
      }
    }
  });

  test('choices take at most one alternative', () => {
    for (const param of sample(newest, 'catalog').flatMap((d) => collect(d, 'params'))) {
      assert.ok(!(isObject(param) && param.values && param.select), 'a param has values or a select, not both');
    }
  });

  test('SINGLETON_OR_ARRAY values come both as one object and as an array of two or more', () => {
    const mappings = sample(newest, 'mapping-collection').map(
      (d) => ((d as JsonObject)['mapping-collection'] as JsonObject).mappings,
    );
    assert.ok(mappings.some(isObject), 'a single mapping');
    assert.ok(
      mappings.some((m) => Array.isArray(m) && m.length >= 2),
      'an array of mappings',
    );
    assert.ok(!mappings.some((m) => Array.isArray(m) && m.length < 2), 'never an array of one');
  });

  test('scalars include text that YAML would retype or XML must escape, and multi-paragraph markup', () => {
    const values = sample(newest, 'system-security-plan', 30).flatMap((d) => leaves(d));
    const strings = values.filter((v): v is string => typeof v === 'string');
    for (const tricky of ['true', '1.0', '2024-01-01', 'null', ''])
      assert.ok(strings.includes(tricky), JSON.stringify(tricky));
    assert.ok(
      strings.some((s) => /[&<>]/.test(s)),
      'XML specials',
    );
    assert.ok(
      strings.some((s) => s !== s.trim()),
      'surrounding spaces',
    );
    assert.ok(
      strings.some((s) => s.includes('\n\n')),
      'several paragraphs',
    );
    assert.ok(
      values.some((v) => typeof v === 'number'),
      'numbers',
    );
  });

  test('metadata/oscal-version is the release generated', () => {
    for (const version of NEWEST_PER_MINOR) {
      for (const doc of sample(version, 'catalog', 5)) {
        assert.equal((doc as { catalog: { metadata: JsonObject } }).catalog.metadata['oscal-version'], version);
      }
    }
  });
});
