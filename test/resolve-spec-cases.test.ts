import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveProfile, type ImportLoader } from '../src/oscal/resolve/index.js';
import {
  catalog,
  control,
  ctl,
  ids,
  includeIds,
  KEEP,
  MEMORY,
  outline,
  profile,
  R,
  resolveInMemory,
} from './support/resolve.js';

type Json = Record<string, any>;

// Expected results here follow the text of NIST's profile resolution specification
// (profile-resolution-specml.xml); each test quotes the requirement it relies on.

const LEFT_OUT = {
  id: 'a-1_prm',
  label: 'inserted by a-2',
  links: [{ href: `#${R(1)}`, rel: 'reference' }],
};
const PARAMS = catalog({
  groups: [
    {
      id: 'a',
      title: 'A',
      controls: [
        ctl('a-1', {
          params: [
            LEFT_OUT,
            { id: 'a-1_dep', label: 'a-3_prm depends on it' },
            { id: 'a-1_linked', label: 'a-3 links to it' },
            { id: 'a-1_kept', label: 'kept always', props: [KEEP] },
            { id: 'a-1_own', label: 'inserted by a-1 only' },
          ],
          parts: [{ id: 'a-1_smt', name: 'statement', prose: 'Own {{ insert: param, a-1_own }}.' }],
        }),
        ctl('a-2', { parts: [{ id: 'a-2_smt', name: 'statement', prose: 'Uses {{ insert: param, a-1_prm }}.' }] }),
        ctl('a-3', {
          params: [{ id: 'a-3_prm', 'depends-on': 'a-1_dep' }],
          links: [{ href: '#a-1_linked', rel: 'related' }],
        }),
      ],
    },
  ],
  'back-matter': {
    resources: [
      { uuid: R(1), title: 'cited by a-1_prm' },
      { uuid: R(2), title: 'cited by nothing' },
    ],
  },
});
const withParams = (p: Json) => resolveInMemory(p, { 'catalog.json': PARAMS });
const excludeA1 = { href: 'catalog.json', 'include-all': {}, 'exclude-controls': [{ 'with-ids': ['a-1'] }] };

describe('a param of a control left out that what stays references (§cleanup, req-prune-ref)', () => {
  // req-prune-ref: "If the object appears in a reference anywhere in the final result catalog,
  // except in other objects that also meet all other pruning criteria, it MUST NOT be removed. A
  // reference to a given object exists if #{distinctiveID} appears anywhere".
  // Where it goes: req-merge-flat-list-2 and id-structure-as-is-list-2: "Any included "loose
  // params" are output to the target as a flat list directly under "catalog"." (custom says
  // nothing; the same place is taken.)
  const structurings: [string, Json | undefined, string][] = [
    ['none', undefined, 'a-2 a-3'],
    ['flat', { flat: {} }, 'a-2 a-3'],
    ['as-is', { 'as-is': true }, 'a{a-2 a-3}'],
    [
      'custom',
      { custom: { groups: [{ id: 'mine', title: 'Mine', 'insert-controls': [{ 'include-all': {} }] }] } },
      'mine{a-2 a-3}',
    ],
  ];
  for (const [name, merge, shape] of structurings) {
    test(`exclude-controls, merge ${name}: the params of the excluded control that are inserted, depended on or linked stay as loose params`, async () => {
      const { catalog: result, warnings } = await withParams(profile([excludeA1], merge ? { merge } : {}));
      assert.equal(outline(result), shape);
      assert.deepEqual(
        ids(result.params),
        ['a-1_prm', 'a-1_dep', 'a-1_linked'],
        'a-1_own is referenced only by the excluded a-1; a-1_kept is excluded with it, not pruned',
      );
      assert.deepEqual(result.params[0], LEFT_OUT, 'the param as its catalog has it');
      // "A reference to a given object exists if #{distinctiveID} appears anywhere": the param that stays cites R1.
      assert.deepEqual(ids(result['back-matter'].resources), [R(1)]);
      assert.deepEqual(warnings, []);
    });
  }

  test('a control never included, or included but never inserted by custom, leaves its referenced params the same way', async () => {
    const onlyA2 = await withParams(profile([{ href: 'catalog.json', ...includeIds('a-2') }]));
    assert.equal(outline(onlyA2.catalog), 'a-2');
    assert.deepEqual(ids(onlyA2.catalog.params), ['a-1_prm']);
    // custom-selection: "If a control that was included by the Import Phase is never selected, no
    // error occurs. That control simply does not appear in the output catalog."
    const custom = {
      groups: [{ id: 'mine', title: 'Mine', 'insert-controls': [{ 'include-controls': [{ 'with-ids': ['a-2'] }] }] }],
    };
    const notInserted = await withParams(profile([{ href: 'catalog.json', 'include-all': {} }], { merge: { custom } }));
    assert.equal(outline(notInserted.catalog), 'mine{a-2}');
    assert.deepEqual(
      ids(notInserted.catalog.params),
      ['a-1_prm'],
      'a-3, which references a-1_dep and a-1_linked, is not inserted either',
    );
  });

  test("use-first: a dropped duplicate's param stays only when no param with its id does", async () => {
    // req-merge-use-first: "the first control encountered MUST be kept, the rest MUST be discarded."
    const first = catalog({ controls: [ctl('x-1', { params: [{ id: 'x-1_prm', label: 'first' }] })] });
    const second = catalog({
      controls: [
        ctl('x-1', {
          params: [
            { id: 'x-1_prm', label: 'second' },
            { id: 'x-1_only', label: 'only in the duplicate' },
          ],
        }),
        ctl('x-2', {
          parts: [{ name: 'statement', prose: 'Uses {{ insert: param, x-1_prm }} and {{ insert: param, x-1_only }}.' }],
        }),
      ],
    });
    const imports = [
      { href: 'first.json', 'include-all': {} },
      { href: 'second.json', 'include-all': {} },
    ];
    const { catalog: result } = await resolveInMemory(
      profile(imports, { merge: { combine: { method: 'use-first' } } }),
      { 'first.json': first, 'second.json': second },
    );
    assert.equal(outline(result), 'x-1 x-2');
    assert.deepEqual(control(result, 'x-1').params, [{ id: 'x-1_prm', label: 'first' }]);
    assert.deepEqual(result.params, [{ id: 'x-1_only', label: 'only in the duplicate' }]);
  });

  test('set-parameter does not reach a param of a control left out: a warning, and the param stays as its catalog has it', async () => {
    // param-setting: "First, the list of included params (among "loose params" and remaining
    // included controls and groups) is searched for a param who has an "id" equal to this
    // object's "param-id". [...] If no such parameter is found, a warning SHOULD be issued."
    const modify = {
      'set-parameters': [
        { 'param-id': 'a-1_prm', values: ['set'] },
        { 'param-id': 'a-1_own', values: ['set'] },
      ],
    };
    const { catalog: result, warnings } = await withParams(profile([excludeA1], { modify }));
    assert.deepEqual(ids(result.params), ['a-1_prm', 'a-1_dep', 'a-1_linked']);
    assert.deepEqual(result.params[0], LEFT_OUT);
    assert.deepEqual(warnings, [
      'unknown-param /profile/modify/set-parameters/0',
      'unknown-param /profile/modify/set-parameters/1',
    ]);
  });

  test('alters: a param a remove takes out stays out; a param an add puts in answers the reference', async () => {
    // req-prune-modify: "Any objects removed in that section are still removed."
    const alters = [
      { 'control-id': 'a-1', removes: [{ 'by-id': 'a-1_prm' }] },
      { 'control-id': 'a-3', adds: [{ params: [{ id: 'a-1_dep', label: 'added to a-3' }] }] },
    ];
    const removed = await withParams(
      profile([{ href: 'catalog.json', ...includeIds('a-1', 'a-2') }], { modify: { alters } }),
    );
    assert.equal(outline(removed.catalog), 'a-1 a-2');
    assert.deepEqual(ids(control(removed.catalog, 'a-1').params), ['a-1_dep', 'a-1_linked', 'a-1_kept', 'a-1_own']);
    assert.equal(removed.catalog.params, undefined, 'a-2 still inserts a-1_prm, which the profile removed');
    assert.deepEqual(removed.warnings, ['inoperative-alter /profile/modify/alters/1']);

    const added = await withParams(profile([excludeA1], { modify: { alters: alters.slice(1) } }));
    assert.deepEqual(ids(control(added.catalog, 'a-3').params), ['a-3_prm', 'a-1_dep']);
    assert.deepEqual(
      ids(added.catalog.params),
      ['a-1_prm', 'a-1_linked'],
      'one param a-1_dep, the one the profile added',
    );
  });
});

describe('as-is with use-first: groups left holding no control (§merge-as-is, §cleanup)', () => {
  const first = catalog({ groups: [{ id: 'x', title: 'X', controls: [ctl('c-1')] }] });
  const second = catalog({
    groups: [
      { id: 'y', title: 'Y', params: [{ id: 'y-gp', label: 'param of a group left out' }], controls: [ctl('c-1')] },
      { id: 'z', title: 'Z', groups: [{ id: 'z-inner', title: 'Z inner', controls: [ctl('c-1')] }] },
      { id: 'k', title: 'K', props: [KEEP], controls: [ctl('c-1')] },
      {
        id: 'w',
        title: 'W',
        controls: [
          ctl('c-1'),
          ctl('c-2', { parts: [{ name: 'statement', prose: 'Uses {{ insert: param, y-gp }}.' }] }),
        ],
      },
    ],
  });
  const documents = { 'first.json': first, 'second.json': second };
  const imports = [
    { href: 'first.json', 'include-all': {} },
    { href: 'second.json', 'include-all': {} },
  ];

  test('a group whose controls use-first discarded is left out, unless kept always; its params become loose params', async () => {
    // req-merge-use-first: "the first control encountered MUST be kept, the rest MUST be discarded."
    // id-structure-as-is-list-1: "Any group that holds an included control MUST appear in the
    // output with all of its non-control children intact." Groups y and z (through z-inner) hold
    // no control once c-1 is discarded, and req-prune: "The processor SHOULD prune the resulting
    // output catalog by removing unused objects." But import-group: "Group objects that have a
    // child prop object with name:keep and value:always MUST NOT be pruned".
    // req-loose-param: "All loose params from both imported documents and the profile source MUST
    // be included. These params will be kept in the final output if the document contains any
    // references to them".
    const { catalog: result, warnings } = await resolveInMemory(
      profile(imports, { merge: { combine: { method: 'use-first' }, 'as-is': true } }),
      documents,
    );
    assert.equal(outline(result), 'x{c-1} k{} w{c-2}');
    assert.deepEqual(result.groups[1], { id: 'k', title: 'K', props: [KEEP] });
    assert.deepEqual(result.params, [{ id: 'y-gp', label: 'param of a group left out' }]);
    assert.deepEqual(warnings, []);
  });

  test('with combine keep every group holds its controls and appears', async () => {
    // req-merge-keep: "Any control with the same distinctive ID MUST NOT not merged. (They are kept.)"
    const { catalog: result, warnings } = await resolveInMemory(
      profile(imports, { merge: { combine: { method: 'keep' }, 'as-is': true } }),
      documents,
    );
    assert.equal(outline(result), 'x{c-1} y{c-1} z{z-inner{c-1}} k{c-1} w{c-1 c-2}');
    assert.equal(result.params, undefined, 'y-gp is in its group');
    assert.deepEqual(warnings, ['duplicate-control /profile/imports/1']);
  });
});

describe('as-is: groups without an id that several imports bring (§merge-as-is, §id)', () => {
  // req-id-id: "For the objects control, param, and group, distinctiveness MUST be determined by
  // the value of the "id" child object." A group without one is told apart by nothing but where
  // it is: its document and its place there; a title is no identifier.
  // merge-as-is: "An as-is directive is used to reproduce the structure of the source documents in
  // the target catalog." rq-multiple-imports: "each distinct import collects controls into a
  // separate selection", and rq-multiple-merge: "The control inclusions are combined and collapsed
  // in the next phase of processing". So the same group of the same document, however an import
  // reaches it, appears once; a group of another document does not join it, whatever its title.
  const CAT = catalog({
    groups: [
      { title: 'First', params: [{ id: 'first-gp', label: 'group param' }], controls: [ctl('a-1'), ctl('a-2')] },
      { title: 'Second', controls: [ctl('b-1')] },
    ],
  });
  const OTHER = catalog({ groups: [{ title: 'First', params: [{ id: 'other-gp' }], controls: [ctl('o-1')] }] });
  const backMatter = { resources: [{ uuid: R(5), rlinks: [{ href: 'catalog.json' }] }] };

  test('the same group of one document merges, whichever href reaches it; a like-titled group of another document does not', async () => {
    const imports = [
      { href: 'catalog.json', ...includeIds('a-1') },
      { href: './catalog.json', ...includeIds('b-1') },
      { href: `#${R(5)}`, ...includeIds('a-2') },
      { href: 'other.json', 'include-all': {} },
    ];
    const { catalog: result } = await resolveInMemory(
      profile(imports, { merge: { 'as-is': true }, 'back-matter': backMatter }),
      { 'catalog.json': CAT, 'other.json': OTHER },
    );
    assert.equal(outline(result), '"First"{a-1 a-2} "Second"{b-1} "First"{o-1}');
    assert.deepEqual(
      result.groups.map((g: Json) => ids(g.params)),
      [['first-gp'], [], ['other-gp']],
      "each group's params once, in its group",
    );
  });

  test('a profile imported by two hrefs is one document: its resolved groups merge too', async () => {
    const base = profile([{ href: 'catalog.json', 'include-all': {} }], { merge: { 'as-is': true } });
    const imports = [
      { href: 'base.json', ...includeIds('a-2') },
      { href: './base.json', ...includeIds('b-1', 'a-1') },
    ];
    const { catalog: result } = await resolveInMemory(profile(imports, { merge: { 'as-is': true } }), {
      'catalog.json': CAT,
      'base.json': base,
    });
    assert.equal(outline(result), '"First"{a-2 a-1} "Second"{b-1}');
  });

  test('the same document imported by two hrefs brings its loose params once, though the loader reads it twice', async () => {
    const loose = catalog({
      params: [{ id: 'loose', label: 'inserted' }],
      controls: [ctl('l-1', { parts: [{ name: 'statement', prose: '{{ insert: param, loose }}' }] }), ctl('l-2')],
    });
    const rereading: ImportLoader = async (href, base) => ({
      document: structuredClone(loose),
      base: new URL(href, base).href,
    });
    const imports = [
      { href: 'loose.json', ...includeIds('l-1') },
      { href: './loose.json', ...includeIds('l-2') },
    ];
    const result = await resolveProfile(profile(imports), { loader: rereading, base: `${MEMORY}profile.json` });
    assert.deepEqual((result.document.content.catalog as Json).params, [{ id: 'loose', label: 'inserted' }]);
  });
});
