// The document views of the web interface, called directly (no server, no browser): the 800-53
// catalog's tree, parameters and links; every NIST example of every model; hostile documents whose
// text, props, markup and hrefs carry script, which must reach the page as visible text only.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { escapeHtml } from '../src/http/web/html.js';
import { documentView } from '../src/http/web/views/document.js';
import { markupLine, markupMultiline, renderMarkdown } from '../src/http/web/views/markup.js';
import { MODELS, type ModelName } from '../src/oscal/model/models.js';
import { SUPPORTED_VERSIONS } from '../src/oscal/model/versions.js';
import { CONTENT, filesUnder, PROJECT_ROOT, REV5_A849, SHARED, shortName } from './support/shared.js';

const CATALOG_800_53 = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');

/**
 * The page with the layout whitespace of its templates (Prettier formats them as HTML) taken out,
 * so that assertions can name exact markup.
 */
function render(content: Record<string, any>): string {
  const model = Object.keys(content)[0] as ModelName;
  const page = documentView({ model, content }).body.text;
  return page.replace(/\s+/g, ' ').replace(/ >/g, '>').replace(/> </g, '><');
}

function read(path: string): Record<string, any> {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Every control id of a catalog, enhancements included. */
function controlIds(owner: Record<string, any>): string[] {
  const ids: string[] = [];
  for (const group of owner['groups'] ?? []) ids.push(...controlIds(group));
  for (const control of owner['controls'] ?? []) ids.push(control.id, ...controlIds(control));
  return ids;
}

function article(page: string, id: string): string {
  const start = page.search(new RegExp(`<article class="control( withdrawn)?" id="control-${id.replace('.', '\\.')}"`));
  assert.ok(start >= 0, `no article for ${id}`);
  return page.slice(start, page.indexOf('</article>', start));
}

const textOf = (fragment: string): string => fragment.replace(/<[^>]*>/g, '');

describe('the 800-53 rev5 catalog', () => {
  const content = read(CATALOG_800_53);
  const page = render(content);

  test('the tree and the text hold every control, enhancements included', () => {
    const ids = controlIds(content['catalog']);
    assert.ok(ids.length > 1000, `${ids.length} controls`);
    const tree = page.slice(page.indexOf('<nav class="catalog-tree"'), page.indexOf('</nav>'));
    for (const id of ids) {
      assert.ok(tree.includes(`<li data-control="${id}"><a href="#control-${id}">`), `tree entry of ${id}`);
      assert.ok(page.includes(`id="control-${id}" data-control="${id}"`), `article of ${id}`);
    }
  });

  test("ac-1's statement shows its parameters inline, never the raw insert", () => {
    const ac1 = textOf(article(page, 'ac-1'));
    assert.match(ac1, /disseminate to \[Assignment: organization-defined personnel or roles\]:/);
    assert.match(
      ac1,
      /\[Selection \(one or more\): Organization-level; Mission\/business process-level; System-level\]/,
    );
    assert.ok(!page.includes('{{'), 'no raw insert anywhere');
  });

  test('related controls and references link within the page', () => {
    const ac1 = article(page, 'ac-1');
    assert.ok(ac1.includes('<a href="#control-ia-1">IA-1</a>'));
    assert.ok(ac1.includes('<a href="#resource-27847491-5ce1-4f6a-a1e4-9e483782f0ef">OMB A-130</a>'));
    assert.ok(page.includes('<li class="resource" id="resource-27847491-5ce1-4f6a-a1e4-9e483782f0ef">'));
  });

  test('withdrawn controls are marked', () => {
    assert.match(article(page, 'ac-2.10'), /class="control withdrawn"|<span class="badge">Withdrawn<\/span>/);
  });

  test('the page names the filter script and the style sheet, which exist, and the filter has its hooks', () => {
    const view = documentView({ model: 'catalog', content });
    assert.deepEqual(view.scripts, ['catalog-filter.js']);
    assert.deepEqual(view.styles, ['document.css']);
    for (const name of [...view.scripts, ...view.styles])
      assert.ok(existsSync(join(PROJECT_ROOT, 'web', 'assets', name)));
    assert.match(page, /<label for="catalog-filter">/);
    assert.match(page, /<input id="catalog-filter" type="search"/);
    assert.match(page, /id="catalog-filter-count"[^>]*aria-live="polite"/);
    assert.match(page, /<div class="catalog-text" id="catalog-text">/);
  });
});

describe('every NIST JSON document renders, with its title', () => {
  const files = [...filesUnder(CONTENT, '.json'), ...filesUnder(join(SHARED, 'profile-resolution'), '.json')];
  test('there are documents of every model', () => {
    const models = new Set(files.map((f) => Object.keys(read(f))[0]));
    for (const m of ['catalog', 'profile', 'component-definition', 'system-security-plan', 'assessment-plan']) {
      assert.ok(models.has(m), m);
    }
    assert.ok(models.has('assessment-results') && models.has('plan-of-action-and-milestones'));
  });
  for (const file of files) {
    test(shortName(file), () => {
      const content = read(file);
      const root = Object.values(content)[0] as Record<string, any>;
      const page = render(content);
      const h1 = page.slice(page.indexOf('<h1>'), page.indexOf('</h1>'));
      const title = String(root['metadata']['title']).replace(/[*_`]/g, '');
      assert.ok(escapeHtml(title) !== '' && textOf(h1).includes(escapeHtml(title)), `title ${title}`);
    });
  }
});

test('a minimal document of every model and release renders, as does one of an unknown release', () => {
  for (const model of MODELS) {
    for (const version of [...SUPPORTED_VERSIONS, '9.9.9']) {
      const metadata = {
        'title': `A ${model}`,
        'last-modified': '2024-01-01T00:00:00Z',
        version,
        'oscal-version': version,
      };
      const extra = {
        'local-definitions': { remarks: '*r*' },
        'findings': [{ uuid: 'u', title: 'F', remarks: '*r*' }],
      };
      const page = render({ [model]: { uuid: '88888888-8888-4888-8888-888888888888', metadata, ...extra } });
      assert.ok(page.includes(`<h1>A ${model}</h1>`), `${model} ${version}`);
      // The catalog view shows a catalog's own parts only; other views show every section.
      if (model !== 'catalog') assert.ok(page.includes('<em>r</em>'), `${model} ${version}: remarks as markup`);
    }
  }
});

describe('the SSP shows its sections under readable headings', () => {
  test('system characteristics, components and implemented requirements', () => {
    const page = render(read(join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json')));
    assert.match(page, /<h2>System characteristics<\/h2>/);
    assert.match(page, /<h3>Components<\/h3>/);
    assert.match(page, /<h2>Control implementation<\/h2>/);
    assert.match(page, /<h4>Control [a-z]{2}-\d+/);
    // a by-component names its component rather than only its uuid
    assert.match(page, /<h\d>Logging Server <span class="uuid">/);
  });
});

describe('a profile', () => {
  const profile = {
    profile: {
      'uuid': '55555555-5555-4555-8555-555555555555',
      'metadata': {
        'title': 'Tailored',
        'last-modified': '2024-01-01T00:00:00Z',
        'version': '1',
        'oscal-version': '1.1.2',
      },
      'imports': [
        {
          'href': '#66666666-6666-4666-8666-666666666666',
          'include-controls': [{ 'with-ids': ['ac-1', 'ac-2'] }],
          'exclude-controls': [{ matching: [{ pattern: 'ac-2.*' }] }],
        },
      ],
      'merge': { 'as-is': true },
      'modify': {
        'set-parameters': [
          { 'param-id': 'ac-1_prm_1', 'values': ['the CISO'] },
          { 'param-id': 'ac-1_prm_2', 'select': { 'how-many': 'one', 'choice': ['*monthly*', 'yearly'] } },
        ],
        'alters': [
          {
            'control-id': 'ac-1',
            'removes': [{ 'by-name': 'guidance' }],
            'adds': [{ 'position': 'ending', 'parts': [{ name: 'guidance', prose: 'Added **text**.' }] }],
          },
        ],
      },
      'back-matter': { resources: [{ uuid: '66666666-6666-4666-8666-666666666666', title: 'The catalog' }] },
    },
  };

  test('imports, parameters set and alterations are shown', () => {
    const page = render(profile);
    assert.ok(
      page.includes('<h3>Import <a href="#resource-66666666-6666-4666-8666-666666666666">The catalog</a></h3>'),
    );
    assert.ok(page.includes('Controls <code>ac-1</code>, <code>ac-2</code>'));
    assert.ok(page.includes('Matching <code>ac-2.*</code>'));
    assert.match(page, /<td><code>ac-1_prm_1<\/code><\/td><td>the CISO<\/td>/);
    assert.ok(page.includes('One of: <em>monthly</em>; yearly'));
    assert.ok(page.includes('Remove By name <code>guidance</code>'));
    assert.ok(page.includes('<p>Added <strong>text</strong>.</p>'));
  });

  test('the NIST baselines render their imports', () => {
    const file = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_LOW-baseline_profile.json');
    assert.match(render(read(file)), /<h3>Import <a href="NIST_SP-800-53_rev5_catalog.xml">/);
  });
});

const SCRIPT = '<script>alert(1)</script>';
const HOSTILE_HREFS = [
  'javascript:alert(1)',
  'java\nscript:alert(1)',
  ' JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
];
const ATTRIBUTE = '"><svg onload=alert(1)>';
const RAW_HTML = '<img src=x onerror=alert(1)>';
const MARKDOWN =
  `${SCRIPT} and ${RAW_HTML} and [click](javascript:alert(1)) and [x](data:text/html,a) ` +
  `and ![i](javascript:alert(1)) and {{ insert: param, nowhere }}\n\n| a | b |\n|:--|--:|\n| ${RAW_HTML} | c |`;

const props = [
  { name: 'label', value: ATTRIBUTE },
  { name: SCRIPT, value: SCRIPT, class: ATTRIBUTE },
];
const links = HOSTILE_HREFS.map((href) => ({ href, rel: ATTRIBUTE, text: SCRIPT }));
const metadata = {
  'title': `${SCRIPT} ${ATTRIBUTE}`,
  'last-modified': '2024-01-01T00:00:00Z',
  'version': SCRIPT,
  'oscal-version': '1.1.2',
  'props': props,
  'links': links,
  'roles': [{ id: 'r', title: SCRIPT }],
  'parties': [
    {
      'uuid': '11111111-1111-4111-8111-111111111111',
      'type': 'person',
      'name': SCRIPT,
      'email-addresses': [ATTRIBUTE],
    },
  ],
  'remarks': MARKDOWN,
};
const backMatter = {
  resources: [
    {
      uuid: '22222222-2222-4222-8222-222222222222',
      title: SCRIPT,
      description: MARKDOWN,
      rlinks: HOSTILE_HREFS.map((href) => ({ href })),
    },
  ],
};

const HOSTILE_CATALOG = {
  catalog: {
    'uuid': '33333333-3333-4333-8333-333333333333',
    metadata,
    'params': [{ id: 'cat_prm', label: SCRIPT, select: { choice: [SCRIPT, RAW_HTML] } }],
    'groups': [
      {
        id: ATTRIBUTE,
        title: SCRIPT,
        props,
        controls: [
          {
            id: ATTRIBUTE,
            title: `${SCRIPT} ${RAW_HTML}`,
            params: [{ id: 'p1', label: SCRIPT, values: [ATTRIBUTE] }],
            props,
            links: [...links, { href: `#${ATTRIBUTE}`, rel: 'related' }],
            parts: [
              {
                id: ATTRIBUTE,
                name: ATTRIBUTE,
                props,
                prose: `${MARKDOWN} {{ insert: param, p1 }} {{ insert: param, cat_prm }}`,
                parts: [{ name: 'item', title: SCRIPT, prose: MARKDOWN }],
              },
            ],
          },
        ],
      },
    ],
    'back-matter': backMatter,
  },
};

const HOSTILE_SSP = {
  'system-security-plan': {
    uuid: '44444444-4444-4444-8444-444444444444',
    metadata,
    'import-profile': { href: 'javascript:alert(1)' },
    'system-characteristics': {
      'system-name': SCRIPT,
      'description': MARKDOWN,
      props,
      links,
      'system-ids': [{ 'identifier-type': 'java\nscript:alert(1)', id: SCRIPT }],
      'status': { state: ATTRIBUTE },
      [ATTRIBUTE]: { [SCRIPT]: MARKDOWN },
    },
    'control-implementation': {
      'description': MARKDOWN,
      'implemented-requirements': [
        {
          'uuid': ATTRIBUTE,
          'control-id': SCRIPT,
          'by-components': [{ 'component-uuid': SCRIPT, 'uuid': ATTRIBUTE, 'description': MARKDOWN, links }],
        },
      ],
    },
    'back-matter': backMatter,
  },
};

const ATTRIBUTES = /\s([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;

const HOSTILE_PROFILE = {
  profile: {
    'uuid': '77777777-7777-4777-8777-777777777777',
    metadata,
    'imports': HOSTILE_HREFS.map((href) => ({ href, 'include-controls': [{ 'with-ids': [ATTRIBUTE, SCRIPT] }] })),
    'modify': {
      'set-parameters': [
        { 'param-id': ATTRIBUTE, 'values': [SCRIPT], 'label': MARKDOWN, 'select': { choice: [RAW_HTML] } },
      ],
      'alters': [
        {
          'control-id': ATTRIBUTE,
          'removes': [{ 'by-name': SCRIPT }],
          'adds': [{ 'position': ATTRIBUTE, 'by-id': SCRIPT, 'title': SCRIPT, 'props': props, 'links': links }],
        },
      ],
    },
    'back-matter': backMatter,
  },
};

/** What the page may not hold: script elements, event handlers, styles, script or data URLs as targets. */
function assertHarmless(page: string): void {
  assert.ok(!/<script/i.test(page));
  for (const [tag] of page.matchAll(/<[a-z][^>]*>/gi)) {
    assert.doesNotMatch(tag, /^<(script|svg|img|iframe|object|embed|style|math|base|form)\b/i, tag);
    for (const [, name, quoted] of tag.matchAll(ATTRIBUTES)) {
      assert.doesNotMatch(name!, /^(on[a-z]+|style|src|srcset)$/i, tag);
      const value = (quoted ?? '').replace(/^["']|["']$/g, '');
      if (name === 'href') assert.doesNotMatch(value, /^\s*(javascript|java\s|vbscript|data):/i, tag);
    }
  }
}

describe('hostile documents reach the page as text only', () => {
  for (const [name, content] of [
    ['catalog', HOSTILE_CATALOG],
    ['system security plan', HOSTILE_SSP],
    ['profile', HOSTILE_PROFILE],
  ] as const) {
    test(`a ${name}`, () => {
      const page = render(content);
      assertHarmless(page);
      // The text is still there for a reader, escaped.
      assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt;'));
      assert.ok(page.includes('&quot;&gt;&lt;svg onload=alert(1)&gt;'));
      // An unsafe link is shown as its text, without a target.
      assert.ok(page.includes('javascript:alert(1)') || page.includes('click'));
    });
  }

  test('Markdown links and images with unsafe targets become their text; safe ones stay links', () => {
    const out = markupMultiline('[a](javascript:x) [b](https://example.org/) ![c](data:image/png,x) [d](#ac-2)').text;
    assert.equal(out, '<p>a <a href="https://example.org/">b</a> c <a href="#ac-2">d</a></p>');
  });

  test('a table keeps no alignment style, raw HTML stays text, an unknown parameter is marked', () => {
    const out = markupMultiline('| a |\n|:-:|\n| <b>x</b> |\n\n{{ insert: param, p-9 }}').text;
    assert.ok(!out.includes('style='));
    assert.ok(out.includes('&lt;b&gt;x&lt;/b&gt;'));
    assert.ok(out.includes('<span class="insert-unknown" title="param">p-9</span>'));
  });

  test('sub, sup, quotes, emphasis and code', () => {
    assert.equal(
      markupLine('H~2~O x^2^ "q" *e* **s** `c<`').text,
      'H<sub>2</sub>O x<sup>2</sup> <q>q</q> <em>e</em> <strong>s</strong> <code>c&lt;</code>',
    );
  });
});

describe('the fast path for plain text', () => {
  test('gives what markdown-it gives', () => {
    const text = fc.stringMatching(/^[ a-zA-Z0-9.,;:()'!?#+=\-/\t]{0,30}$/);
    fc.assert(
      fc.property(text, (t) => {
        assert.equal(markupLine(t).text, renderMarkdown(t, false, {}).text);
        assert.equal(markupMultiline(t).text, renderMarkdown(t, true, {}).text);
      }),
      { numRuns: 2000 },
    );
  });
});
