/**
 * Search entries (issue 22) from NIST's own documents. Expected values are derived here from the
 * raw files, independently of the engine: control ids and implemented requirements are read from
 * the JSON text, and the rare guidance word is found by counting words over the whole file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseOscal } from '../src/oscal/formats/index.js';
import { controlOfPartId } from '../src/oscal/search/control-ids.js';
import { searchEntriesOf, type SearchEntry } from '../src/oscal/search/extract.js';
import { collapse, markupWords, parsedWords } from '../src/oscal/search/plain-text.js';
import { CONTENT, REV5_A849, twin } from './support/shared.js';

const CATALOG = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');
const MODERATE = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_MODERATE-baseline_profile.json');
const EXAMPLES = join(CONTENT, 'oscal-content@88bb8de', 'examples');
const SSP = join(EXAMPLES, 'ssp', 'json', 'ssp-example.json');
const SSPS = ['ssp-example', 'ifa_ssp-example', 'oscal_leveraged-example_ssp', 'oscal_leveraging-example_ssp'].map(
  (name) => join(EXAMPLES, 'ssp', 'json', `${name}.json`),
);
const OTHER_EXAMPLES = [
  'ap/json/ifa_assessment-plan-example.json',
  'ar/json/ifa_assessment-results-example.json',
  'catalog/json/basic-catalog.json',
  'component-definition/json/example-component-definition.json',
  'component-definition/json/example-component.json',
  'poam/json/ifa_plan-of-action-and-milestones.json',
].map((path) => join(EXAMPLES, path));
const ALL_JSON = [CATALOG, MODERATE, ...SSPS, ...OTHER_EXAMPLES];

type Obj = Record<string, unknown>;

const texts = new Map<string, string>();
const textOf = (path: string) => {
  let text = texts.get(path);
  if (text === undefined) texts.set(path, (text = readFileSync(path, 'utf8')));
  return text;
};
const entriesOf = (path: string) => searchEntriesOf(parseOscal(textOf(path)));
const rawOf = (path: string) => JSON.parse(textOf(path)) as Obj;

/** Every object of a raw JSON tree, with the property it is listed under. */
function objects(node: unknown, under = '', out: { under: string; node: Obj }[] = []) {
  if (Array.isArray(node)) for (const item of node) objects(item, under, out);
  else if (node !== null && typeof node === 'object') {
    out.push({ under, node: node as Obj });
    for (const [key, value] of Object.entries(node)) objects(value, key, out);
  }
  return out;
}

function resolvePointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown>)[Array.isArray(node) ? Number(segment) : segment];
    if (node === undefined) return undefined;
  }
  return node;
}

const WORD = /[a-z]+/g;
const words = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

describe('the 800-53 rev. 5 catalog', () => {
  const entries = entriesOf(CATALOG);
  const raw = rawOf(CATALOG);
  const controls = objects(raw).filter((o) => o.under === 'controls');

  test('gives one control entry per control, keyed and about its own id', () => {
    const ids = controls.map((c) => c.node.id as string);
    const entriesOfControls = entries.filter((e) => e.kind === 'control');
    assert.ok(ids.length > 1000);
    assert.equal(entriesOfControls.length, ids.length);
    assert.deepEqual(entriesOfControls.map((e) => e.key).sort(), [...ids].sort());
    for (const entry of entriesOfControls) assert.deepEqual(entry.controlIds, [entry.key!.toLowerCase()]);
    const ac2 = entriesOfControls.find((e) => e.key === 'ac-2')!;
    assert.equal(ac2.title, 'Account Management');
    assert.match(ac2.text, /\bAC-2\b/);
  });

  test('the document itself comes first, titled by its metadata', () => {
    const metadata = (raw.catalog as Obj).metadata as Obj;
    assert.deepEqual(
      { path: entries[0]!.path, kind: entries[0]!.kind, key: entries[0]!.key, title: entries[0]!.title },
      { path: '/catalog', kind: 'catalog', key: (raw.catalog as Obj).uuid, title: metadata.title },
    );
    assert.equal(entries.filter((e) => e.kind === 'catalog').length, 1);
  });

  test("a word found only in one control's guidance is in that control's guidance entry", () => {
    const counts = new Map<string, number>();
    for (const word of words(textOf(CATALOG))) counts.set(word, (counts.get(word) ?? 0) + 1);
    let found: { word: string; control: string } | undefined;
    for (const { node } of controls) {
      const guidance = ((node.parts as Obj[] | undefined) ?? []).find((p) => p.name === 'guidance');
      const word = words(String(guidance?.prose ?? '')).find((w) => w.length >= 8 && counts.get(w) === 1);
      if (word) {
        found = { word, control: node.id as string };
        break;
      }
    }
    assert.ok(found, 'some word occurs once in the file, in a guidance part');
    const { word, control: id } = found;
    const holding = entries.filter((e) => words(e.text).includes(word));
    assert.equal(holding.length, 1, `${word} is in one entry`);
    const [entry] = holding as [SearchEntry];
    assert.equal(entry.kind, 'part');
    assert.equal(entry.key, `${id}_gdn`);
    assert.deepEqual(entry.controlIds, [id]);
    const control = entries.find((e) => e.kind === 'control' && e.key === id)!;
    assert.ok(entry.path.startsWith(`${control.path}/parts/`), `${entry.path} is inside ${control.path}`);
  });

  test('parameters, inserts and links are searchable by the ids they name', () => {
    const ac1 = entries.find((e) => e.key === 'ac-1_smt.a')!;
    assert.match(textOf(CATALOG), /\{\{ insert: param, ac-1_prm_1 \}\}/);
    assert.match(ac1.text, /\bac-1_prm_1\b/);
    const param = entries.find((e) => e.key === 'ac-1_prm_1')!;
    assert.equal(param.kind, 'param');
    assert.deepEqual(param.controlIds, ['ac-1']);
  });
});

describe('the SSP examples', () => {
  for (const path of SSPS) {
    test(`${path.split('/').pop()}: implemented requirements and what is inside them are about their control`, () => {
      const entries = entriesOf(path);
      const root = (rawOf(path)['system-security-plan'] as Obj)['control-implementation'] as Obj;
      const requirements = root['implemented-requirements'] as Obj[];
      const found = entries.filter((e) => e.kind === 'implemented-requirement');
      assert.deepEqual(
        found.map((e) => [e.key, e.controlIds]),
        requirements.map((r) => [r.uuid, [String(r['control-id']).toLowerCase()]]),
      );
      for (const requirement of found)
        for (const inside of entries.filter((e) => e.path.startsWith(`${requirement.path}/`)))
          assert.ok(inside.controlIds.includes(requirement.controlIds[0]!), `${inside.path} is about its control`);
    });
  }

  test('ssp-example.json: statements and by-components are located, with their words', () => {
    const entries = entriesOf(SSP);
    const raw = rawOf(SSP);
    const statements = objects(raw).filter((o) => o.under === 'statements');
    const byComponents = objects(raw).filter((o) => o.under === 'by-components');
    assert.equal(entries.filter((e) => e.kind === 'statement').length, statements.length);
    assert.equal(entries.filter((e) => e.kind === 'by-component').length, byComponents.length);
    const first = byComponents[0]!.node;
    const entry = entries.find((e) => e.key === first.uuid)!;
    assert.equal(entry.kind, 'by-component');
    for (const word of words(String(first.description)).slice(0, 10)) assert.ok(words(entry.text).includes(word));
    const parties = objects(raw).filter((o) => o.under === 'parties');
    assert.deepEqual(
      entries.filter((e) => e.kind === 'party').map((e) => e.title),
      parties.map((p) => p.node.name),
    );
  });
});

describe('other models', () => {
  test('the MODERATE profile is about the controls it selects', () => {
    const raw = rawOf(MODERATE);
    const selected = objects(raw)
      .filter((o) => o.under === 'include-controls')
      .flatMap((o) => o.node['with-ids'] as string[]);
    const [root] = entriesOf(MODERATE);
    assert.equal(root!.kind, 'profile');
    assert.ok(selected.length > 200);
    for (const id of selected) assert.ok(root!.controlIds.includes(id.toLowerCase()), id);
  });

  test('POA&M items, findings and observations are entries, findings about the control they target', () => {
    const poam = join(EXAMPLES, 'poam', 'json', 'ifa_plan-of-action-and-milestones.json');
    const items = (rawOf(poam)['plan-of-action-and-milestones'] as Obj)['poam-items'] as Obj[];
    assert.deepEqual(
      entriesOf(poam)
        .filter((e) => e.kind === 'poam-item')
        .map((e) => [e.key, e.title]),
      items.map((i) => [i.uuid, i.title]),
    );
    const results = join(EXAMPLES, 'ar', 'json', 'ifa_assessment-results-example.json');
    const findings = objects(rawOf(results)).filter((o) => o.under === 'findings');
    const entries = entriesOf(results);
    assert.ok(findings.length > 0);
    for (const { node } of findings) {
      const entry = entries.find((e) => e.key === node.uuid)!;
      assert.equal(entry.kind, 'finding');
      const target = String((node.target as Obj)['target-id']);
      assert.deepEqual(entry.controlIds, [target.slice(0, target.indexOf('_'))]);
    }
    assert.equal(
      entries.filter((e) => e.kind === 'observation').length,
      objects(rawOf(results)).filter((o) => o.under === 'observations').length,
    );
  });

  test("the control of a part's or parameter's id, in the form documents write controls", () => {
    assert.equal(controlOfPartId('ac-06.01_odp.01'), 'ac-6.1');
    assert.equal(controlOfPartId('ac-2_prm_1'), 'ac-2');
    assert.equal(controlOfPartId('AC-2_smt.a'), 'ac-2');
    assert.equal(controlOfPartId('si-4.10_obj'), 'si-4.10');
    assert.equal(controlOfPartId('ac-2'), undefined);
    assert.equal(controlOfPartId('statement_1'), undefined);
  });
});

describe('every document', () => {
  test('XML and JSON of the same document give the same entries', () => {
    for (const path of ALL_JSON) {
      const fromJson = entriesOf(path);
      const fromXml = entriesOf(twin(path, 'xml'));
      assert.deepEqual(fromXml, fromJson, path);
    }
  });

  test('no Markdown syntax is left in titles and text', () => {
    const syntax = /\*\*|\[[^\]]*\]\([^)]*\)|\{\{|\\[\\`*_{}[\]()#+\-.!]/;
    for (const source of [/\*\*/, /\]\(#/, /\{\{ insert/]) assert.match(textOf(CATALOG), source);
    for (const path of ALL_JSON)
      for (const entry of entriesOf(path))
        for (const text of [entry.text, entry.title ?? '']) assert.doesNotMatch(text, syntax, `${path} ${entry.path}`);
  });

  test('every path resolves to an object of the JSON form with that key', () => {
    for (const path of ALL_JSON) {
      const raw = rawOf(path);
      const entries = entriesOf(path);
      assert.equal(entries[0]!.path, `/${Object.keys(raw)[0]}`);
      assert.equal(new Set(entries.map((e) => e.path)).size, entries.length, `${path}: paths are distinct`);
      for (const entry of entries) {
        const node = resolvePointer(raw, entry.path) as Obj | undefined;
        assert.ok(node !== undefined && typeof node === 'object' && !Array.isArray(node), `${path} ${entry.path}`);
        assert.equal(entry.key, node.uuid ?? node.id, `${path} ${entry.path}`);
      }
    }
  });

  test('Markdown becomes its words: emphasis, links, inserts, lists, code and tables', () => {
    const prose = [
      'Use **FIPS 140** validated *modules*, see [the standard](https://csrc.nist.gov) and [AC-3](#ac-3).',
      '',
      '- first {{ insert: param, x-1_prm_1 }} item',
      '- `code` H~2~O x^2^ "quoted"',
      '',
      '| head | cell |',
      '|---|---|',
      '| left | right |',
    ].join('\n');
    const doc = parseOscal(
      JSON.stringify({
        catalog: {
          uuid: '7c6e8f4a-2b43-4c54-a5b7-2f3c7c6d1e10',
          metadata: {
            title: 'A *small* catalog',
            'last-modified': '2024-01-01T00:00:00Z',
            version: '1',
            'oscal-version': '1.1.2',
          },
          controls: [{ id: 'x-1', title: 'One', parts: [{ id: 'x-1_smt', name: 'statement', prose }] }],
        },
      }),
    );
    const entries = searchEntriesOf(doc);
    assert.equal(entries[0]!.title, 'A small catalog');
    assert.equal(
      entries.find((e) => e.key === 'x-1_smt')!.text,
      'Use FIPS 140 validated modules, see the standard and ac-3 AC-3. first x-1_prm_1 item code H2O x2 quoted head cell left right',
    );
  });
});

describe('Markdown read without the parser', () => {
  /** Every string of a JSON tree. */
  const strings = (node: unknown, out: string[] = []): string[] => {
    if (typeof node === 'string') out.push(node);
    else if (Array.isArray(node)) for (const item of node) strings(item, out);
    else if (node !== null && typeof node === 'object') for (const value of Object.values(node)) strings(value, out);
    return out;
  };
  const agree = (text: string) => {
    for (const multiline of [false, true])
      assert.equal(
        collapse(markupWords(text, multiline)),
        collapse(parsedWords(text, multiline)),
        `${JSON.stringify(text)} as ${multiline ? 'markup-multiline' : 'markup-line'}`,
      );
  };

  test('reads every string of NIST content as the parser does', () => {
    for (const path of ALL_JSON) for (const text of strings(rawOf(path))) agree(text);
  });

  test('reads underscores, links, inserts and lines as the parser does, and leaves it the rest', () => {
    const cases = [
      'ac-2_smt.a and snake_case_words',
      '_emphasis_ and a _word_ and trailing_ and _leading',
      'see [AC-3](#ac-3), [the site](https://csrc.nist.gov) and [](#ac-4)',
      '[text](#ac-3 "title") [a [b](#c)] x[a](#b) [a] (b) [a]\t(#b) [a]: b',
      '{{ insert: param, ac-2_prm_1 }} {{ insert: param, 1bad }} {{insert: param, x}}',
      'first line\nsecond line\n\nnew paragraph  \nhard break\r\nand \r return',
      'text\n- a list\n1. numbered\n    code\n\tcode\n===\n---',
      '! ok & &amp; \\* \0 <b> "q" ~s~ ^s^ # h | t',
      'é_é ac_\u0301 1_2 a__b',
    ];
    for (const text of cases) agree(text);
    for (const text of cases) for (const line of text.split('\n')) agree(line);
  });
});
