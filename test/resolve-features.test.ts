import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { globMatcher } from '../src/oscal/resolve/glob.js';
import { resolveProfile, ResolutionError } from '../src/oscal/resolve/index.js';
import {
  catalog,
  control,
  ctl,
  ids,
  includeIds,
  KEEP,
  MEMORY,
  meta,
  outline,
  profile,
  R,
  resolveInMemory,
} from './support/resolve.js';

type Json = Record<string, any>;

const CATALOG = catalog({
  params: [
    { id: 'cat-p1', label: 'referenced loose' },
    { id: 'cat-p2', label: 'unreferenced loose', links: [{ href: `#${R(4)}`, rel: 'reference' }] },
    { id: 'cat-p3', props: [KEEP] },
  ],
  groups: [
    {
      id: 'ac',
      title: 'Access',
      params: [{ id: 'ac-gp', label: 'group param' }],
      props: [{ name: 'label', value: 'AC' }],
      controls: [
        ctl('ac-1', {
          params: [{ id: 'ac-1_prm', label: 'p' }],
          props: [
            { name: 'label', value: 'AC-1' },
            { name: 'status', value: 'draft', class: 'c1', ns: 'https://ns.test/' },
          ],
          links: [{ href: `#${R(1)}`, rel: 'reference' }],
          parts: [
            {
              id: 'ac-1_smt',
              name: 'statement',
              prose: 'Use {{ insert: param, ac-1_prm }} and {{ insert: param, cat-p1 }}.',
              parts: [{ id: 'ac-1_smt.a', name: 'item', prose: 'a' }],
            },
            { id: 'ac-1_gdn', name: 'guidance', class: 'c1', prose: 'g' },
          ],
          controls: [ctl('ac-1.1'), ctl('ac-1.2', { controls: [ctl('ac-1.2.a')] })],
        }),
        ctl('ac-2'),
        ctl('ac-10'),
      ],
    },
    {
      id: 'au',
      title: 'Audit',
      controls: [
        ctl('au-1', { links: [{ href: `#${R(2)}`, rel: 'reference' }] }),
        ctl('au-2', {
          parts: [
            {
              id: 'au-2_smt',
              name: 'statement',
              prose: 'Uses [the group param](#ac-gp-note) and {{ insert: param, ac-gp }}.',
            },
          ],
        }),
      ],
    },
    { id: 'kept', title: 'Kept always', props: [KEEP] },
  ],
  'back-matter': {
    resources: [
      { uuid: R(1), title: 'one' },
      { uuid: R(2), title: 'two' },
      { uuid: R(3), title: 'kept', props: [KEEP] },
      { uuid: R(4), title: 'only from cat-p2' },
    ],
  },
});

const resolve = (profileDoc: Json, documents: Record<string, Json> = { 'catalog.json': CATALOG }, base?: string) =>
  resolveInMemory(profileDoc, documents, base);
const rejection =
  (code: string, check: (e: ResolutionError) => void = () => {}) =>
  (e: unknown) => {
    assert.ok(e instanceof ResolutionError, String(e));
    assert.equal(e.code, code, e.message);
    check(e);
    return true;
  };

describe('import', () => {
  test('include-all takes every control, nested ones too; flat by default, group params become loose params', async () => {
    const { catalog } = await resolve(profile([{ href: 'catalog.json', 'include-all': {} }]));
    assert.equal(outline(catalog), 'ac-1 ac-1.1 ac-1.2 ac-1.2.a ac-2 ac-10 au-1 au-2');
    assert.deepEqual(
      ids(catalog.params),
      ['cat-p1', 'cat-p3', 'ac-gp'],
      'cat-p2 is referenced by nothing; cat-p3 is kept always',
    );
    assert.deepEqual(
      ids(catalog['back-matter'].resources),
      [R(1), R(2), R(3)],
      'R4 is referenced only from the pruned cat-p2',
    );
  });

  test('with-ids takes the control and its ancestors, not its descendants', async () => {
    assert.equal(
      outline((await resolve(profile([{ href: 'catalog.json', ...includeIds('ac-1.2') }]))).catalog),
      'ac-1 ac-1.2',
    );
    const asIs = await resolve(
      profile([{ href: 'catalog.json', ...includeIds('ac-1.2.a') }], { merge: { 'as-is': true } }),
    );
    assert.equal(outline(asIs.catalog), 'ac{ac-1(ac-1.2(ac-1.2.a))} kept{}');
  });

  test('with-child-controls yes takes the descendants too', async () => {
    const imports = [
      {
        href: 'catalog.json',
        'include-controls': [
          { 'with-ids': ['ac-1'], 'with-child-controls': 'yes' },
          { 'with-ids': ['au-1'], 'with-child-controls': 'no' },
        ],
      },
    ];
    assert.equal(outline((await resolve(profile(imports))).catalog), 'ac-1 ac-1.1 ac-1.2 ac-1.2.a au-1');
  });

  test('matching: glob patterns over whole ids; a pattern that matches nothing, or no pattern, is a warning', async () => {
    const star = await resolve(
      profile([{ href: 'catalog.json', 'include-controls': [{ matching: [{ pattern: 'ac-1*' }] }] }]),
    );
    assert.equal(outline(star.catalog), 'ac-1 ac-1.1 ac-1.2 ac-1.2.a ac-10');
    const mixed = await resolve(
      profile([
        {
          href: 'catalog.json',
          'include-controls': [
            { matching: [{ pattern: 'a?-[12]' }, { pattern: 'zz*' }, {}, { pattern: '[!x]u-[1-2]' }] },
          ],
        },
      ]),
    );
    assert.equal(outline(mixed.catalog), 'ac-1 ac-2 au-1 au-2');
    assert.deepEqual(mixed.warnings, [
      'no-match /profile/imports/0/include-controls/0/matching/1',
      'no-match /profile/imports/0/include-controls/0/matching/2',
    ]);
  });

  test('a glob cannot make matching hang (no backtracking regular expression)', () => {
    const many = globMatcher(`${'*a'.repeat(40)}b`);
    assert.equal(many('a'.repeat(20000)), false);
    assert.equal(many(`${'a'.repeat(50)}b`), true);
    assert.equal(globMatcher('x[a-c-]?')('x-z'), true);
    assert.equal(globMatcher('x.y')('xzy'), false);
  });

  test('exclude-controls wins over any inclusion; a control excluded without its children lets them up a level', async () => {
    const asIs = { merge: { 'as-is': true } };
    const parentOut = await resolve(
      profile([{ href: 'catalog.json', 'include-all': {}, 'exclude-controls': [{ 'with-ids': ['ac-1'] }] }], asIs),
    );
    assert.equal(outline(parentOut.catalog), 'ac{ac-1.1 ac-1.2(ac-1.2.a) ac-2 ac-10} au{au-1 au-2} kept{}');
    const withChildren = await resolve(
      profile(
        [
          {
            href: 'catalog.json',
            'include-all': {},
            'exclude-controls': [{ 'with-ids': ['ac-1'], 'with-child-controls': 'yes' }],
          },
        ],
        asIs,
      ),
    );
    assert.equal(outline(withChildren.catalog), 'ac{ac-2 ac-10} au{au-1 au-2} kept{}');
    const byPattern = await resolve(
      profile([
        {
          href: 'catalog.json',
          ...includeIds('ac-2', 'au-1'),
          'exclude-controls': [{ matching: [{ pattern: 'ac*' }] }],
        },
      ]),
    );
    assert.equal(outline(byPattern.catalog), 'au-1');
    const unknown = await resolve(profile([{ href: 'catalog.json', ...includeIds('ac-2', 'zz-1') }]));
    assert.deepEqual(unknown.warnings, ['no-match /profile/imports/0/include-controls/0/with-ids/1']);
  });

  test('several imports, of several catalogs, in order', async () => {
    const other = catalog({ controls: [ctl('x-1'), ctl('x-2')] });
    const { catalog: result } = await resolve(
      profile([
        { href: 'other.json', ...includeIds('x-2') },
        { href: 'catalog.json', ...includeIds('au-1') },
        { href: 'other.json', ...includeIds('x-1') },
      ]),
      { 'catalog.json': CATALOG, 'other.json': other },
    );
    assert.equal(outline(result), 'x-2 au-1 x-1');
  });

  test('an imported profile is resolved first, its modifications included; its warnings name it', async () => {
    const base = profile([{ href: 'catalog.json', 'include-all': {} }], {
      merge: { 'as-is': true },
      modify: {
        'set-parameters': [
          { 'param-id': 'ac-1_prm', values: ['ten'] },
          { 'param-id': 'nope', values: ['x'] },
        ],
        alters: [{ 'control-id': 'ac-2', adds: [{ props: [{ name: 'tailored', value: 'yes' }] }] }],
      },
    });
    const { catalog: result, warnings } = await resolve(
      profile([{ href: 'baseline/base.json', ...includeIds('ac-1', 'ac-2') }]),
      { 'baseline/catalog.json': CATALOG, 'baseline/base.json': base },
    );
    assert.equal(outline(result), 'ac-1 ac-2');
    assert.deepEqual(control(result, 'ac-1').params[0], { id: 'ac-1_prm', label: 'p', values: ['ten'] });
    assert.deepEqual(control(result, 'ac-2').props, [{ name: 'tailored', value: 'yes' }]);
    assert.deepEqual(warnings, [`unknown-param /profile/modify/set-parameters/1 in ${MEMORY}baseline/base.json`]);
  });

  test('a profile that imports itself, directly or through others, is an error naming the chain', async () => {
    const self = profile([{ href: 'self.json', 'include-all': {} }]);
    await assert.rejects(
      resolve(self, { 'self.json': self }, `${MEMORY}self.json`),
      rejection('circular-import', (e) => assert.deepEqual(e.chain, ['self.json'])),
    );
    const a = profile([
      { href: 'catalog.json', ...includeIds('ac-1') },
      { href: 'b.json', 'include-all': {} },
    ]);
    const b = profile([{ href: 'c.json', 'include-all': {} }]);
    const c = profile([{ href: 'a.json', 'include-all': {} }]);
    await assert.rejects(
      resolve(a, { 'catalog.json': CATALOG, 'a.json': a, 'b.json': b, 'c.json': c }, `${MEMORY}a.json`),
      rejection('circular-import', (e) => {
        assert.deepEqual(e.chain, ['b.json', 'c.json', 'a.json']);
        assert.equal(e.href, 'a.json');
      }),
    );
  });

  test('diamond imports are no loop: the profile imported along two paths is resolved once and imported twice', async () => {
    const shared = profile([{ href: 'catalog.json', ...includeIds('au-1', 'au-2') }]);
    const left = profile([{ href: 'shared.json', ...includeIds('au-1') }]);
    const right = profile([{ href: 'shared.json', ...includeIds('au-2') }]);
    const { catalog: result, loader } = await resolve(
      profile([
        { href: 'left.json', 'include-all': {} },
        { href: 'right.json', 'include-all': {} },
      ]),
      { 'catalog.json': CATALOG, 'shared.json': shared, 'left.json': left, 'right.json': right },
    );
    assert.equal(outline(result), 'au-1 au-2');
    assert.equal(
      loader.calls.filter((u) => u.endsWith('catalog.json')).length,
      1,
      "the shared profile's own import is fetched once",
    );
  });

  test("#uuid imports: the back-matter resource's rlinks in order, then its base64 content", async () => {
    const backMatter = {
      resources: [
        { uuid: R(5), rlinks: [{ href: 'missing.xml' }, { href: 'catalog.json' }] },
        {
          uuid: R(6),
          base64: {
            filename: 'c.json',
            'media-type': 'application/oscal.catalog+json',
            value: Buffer.from(JSON.stringify(catalog({ controls: [ctl('b-1')] }))).toString('base64'),
          },
        },
        { uuid: R(7), rlinks: [{ href: 'missing.xml' }] },
      ],
    };
    const { catalog: result } = await resolve(
      profile(
        [
          { href: `#${R(5)}`, ...includeIds('ac-2') },
          { href: `#${R(6)}`, 'include-all': {} },
        ],
        { 'back-matter': backMatter },
      ),
    );
    assert.equal(outline(result), 'ac-2 b-1');
    assert.equal(
      result['back-matter'].resources.some((r: Json) => r.uuid === R(5) || r.uuid === R(6)),
      false,
      'resources used only by imports are pruned',
    );
    await assert.rejects(
      resolve(profile([{ href: `#${R(7)}`, 'include-all': {} }], { 'back-matter': backMatter })),
      rejection('import-not-found', (e) => {
        assert.equal(e.href, `#${R(7)}`);
        assert.match(e.message, /none of the resource's rlinks could be found \(missing\.xml\)/);
      }),
    );
    await assert.rejects(
      resolve(profile([{ href: `#${R(1)}`, 'include-all': {} }], { 'back-matter': backMatter })),
      rejection('import-not-found', (e) => assert.match(e.message, /no resource with uuid/)),
    );
  });

  test('loader failures and documents that are no catalog or profile are typed errors naming the import', async () => {
    const ssp = { 'system-security-plan': { uuid: R(1), metadata: meta('SSP') } };
    await assert.rejects(
      resolve(profile([{ href: 'ssp.json', 'include-all': {} }]), { 'ssp.json': ssp }),
      rejection('not-a-catalog-or-profile', (e) => assert.equal(e.href, 'ssp.json')),
    );
    const failing = async () => {
      throw new Error('disk on fire');
    };
    await assert.rejects(
      resolveProfile(profile([{ href: 'x.json', 'include-all': {} }]), { loader: failing }),
      rejection('import-not-readable', (e) => {
        assert.equal(e.href, 'x.json');
        assert.match(e.message, /disk on fire/);
      }),
    );
    await assert.rejects(
      resolve(
        profile([
          { href: 'catalog.json', 'include-all': {} },
          { href: 'gone.json', 'include-all': {} },
        ]),
      ),
      rejection('import-not-found', (e) => assert.equal(e.href, 'gone.json')),
    );
    const junk = async () => ({}) as never;
    await assert.rejects(
      resolveProfile(profile([{ href: 'x.json', 'include-all': {} }]), { loader: junk }),
      rejection('import-not-readable'),
    );
    await assert.rejects(
      resolve(profile([{ href: 'bare.json', 'include-all': {} }]), { 'bare.json': { catalog: { uuid: R(1) } } }),
      rejection('import-not-readable', (e) => assert.match(e.message, /no metadata\/oscal-version/)),
    );
  });
});

describe('merge', () => {
  const twice = [
    { href: 'catalog.json', ...includeIds('ac-2') },
    { href: 'catalog.json', 'include-all': {} },
  ];

  test('combine use-first keeps the first control with an id, in depth-first import order', async () => {
    const flat = await resolve(profile(twice, { merge: { combine: { method: 'use-first' } } }));
    assert.equal(outline(flat.catalog), 'ac-2 ac-1 ac-1.1 ac-1.2 ac-1.2.a ac-10 au-1 au-2');
    assert.deepEqual(flat.warnings, []);
    const asIs = await resolve(profile(twice, { merge: { combine: { method: 'use-first' }, 'as-is': true } }));
    assert.equal(
      outline(asIs.catalog),
      'ac{ac-2 ac-1(ac-1.1 ac-1.2(ac-1.2.a)) ac-10} kept{} au{au-1 au-2}',
      'a merged group stays where it first appeared',
    );
  });

  test('combine keep (the default) keeps every copy, and warns', async () => {
    for (const merge of [undefined, { combine: { method: 'keep' } }]) {
      const { catalog: result, warnings } = await resolve(profile(twice, merge ? { merge } : {}));
      assert.equal(outline(result), 'ac-2 ac-1 ac-1.1 ac-1.2 ac-1.2.a ac-2 ac-10 au-1 au-2');
      assert.deepEqual(warnings, ['duplicate-control /profile/imports/1']);
    }
  });

  test('as-is keeps the structure: a group several imports bring appears once, with its own content', async () => {
    const { catalog: result } = await resolve(
      profile(
        [
          { href: 'catalog.json', ...includeIds('au-2') },
          { href: 'catalog.json', ...includeIds('ac-2', 'au-1') },
        ],
        { merge: { 'as-is': true } },
      ),
    );
    assert.equal(outline(result), 'au{au-2 au-1} kept{} ac{ac-2}');
    const ac = result.groups.find((g: Json) => g.id === 'ac');
    assert.deepEqual(ac.params, [{ id: 'ac-gp', label: 'group param' }], 'a group in the result keeps its params');
    assert.deepEqual(
      ids(result.params),
      ['cat-p3'],
      'cat-p1 is referenced from no included control, and ac-gp is in its group',
    );
  });

  test('more than one structuring directive is an error', async () => {
    await assert.rejects(
      resolve(profile([{ href: 'catalog.json', 'include-all': {} }], { merge: { flat: {}, 'as-is': true } })),
      rejection('invalid-profile'),
    );
  });

  test('custom: declared groups, insert-controls with ids, patterns, orders, nesting and exclusions; imported group content', async () => {
    const custom = {
      groups: [
        {
          id: 'ac',
          title: 'Custom AC',
          props: [{ name: 'label', value: 'mine' }],
          'insert-controls': [
            { order: 'descending', 'include-controls': [{ matching: [{ pattern: 'ac-?' }, { pattern: 'ac-1?' }] }] },
          ],
        },
        {
          id: 'new',
          title: 'New',
          groups: [
            {
              id: 'sub',
              title: 'Sub',
              'insert-controls': [
                {
                  'include-controls': [{ 'with-ids': ['ac-1'], 'with-child-controls': 'yes' }],
                  'exclude-controls': [{ 'with-ids': ['ac-1.1'] }],
                },
              ],
            },
          ],
        },
        { id: 'none', title: 'Nothing', 'insert-controls': [{ 'include-controls': [{ 'with-ids': ['zz-9'] }] }] },
      ],
      'insert-controls': [
        { order: 'ascending', 'include-controls': [{ 'with-ids': ['au-2', 'au-1'] }] },
        { order: 'keep', 'include-controls': [{ 'with-ids': ['ac-10', 'ac-2'] }] },
      ],
    };
    const { catalog: result, warnings } = await resolve(
      profile([{ href: 'catalog.json', 'include-all': {} }], { merge: { custom } }),
    );
    assert.equal(outline(result), 'au-1 au-2 ac-2 ac-10 ac{ac-2 ac-10 ac-1} new{sub{ac-1(ac-1.2(ac-1.2.a))}} none{}');
    const ac = result.groups[0];
    assert.equal(ac.title, 'Custom AC');
    assert.deepEqual(ac.params, [{ id: 'ac-gp', label: 'group param' }]);
    assert.deepEqual(ac.props, [
      { name: 'label', value: 'AC' },
      { name: 'label', value: 'mine' },
    ]);
    assert.deepEqual(ids(result.params), ['cat-p1', 'cat-p3']);
    assert.deepEqual(warnings, [
      'no-match /profile/merge/custom/groups/2/insert-controls/0/include-controls/0/with-ids/0',
    ]);
  });

  test('custom: include-all inserts every control as imported (order keep), nested ones under their parents', async () => {
    const custom = {
      groups: [
        {
          id: 'all',
          title: 'All',
          'insert-controls': [{ 'include-all': {}, 'exclude-controls': [{ 'with-ids': ['ac-1.2'] }] }],
        },
      ],
    };
    const { catalog: result } = await resolve(
      profile([{ href: 'catalog.json', 'include-all': {} }], { merge: { custom } }),
    );
    assert.equal(outline(result), 'all{ac-1(ac-1.1) ac-1.2.a ac-2 ac-10 au-1 au-2}');
  });
});

describe('modify', () => {
  test('set-parameter replaces label, values or select, class, usage; adds props, links, constraints, guidelines; in sequence', async () => {
    const modify = {
      'set-parameters': [
        {
          'param-id': 'ac-1_prm',
          label: 'new label',
          values: ['v1'],
          props: [{ name: 'x', value: '1' }],
          constraints: [{ description: 'c' }],
        },
        { 'param-id': 'ac-1_prm', select: { choice: ['a', 'b'] }, props: [{ name: 'y', value: '2' }] },
        { 'param-id': 'cat-p2', label: 'set' },
        { 'param-id': 'nope', label: 'x' },
      ],
    };
    const { catalog: result, warnings } = await resolve(
      profile([{ href: 'catalog.json', ...includeIds('ac-1') }], { modify }),
    );
    const param = control(result, 'ac-1').params[0];
    assert.deepEqual(param, {
      id: 'ac-1_prm',
      props: [
        { name: 'x', value: '1' },
        { name: 'y', value: '2' },
      ],
      label: 'new label',
      constraints: [{ description: 'c' }],
      select: { choice: ['a', 'b'] },
    });
    assert.deepEqual(Object.keys(param), ['id', 'props', 'label', 'constraints', 'select'], 'canonical order');
    assert.deepEqual(
      result.params,
      [
        { id: 'cat-p1', label: 'referenced loose' },
        { id: 'cat-p2', label: 'set', links: [{ href: `#${R(4)}`, rel: 'reference' }] },
        { id: 'cat-p3', props: [KEEP] },
      ],
      'a param the profile sets is kept',
    );
    assert.deepEqual(ids(result['back-matter'].resources), [R(1), R(3), R(4)], 'so is what it references');
    assert.deepEqual(warnings, ['unknown-param /profile/modify/set-parameters/3']);
  });

  test('alter add in every position, with and without by-id', async () => {
    const adds = [
      { position: 'starting', props: [{ name: 'first', value: '1' }] },
      { parts: [{ name: 'end', prose: 'e' }] },
      { position: 'before', links: [{ href: '#x', rel: 'a' }] },
      { position: 'after', params: [{ id: 'new-p' }] },
      { title: 'Renamed' },
      { position: 'starting', 'by-id': 'ac-1_smt', props: [{ name: 'in', value: 's' }] },
      { position: 'ending', 'by-id': 'ac-1_smt', parts: [{ id: 'sub-z', name: 'item', prose: 'z' }] },
      { position: 'before', 'by-id': 'ac-1_smt.a', parts: [{ id: 'sub-0', name: 'item', prose: '0' }] },
      {
        position: 'after',
        'by-id': 'ac-1_gdn',
        parts: [{ name: 'after-gdn', prose: 'x' }],
        props: [{ name: 'beside', value: 'b' }],
      },
      {
        position: 'ending',
        'by-id': 'ac-1_prm',
        props: [{ name: 'on-param', value: 'p' }],
        parts: [{ name: 'nope', prose: 'n' }],
      },
      { position: 'before', 'by-id': 'ac-1_prm', params: [{ id: 'before-p' }] },
      { position: 'starting', 'by-id': 'ac-1' },
      { 'by-id': 'missing', props: [{ name: 'lost', value: 'l' }] },
    ];
    const { catalog: result, warnings } = await resolve(
      profile([{ href: 'catalog.json', ...includeIds('ac-1') }], {
        modify: { alters: [{ 'control-id': 'ac-1', adds }] },
      }),
    );
    const ac1 = control(result, 'ac-1');
    assert.equal(ac1.title, 'Renamed');
    assert.deepEqual(ac1.params, [
      { id: 'before-p' },
      { id: 'ac-1_prm', props: [{ name: 'on-param', value: 'p' }], label: 'p' },
      { id: 'new-p' },
    ]);
    assert.deepEqual(
      ac1.props.map((p: Json) => p.name),
      ['first', 'label', 'status', 'beside'],
    );
    assert.deepEqual(
      ac1.links.map((l: Json) => l.href),
      ['#x', `#${R(1)}`],
    );
    assert.deepEqual(
      ac1.parts.map((p: Json) => p.id ?? p.name),
      ['ac-1_smt', 'ac-1_gdn', 'after-gdn', 'end'],
    );
    const smt = ac1.parts[0];
    assert.deepEqual(smt.props, [{ name: 'in', value: 's' }]);
    assert.deepEqual(
      smt.parts.map((p: Json) => p.id),
      ['sub-0', 'ac-1_smt.a', 'sub-z'],
    );
    assert.deepEqual(Object.keys(ac1), ['id', 'title', 'params', 'props', 'links', 'parts']);
    assert.deepEqual(warnings, [
      'inoperative-alter /profile/modify/alters/0/adds/9',
      'inoperative-alter /profile/modify/alters/0/adds/11',
      'inoperative-alter /profile/modify/alters/0/adds/12',
    ]);
  });

  test('alter add reaches nested controls, through the parent and directly', async () => {
    const alters = [
      {
        'control-id': 'ac-1',
        adds: [
          { 'by-id': 'ac-1.2.a', props: [{ name: 'via-parent', value: 'p' }] },
          { position: 'after', 'by-id': 'ac-1.1', controls: undefined, params: [{ id: 'not-here' }] },
        ],
      },
      { 'control-id': 'ac-1.2', adds: [{ props: [{ name: 'direct', value: 'd' }] }] },
    ];
    const { catalog: result, warnings } = await resolve(
      profile(
        [{ href: 'catalog.json', 'include-controls': [{ 'with-ids': ['ac-1'], 'with-child-controls': 'yes' }] }],
        { merge: { 'as-is': true }, modify: { alters } },
      ),
    );
    assert.deepEqual(control(result, 'ac-1.2.a').props, [{ name: 'via-parent', value: 'p' }]);
    assert.deepEqual(control(result, 'ac-1.2').props, [{ name: 'direct', value: 'd' }]);
    assert.deepEqual(
      ids(control(result, 'ac-1').params),
      ['ac-1_prm', 'not-here'],
      "a param beside a child control goes to the parent's params",
    );
    assert.deepEqual(warnings, []);
  });

  test('alter remove by id, name, class, ns (explicit and default), item name; every criterion must match', async () => {
    const removes = [
      { 'by-id': 'ac-1_smt.a' },
      { 'by-class': 'c1', 'by-item-name': 'part' },
      { 'by-ns': 'https://ns.test/' },
      { 'by-ns': 'http://csrc.nist.gov/ns/oscal', 'by-name': 'label' },
      { 'by-item-name': 'link' },
      { 'by-name': 'nothing' },
      { 'by-item-name': 'control' },
    ];
    const { catalog: result, warnings } = await resolve(
      profile(
        [{ href: 'catalog.json', 'include-controls': [{ 'with-ids': ['ac-1'], 'with-child-controls': 'yes' }] }],
        {
          merge: { 'as-is': true },
          modify: {
            alters: [
              { 'control-id': 'ac-1', removes },
              { 'control-id': 'zz-1', removes: [{ 'by-name': 'x' }] },
            ],
          },
        },
      ),
    );
    assert.deepEqual(control(result, 'ac-1'), {
      id: 'ac-1',
      title: 'Control ac-1',
      params: [{ id: 'ac-1_prm', label: 'p' }],
      parts: [
        {
          id: 'ac-1_smt',
          name: 'statement',
          prose: 'Use {{ insert: param, ac-1_prm }} and {{ insert: param, cat-p1 }}.',
        },
      ],
    });
    assert.deepEqual(ids(result['back-matter'].resources), [R(3)], 'the removed link no longer keeps its resource');
    assert.deepEqual(warnings, [
      'inoperative-alter /profile/modify/alters/0/removes/5',
      'inoperative-alter /profile/modify/alters/1',
    ]);
  });
});

describe('finishing', () => {
  test('back-matter: imports in order, then the profile; a later uuid replaces an earlier one unless that one is kept always', async () => {
    const linked = (...uuids: number[]) => ({
      controls: [ctl(`c-${uuids.join('')}`, { links: uuids.map((n) => ({ href: `#${R(n)}`, rel: 'reference' })) })],
    });
    const a = catalog({
      ...linked(1, 2),
      'back-matter': {
        resources: [
          { uuid: R(1), title: 'A1' },
          { uuid: R(2), title: 'A2', props: [KEEP] },
        ],
      },
    });
    const b = catalog({
      ...linked(5),
      'back-matter': {
        resources: [
          { uuid: R(1), title: 'B1' },
          { uuid: R(2), title: 'B2' },
          { uuid: R(5), title: 'B5' },
          { uuid: R(6), title: 'B6 unreferenced' },
        ],
      },
    });
    const own = {
      resources: [
        { uuid: R(5), title: 'P5' },
        { uuid: R(7), title: 'P7', props: [KEEP] },
      ],
    };
    const { catalog: result } = await resolve(
      profile(
        [
          { href: 'a.json', 'include-all': {} },
          { href: 'b.json', 'include-all': {} },
        ],
        { 'back-matter': own },
      ),
      { 'a.json': a, 'b.json': b },
    );
    assert.deepEqual(
      result['back-matter'].resources.map((r: Json) => r.title),
      ['A2', 'B1', 'P5', 'P7'],
    );
  });

  test('oscal-version: the newest of the profile and its imports; different major versions stop', async () => {
    assert.equal(
      (await resolve(profile([{ href: 'catalog.json', ...includeIds('ac-2') }], {}, '1.0.0'))).version,
      '1.1.2',
    );
    const future = catalog({ controls: [ctl('f-1')] }, '2.0.0');
    await assert.rejects(
      resolve(profile([{ href: 'f.json', 'include-all': {} }]), { 'f.json': future }),
      rejection('version-mismatch', (e) => assert.equal(e.href, 'f.json')),
    );
  });

  test('metadata: roles and parties kept always come from the imports; resolution-tool and source-profile are replaced', async () => {
    const party = { uuid: R(5), type: 'person', name: 'Keeper', props: [KEEP] };
    const withPeople = {
      ...CATALOG,
      catalog: {
        ...CATALOG.catalog,
        metadata: {
          ...meta('Catalog'),
          roles: [
            { id: 'keeper', title: 'K', props: [KEEP] },
            { id: 'other', title: 'O' },
          ],
          parties: [party, { uuid: R(6), type: 'person', name: 'Other' }],
        },
      },
    };
    const p = profile([{ href: 'catalog.json', ...includeIds('ac-2') }]);
    p.profile.metadata = {
      ...p.profile.metadata,
      props: [
        { name: 'resolution-tool', value: 'old' },
        { name: 'marking', value: 'x' },
      ],
      links: [{ href: 'old', rel: 'source-profile' }],
      roles: [{ id: 'keeper', title: 'Profile keeper' }],
    } as any;
    const { catalog: result } = await resolve(p, { 'catalog.json': withPeople });
    assert.deepEqual(result.metadata.roles, [{ id: 'keeper', title: 'Profile keeper' }]);
    assert.deepEqual(result.metadata.parties, [party]);
    assert.deepEqual(result.metadata.props, [
      { name: 'marking', value: 'x' },
      { name: 'resolution-tool', value: 'oscal-depot' },
    ]);
    assert.deepEqual(result.metadata.links, [{ href: `${MEMORY}profile.json`, rel: 'source-profile' }]);
  });

  test('the result shares no object with the (frozen) inputs and is in canonical order', async () => {
    const { catalog: result } = await resolve(
      profile([{ href: 'catalog.json', 'include-all': {} }], { merge: { 'as-is': true } }),
    );
    assert.equal(Object.isFrozen(control(result, 'ac-1').parts[0]), false);
    assert.deepEqual(Object.keys(result), ['uuid', 'metadata', 'params', 'groups', 'back-matter']);
    assert.deepEqual(Object.keys(result.groups[0]), ['id', 'title', 'params', 'props', 'controls']);
  });
});
