/**
 * The semantic diff (issue 21) on NIST's own documents and on generated edits. Expected results
 * are derived here independently of the engine: control ids are collected from the raw files, and
 * every generated edit states the one change it must produce.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diffDocuments, type Change } from '../src/oscal/diff/index.js';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import type { ParsedDocument } from '../src/oscal/formats/document.js';
import { CONTENT, REV5_A849 } from './support/shared.js';

const REV5_88BB = join(CONTENT, 'oscal-content@88bb8de', 'nist.gov', 'SP800-53', 'rev5');
const read = (path: string) => parseOscal(readFileSync(path, 'utf8'));
const resolved = (dir: string, level: string, format: 'json' | 'xml') =>
  join(dir, format, `NIST_SP-800-53_rev5_${level}-baseline-resolved-profile_catalog.${format}`);

/** Control ids as the files spell them: XML `<control id>`, JSON objects listed under "controls". */
function controlIds(path: string): Set<string> {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.xml')) return new Set([...text.matchAll(/<control\b[^>]*?\sid="([^"]+)"/g)].map((m) => m[1]!));
  const ids = new Set<string>();
  JSON.parse(text, function (key, value) {
    if (key === 'controls' && Array.isArray(value)) for (const c of value) ids.add(c.id);
    return value;
  });
  return ids;
}

/** Where each control sits in a JSON file, as a JSON pointer. */
function controlPaths(path: string): Map<string, string> {
  const paths = new Map<string, string>();
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${at}/${i}`));
    else if (node !== null && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === 'controls' && Array.isArray(value))
          value.forEach((c: { id: string }, i) => paths.set(c.id, `${at}/controls/${i}`));
        walk(value, `${at}/${key}`);
      }
  };
  walk(JSON.parse(readFileSync(path, 'utf8')), '');
  return paths;
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((id) => !b.has(id)).sort();

describe('real pairs from NIST', () => {
  const pairs = [
    [
      '800-53 catalog (a849dbc) to the HIGH resolved catalog (88bb8de)',
      join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json'),
      resolved(REV5_88BB, 'HIGH', 'xml'),
    ],
    [
      'LOW resolved catalog, a849dbc to 88bb8de',
      resolved(REV5_A849, 'LOW', 'json'),
      resolved(REV5_88BB, 'LOW', 'json'),
    ],
    [
      'MODERATE resolved catalog, a849dbc to 88bb8de',
      resolved(REV5_A849, 'MODERATE', 'json'),
      resolved(REV5_88BB, 'MODERATE', 'json'),
    ],
  ] as const;
  for (const [name, older, newer] of pairs) {
    test(`${name}: controls added and removed as their ids say`, () => {
      const report = diffDocuments(read(older), read(newer));
      const a = controlIds(older);
      const b = controlIds(newer);
      assert.deepEqual(report.summary.catalog!.controlsAdded, minus(b, a));
      assert.deepEqual(report.summary.catalog!.controlsRemoved, minus(a, b));
      assert.equal(report.equal, report.changes.length === 0);
      // Every control that went is reported once: as itself, or inside a removed group or control.
      const removedPaths = report.changes.filter((c) => c.kind === 'removed').map((c) => c.path);
      const paths = controlPaths(older);
      for (const id of minus(a, b)) {
        const at = paths.get(id)!;
        const covering = removedPaths.filter((p) => at === p || at.startsWith(`${p}/`));
        assert.equal(covering.length, 1, `${id} (${at}) reported removed once`);
      }
      const counted = report.changes.reduce((n, c) => ({ ...n, [c.kind]: n[c.kind] + 1 }), {
        added: 0,
        removed: 0,
        moved: 0,
        changed: 0,
      });
      assert.deepEqual(report.summary.counts, counted);
    });
  }

  test('the same document in XML and in JSON: no differences', () => {
    for (const path of [
      join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_LOW-baseline_profile.xml'),
      join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'xml', 'ssp-example.xml'),
      join(
        CONTENT,
        'oscal-content@88bb8de',
        'examples',
        'component-definition',
        'xml',
        'example-component-definition.xml',
      ),
    ]) {
      const report = diffDocuments(read(path), read(path.replace(/\/xml\/(.*)\.xml$/, '/json/$1.json')));
      assert.deepEqual(report.changes, [], path);
      assert.ok(report.equal);
    }
  });

  test("800-53's XML and JSON differ only where NIST's JSON writes two titles as `* Security…*`", () => {
    const report = diffDocuments(
      read(join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_catalog.xml')),
      read(join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json')),
    );
    assert.equal(report.changes.length, 2);
    // The summary reads prose as the change list does: converter spacing changed no statement or parameter.
    assert.deepEqual(report.summary.catalog!.statementsChanged, []);
    assert.deepEqual(report.summary.catalog!.parametersChanged, []);
    for (const change of report.changes) {
      assert.equal(change.kind, 'changed');
      assert.equal(change.object, 'resource');
      assert.deepEqual(
        change.fields!.map((f) => f.field),
        ['title'],
      );
      assert.match(String(change.fields![0]!.new), /Revision 5: \* Security and Privacy/);
    }
  });

  test('a document against itself after our XML -> JSON -> YAML -> JSON round trip: no differences', () => {
    const original = read(join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_catalog.xml'));
    let doc: ParsedDocument = original;
    for (const format of ['json', 'yaml', 'json'] as const) doc = parseOscal(serializeOscal(doc, format), format);
    const report = diffDocuments(original, doc);
    assert.deepEqual(report.changes, []);
  });
});

describe('generated edits, each reported exactly once, across formats', () => {
  const base = read(resolved(REV5_88BB, 'LOW', 'json'));
  type Catalog = {
    catalog: { groups: { id: string; controls?: Record<string, unknown>[] }[]; metadata: Record<string, unknown> };
  };
  const groupsOf = (doc: ParsedDocument) =>
    (doc.content as Catalog).catalog.groups.filter((g) => (g.controls?.length ?? 0) >= 3);
  const edited = (edit: (content: Catalog) => void): ParsedDocument => {
    const content = structuredClone(base.content) as Catalog;
    edit(content);
    return { ...base, content };
  };
  const pathOf = (doc: ParsedDocument, id: string): string => {
    const groups = (doc.content as Catalog).catalog.groups;
    for (const [g, group] of groups.entries()) {
      const c = (group.controls ?? []).findIndex((control) => control.id === id);
      if (c >= 0) return `/catalog/groups/${g}/controls/${c}`;
    }
    throw new Error(`no control ${id}`);
  };

  /** The edited document as JSON, XML and YAML read back: the report must be the same from each. */
  function reportsAcrossFormats(doc: ParsedDocument): Change[][] {
    return (['json', 'xml', 'yaml'] as const).map(
      (format) => diffDocuments(base, parseOscal(serializeOscal(doc, format), format)).changes,
    );
  }

  const [first, second] = groupsOf(base);
  const control = first!.controls![1]!;
  const id = String(control.id);

  const cases: { name: string; doc: ParsedDocument; expect: (doc: ParsedDocument) => Partial<Change>[] }[] = [
    {
      name: 'a control added',
      doc: edited((c) =>
        c.catalog.groups.find((g) => g.id === first!.id)!.controls!.push({ id: 'zz-1', title: 'New control' }),
      ),
      expect: (doc) => [{ kind: 'added', object: 'control', key: 'zz-1', path: pathOf(doc, 'zz-1') }],
    },
    {
      name: 'a control removed',
      doc: edited((c) => c.catalog.groups.find((g) => g.id === first!.id)!.controls!.splice(1, 1)),
      expect: () => [{ kind: 'removed', object: 'control', key: id, path: pathOf(base, id) }],
    },
    {
      name: 'a control moved to another group',
      doc: edited((c) => {
        const [moved] = c.catalog.groups.find((g) => g.id === first!.id)!.controls!.splice(1, 1);
        c.catalog.groups.find((g) => g.id === second!.id)!.controls!.push(moved!);
      }),
      expect: (doc) => [{ kind: 'moved', object: 'control', key: id, path: pathOf(doc, id), from: pathOf(base, id) }],
    },
    {
      name: 'a control moved within its group (a keyed array reordered)',
      doc: edited((c) => {
        const controls = c.catalog.groups.find((g) => g.id === first!.id)!.controls!;
        const [moved] = controls.splice(0, 1);
        controls.push(moved!);
      }),
      expect: (doc) => {
        const movedId = String(first!.controls![0]!.id);
        return [
          { kind: 'moved', object: 'control', key: movedId, path: pathOf(doc, movedId), from: pathOf(base, movedId) },
        ];
      },
    },
    {
      name: "a control's title changed",
      doc: edited((c) => {
        c.catalog.groups.find((g) => g.id === first!.id)!.controls![1]!.title = 'A changed title';
      }),
      expect: () => [
        {
          kind: 'changed',
          object: 'control',
          key: id,
          path: pathOf(base, id),
          fields: [{ field: 'title', old: control.title, new: 'A changed title', words: [] }],
        },
      ],
    },
  ];

  for (const c of cases) {
    test(c.name, () => {
      const expected = c.expect(c.doc);
      for (const changes of reportsAcrossFormats(c.doc)) {
        assert.equal(changes.length, 1, JSON.stringify(changes, null, 1).slice(0, 2000));
        const [change] = changes;
        for (const [key, value] of Object.entries(expected[0]!)) {
          if (key === 'fields') {
            const [field] = change!.fields!;
            const [want] = value as { field: string; old: unknown; new: unknown }[];
            assert.deepEqual([field!.field, field!.old, field!.new], [want!.field, want!.old, want!.new]);
            assert.ok(field!.words!.some((w) => w.op === 'added') && field!.words!.some((w) => w.op === 'removed'));
          } else assert.deepEqual(change![key as keyof Change], value, key);
        }
      }
    });
  }

  test('reordering object keys, reading from another format, reordering unkeyed values: nothing', () => {
    const reordered = edited((c) => {
      const { metadata, ...rest } = c.catalog;
      (c as { catalog: unknown }).catalog = {
        ...rest,
        metadata: Object.fromEntries(Object.entries(metadata).reverse()),
      };
    });
    for (const changes of reportsAcrossFormats(reordered)) assert.deepEqual(changes, []);
  });

  test('volatile fields are reported unless asked to be ignored', () => {
    const saved = edited((c) => {
      c.catalog.metadata['last-modified'] = '2030-01-01T00:00:00Z';
      c.catalog.metadata['document-ids'] = [
        { scheme: 'http://oscal.io/oscal/identifier/contentuuid', identifier: '11111111-1111-4111-8111-111111111111' },
      ];
    });
    assert.ok(diffDocuments(base, saved).changes.length > 0);
    assert.deepEqual(diffDocuments(base, saved, { ignoreVolatile: true }).changes, []);
  });

  test('two models cannot be compared', () => {
    const profile = read(join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_LOW-baseline_profile.json'));
    assert.throws(() => diffDocuments(base, profile), /wrong-model|cannot be compared/);
  });
});

describe('summaries made for people', () => {
  test('catalog: a control withdrawn, a parameter and a statement changed', () => {
    const base = read(resolved(REV5_88BB, 'LOW', 'json'));
    const content = structuredClone(base.content) as { catalog: { groups: { controls?: Record<string, any>[] }[] } };
    const [a, b, c] = content.catalog.groups
      .flatMap((g) => g.controls ?? [])
      .filter((x) => x.params?.length && x.parts?.length);
    (a!.props ??= []).push({ name: 'status', value: 'withdrawn' });
    b!.params[0].label = 'another label';
    c!.parts.find((p: { name: string }) => p.name === 'statement').prose = 'A new statement.';
    const summary = diffDocuments(base, { ...base, content }).summary.catalog!;
    assert.deepEqual(summary.controlsWithdrawn, [a!.id]);
    assert.deepEqual(summary.parametersChanged, [b!.params[0].id]);
    assert.deepEqual(summary.statementsChanged, [c!.id]);
    assert.deepEqual([summary.controlsAdded, summary.controlsRemoved], [[], []]);
  });

  test('profile: LOW to MODERATE baseline selects what only MODERATE names', () => {
    const path = (level: string) => join(REV5_A849, 'json', `NIST_SP-800-53_rev5_${level}-baseline_profile.json`);
    const withIds = (level: string) =>
      new Set<string>(
        JSON.parse(readFileSync(path(level), 'utf8')).profile.imports.flatMap(
          (i: { 'include-controls'?: { 'with-ids': string[] }[] }) =>
            (i['include-controls'] ?? []).flatMap((call) => call['with-ids']),
        ),
      );
    const summary = diffDocuments(read(path('LOW')), read(path('MODERATE'))).summary.profile!;
    assert.deepEqual(summary.controlsSelected, minus(withIds('MODERATE'), withIds('LOW')));
    assert.deepEqual(summary.controlsDeselected, minus(withIds('LOW'), withIds('MODERATE')));
    assert.ok(summary.controlsSelected.length > 100);
  });

  test('SSP: a requirement added, a status changed, a component added; and the other way round', () => {
    const base = read(join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json'));
    const content = structuredClone(base.content) as { 'system-security-plan': Record<string, any> };
    const ssp = content['system-security-plan'];
    const requirements = ssp['control-implementation']['implemented-requirements'];
    const existing = requirements[0];
    requirements.push({
      ...structuredClone(existing),
      uuid: '33333333-3333-4333-8333-333333333333',
      'control-id': 'zz-9',
    });
    existing.props = [...(existing.props ?? []), { name: 'implementation-status', value: 'planned' }];
    const uuid = '22222222-2222-4222-8222-222222222222';
    ssp['system-implementation'].components.push({
      uuid,
      type: 'software',
      title: 'New tool',
      description: 'd',
      status: { state: 'operational' },
    });
    const changed = { ...base, content };
    const forward = diffDocuments(base, changed).summary.systemSecurityPlan!;
    assert.deepEqual(forward.requirementsAdded, ['zz-9']);
    assert.deepEqual(forward.statusChanges, [{ control: existing['control-id'], new: 'planned' }]);
    assert.deepEqual(forward.componentsAdded, [{ uuid, title: 'New tool' }]);
    const back = diffDocuments(changed, base).summary.systemSecurityPlan!;
    assert.deepEqual(back.requirementsRemoved, ['zz-9']);
    assert.deepEqual(back.componentsRemoved, [{ uuid, title: 'New tool' }]);
    assert.deepEqual(back.statusChanges, [{ control: existing['control-id'], old: 'planned' }]);
  });
});
