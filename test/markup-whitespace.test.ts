/**
 * Whitespace in markup is content: generated text with runs of spaces, tabs, and spaces at its
 * edges, in every markup context, survives both conversions. JSON -> XML -> JSON gives the same
 * Markdown, and the XML read back from that Markdown holds the same text as the XML it came from.
 * Line breaks are the XML's layout or Markdown's soft breaks (docs/decisions/0007-markup-whitespace.md).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { markdownToXml, markupToMarkdown, type MarkupNode } from '../src/oscal/markup/index.js';
import { readMarkupFragment } from './support/markup-fragment.js';

const RUNS = { numRuns: 300 };

/** Words with runs of spaces and tabs between them and at either end. */
const spaced = fc
  .tuple(
    fc.stringMatching(/^[ \t]{0,4}$/),
    fc.array(fc.tuple(fc.stringMatching(/^[a-z0-9.,;:'()-]{1,6}$/), fc.stringMatching(/^[ \t]{1,5}$/)), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map(([lead, words]) => lead + words.map(([w, ws]) => w + ws).join(''))
  .chain((text) => fc.boolean().map((trailing) => (trailing ? text : text.replace(/[ \t]+$/, ''))));

/** Where text can stand, in markup-line and markup-multiline. */
const LINE_CONTEXTS: Record<string, (t: string) => string> = {
  'markup-line': (t) => t,
  'markup-line, emphasis': (t) => `x <em>${t}</em> y`,
  'markup-line, strong at the start': (t) => `<strong>${t}</strong> and ${t}`,
  'markup-line, after an insert': (t) => `<insert type="param" id-ref="p1"/>${t}`,
};
const MULTILINE_CONTEXTS: Record<string, (t: string) => string> = {
  paragraph: (t) => `<p>${t}</p>`,
  'two paragraphs': (t) => `<p>${t}</p><p>${t}</p>`,
  'paragraph, emphasis': (t) => `<p>x <em>${t}</em> y <strong>${t}</strong></p>`,
  'list items': (t) => `<ul><li>${t}</li><li>${t}</li></ul>`,
  'ordered list item': (t) => `<ol><li>${t}</li></ol>`,
  'nested list': (t) => `<ul><li>${t}<ul><li>${t}</li></ul></li></ul>`,
  'table cells': (t) => `<table><tr><th>${t}</th><th>h</th></tr><tr><td>${t}</td><td>${t}</td></tr></table>`,
  heading: (t) => `<h2>${t}</h2>`,
  'link text': (t) => `<p>see <a href="#x">${t}</a></p>`,
};

/** All text of markup in document order: moving whitespace across an element edge does not change it. */
function textOf(nodes: MarkupNode[]): string {
  return nodes.map((n) => (typeof n === 'string' ? n : textOf(n.children))).join('');
}

function check(xml: string, multiline: boolean): void {
  const markdown = markupToMarkdown(readMarkupFragment(xml), multiline);
  const back = markdownToXml(markdown, multiline);
  assert.equal(
    markupToMarkdown(readMarkupFragment(back), multiline),
    markdown,
    `JSON -> XML -> JSON of ${JSON.stringify(markdown)} (XML ${JSON.stringify(back)})`,
  );
  assert.equal(
    textOf(readMarkupFragment(back)),
    textOf(readMarkupFragment(xml)),
    `the text of ${JSON.stringify(xml)} through ${JSON.stringify(markdown)}`,
  );
}

describe('generated text with runs of spaces and tabs', () => {
  for (const [name, context] of Object.entries(LINE_CONTEXTS)) {
    test(name, () =>
      fc.assert(
        fc.property(spaced, (t) => check(context(t), false)),
        RUNS,
      ),
    );
  }
  for (const [name, context] of Object.entries(MULTILINE_CONTEXTS)) {
    test(name, () =>
      fc.assert(
        fc.property(spaced, (t) => check(context(t), true)),
        RUNS,
      ),
    );
  }
});

describe('in a whole document, JSON -> XML -> JSON is the identity', () => {
  test("a title, a part's prose and a parameter label with runs of spaces and tabs", () => {
    fc.assert(
      fc.property(spaced, spaced, (title, prose) => {
        const doc = {
          catalog: {
            uuid: '74c8ba1e-5cd4-4ad1-bbfe-5ac5d2c9e6c7',
            metadata: { title, 'last-modified': '2026-01-01T00:00:00Z', version: '1', 'oscal-version': '1.1.2' },
            controls: [
              {
                id: 'c-1',
                title: `a${title}`,
                params: [{ id: 'c-1_prm_1', label: title }],
                parts: [
                  {
                    id: 'c-1_smt',
                    name: 'statement',
                    prose: `p ${prose.replace(/^[ \t]+/, '')}\n\n* item ${title.trim()}  x\n* y\t z\n`,
                  },
                ],
              },
            ],
          },
        };
        const viaXml = parseOscal(serializeOscal(parseOscal(JSON.stringify(doc), 'json'), 'xml'), 'xml');
        assert.deepEqual(viaXml.content, doc);
      }),
      { numRuns: 100 },
    );
  });

  test('the published assessment plan\'s kind of string: "a    b" stays "a    b"', () => {
    const doc = parseOscal(
      JSON.stringify({
        catalog: {
          uuid: '74c8ba1e-5cd4-4ad1-bbfe-5ac5d2c9e6c7',
          metadata: {
            title: 'a    b',
            'last-modified': '2026-01-01T00:00:00Z',
            version: '1',
            'oscal-version': '1.1.2',
          },
        },
      }),
      'json',
    );
    const xml = serializeOscal(doc, 'xml');
    assert.match(xml, /<title>a {4}b<\/title>/);
    assert.equal((parseOscal(xml, 'xml').content.catalog as { metadata: { title: string } }).metadata.title, 'a    b');
  });
});

describe('line breaks in the XML', () => {
  const md = (xml: string, multiline = true) => markupToMarkdown(readMarkupFragment(xml), multiline);
  test('a line break followed by indentation is layout: one space, as NIST writes it', () => {
    assert.equal(md('<p>on an\n      authorized IaaS.</p>'), 'on an authorized IaaS.');
    assert.equal(md('<p>\n   <insert type="param" id-ref="p1"/> policy</p>'), ' {{ insert: param, p1 }} policy');
    assert.equal(md('Revision 5: <em>\n Security</em> (PDF)', false), 'Revision 5: *Security* (PDF)');
    assert.equal(md('<table><tr><td>\n    a  b\n  </td></tr></table>'), '| a  b |\n| --- |');
  });
  test('a line break alone is a line of the text: a soft break in a block, a space in a markup-line', () => {
    assert.equal(md('<p>one\ntwo</p>'), 'one\ntwo');
    assert.equal(md('<ul><li>one\ntwo</li></ul>'), '* one\n  two\n');
    assert.equal(md('one\ntwo', false), 'one two');
    assert.equal(markdownToXml('one\ntwo', true), '<p>one\ntwo</p>');
  });
  test('spaces beside a line break are not kept: Markdown cannot hold them (two would make a hard break)', () => {
    assert.equal(md('<p>one   \ntwo</p>'), 'one\ntwo');
    assert.equal(md('<p>one<br/>   two</p>'), 'one\\\ntwo');
  });
});
