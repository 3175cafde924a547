// OSCAL markup <-> Markdown: each construct in both directions, escaping, whitespace,
// and input that must be refused. Expected values are written by hand from the
// Metaschema spec and from what NIST's converter writes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BLOCK_ELEMENTS,
  INLINE_ELEMENTS,
  MarkupError,
  markdownToXml,
  markupToMarkdown,
} from '../src/oscal/markup/index.js';
import { readMarkupFragment } from './support/markup-fragment.js';

const readXml = readMarkupFragment;

const md = (xml: string, multiline = true): string => markupToMarkdown(readXml(xml), multiline);
const xml = (markdown: string, multiline = true): string => markdownToXml(markdown, multiline);

/** Both directions: XML -> Markdown gives `markdown`, and Markdown -> XML gives `xmlOut` (default: the input). */
function both(xmlIn: string, markdown: string, xmlOut = xmlIn, multiline = true): void {
  assert.equal(md(xmlIn, multiline), markdown);
  assert.equal(xml(markdown, multiline), xmlOut);
}

describe('element sets', () => {
  test('inline and block elements are those of the Metaschema markup model', () => {
    assert.deepEqual([...INLINE_ELEMENTS].sort(), [
      'a',
      'b',
      'br',
      'code',
      'em',
      'i',
      'img',
      'insert',
      'q',
      'strong',
      'sub',
      'sup',
    ]);
    assert.deepEqual([...BLOCK_ELEMENTS].sort(), [
      'blockquote',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'hr',
      'img',
      'ol',
      'p',
      'pre',
      'table',
      'ul',
    ]);
  });
});

describe('blocks', () => {
  test('paragraphs are joined by a blank line', () => {
    both('<p>One.</p><p>Two.</p>', 'One.\n\nTwo.');
  });

  test('whitespace between blocks is insignificant', () => {
    assert.equal(md('\n   <p>One.</p>\n   <p>Two.</p>\n'), 'One.\n\nTwo.');
  });

  test('headings h1 to h6', () => {
    for (let level = 1; level <= 6; level++) both(`<h${level}>Title</h${level}>`, `${'#'.repeat(level)} Title`);
  });

  test('a setext heading reads as a heading', () => {
    assert.equal(xml('Title\n====='), '<h1>Title</h1>');
  });

  test('unordered list, written with "* " and ending in a newline as NIST writes it', () => {
    both('<ul><li>a</li><li>b</li></ul>', '* a\n* b\n');
  });

  test('ordered list, every item numbered "1."', () => {
    both('<ol><li>a</li><li>b</li></ol>', '1. a\n1. b\n');
  });

  test('ordered list start', () => {
    both('<ol start="3"><li>a</li><li>b</li></ol>', '3. a\n3. b\n');
  });

  test('a list followed by a paragraph: the list newline, then the blank line', () => {
    both('<p>For:</p><ol><li>a</li></ol><p>Next.</p>', 'For:\n\n1. a\n\n\nNext.');
  });

  test('nested lists are indented to the item text', () => {
    both('<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>', '* a\n  * b\n* c\n');
    both('<ol><li>a<ol><li>b</li></ol></li></ol>', '1. a\n   1. b\n');
    both('<ol start="10"><li>a<ul><li>b</li></ul></li></ol>', '10. a\n    * b\n');
  });

  test('list items holding paragraphs make a loose list', () => {
    both('<ul><li><p>a</p></li><li><p>b</p><p>c</p></li></ul>', '* a\n\n* b\n\n  c\n');
  });

  test('two lists in a row use the other marker so they stay two lists', () => {
    both('<ul><li>a</li></ul><ul><li>b</li></ul>', '* a\n\n\n- b\n');
    both('<ol><li>a</li></ol><ol><li>b</li></ol>', '1. a\n\n\n1) b\n');
  });

  test('pre is a fenced code block, content verbatim', () => {
    both('<pre>\nCust-A  Cust-B\n  |       |\n    </pre>', '```\n\nCust-A  Cust-B\n  |       |\n    \n```');
  });

  test('pre whose content has a fence gets a longer fence', () => {
    both('<pre>a\n```\nb</pre>', '````\na\n```\nb\n````');
  });

  test('pre inside a list item is indented with the item', () => {
    both('<ul><li>run<pre>x\n\n  y</pre></li></ul>', '* run\n  ```\n  x\n\n    y\n  ```\n');
  });

  test('blockquote', () => {
    both('<blockquote><p>a</p><p>b</p></blockquote>', '> a\n>\n> b');
    both('<blockquote><ul><li>x</li></ul></blockquote>', '> * x');
  });

  test('hr', () => {
    both('<p>a</p><hr/><p>b</p>', 'a\n\n---\n\nb');
  });

  test('hr inside a list item uses ___, which cannot underline the text before it', () => {
    both('<ul><li>a<hr/></li></ul>', '* a\n  ___\n');
  });

  test('table with a header row and alignment per column', () => {
    both(
      '<table><tr><th align="left">A</th><th align="center">B</th><th align="right">C</th><th>D</th></tr>' +
        '<tr><td align="left">1</td><td align="center">2</td><td align="right">3</td><td>4</td></tr></table>',
      '| A | B | C | D |\n| :--- | :---: | ---: | --- |\n| 1 | 2 | 3 | 4 |',
    );
  });

  test('pipes in table cells are escaped, also inside code', () => {
    both('<table><tr><th>a|b</th></tr><tr><td><code>x|y</code></td></tr></table>', '| a\\|b |\n| --- |\n| `x\\|y` |');
  });

  test('a block-level img is written as a paragraph holding the image', () => {
    assert.equal(md('<img src="a.png" alt="A"/>'), '![A](a.png)');
    assert.equal(xml('![A](a.png)'), '<p><img alt="A" src="a.png"/></p>');
  });

  test('empty multiline value', () => {
    both('', '', '');
    assert.equal(xml('   '), '');
  });
});

describe('inline', () => {
  test('em and i are *…*, strong and b are **…**', () => {
    both('<em>x</em> <strong>y</strong>', '*x* **y**', '<em>x</em> <strong>y</strong>', false);
    assert.equal(md('<i>x</i> <b>y</b>', false), '*x* **y**');
  });

  test('nested emphasis keeps its order', () => {
    both('<strong><em>x</em></strong>', '**_x_**', '<strong><em>x</em></strong>', false);
    both('<em><strong>x</strong></em>', '***x***', '<em><strong>x</strong></em>', false);
    both('<em><em>x</em></em>', '*_x_*', '<em><em>x</em></em>', false);
    both('<strong>a <em>b</em> c</strong>', '**a *b* c**', '<strong>a <em>b</em> c</strong>', false);
  });

  test('q is "…" and a literal quotation mark is \\"', () => {
    both(
      'The terms <q>continuous</q> and "ongoing"',
      'The terms "continuous" and \\"ongoing\\"',
      'The terms <q>continuous</q> and "ongoing"',
      false,
    );
    both('so<q>(x)</q>. <q>a <q>b</q> c</q>', 'so"(x)". "a "b" c"', 'so<q>(x)</q>. <q>a <q>b</q> c</q>', false);
  });

  test('code', () => {
    both('<code>is_staff</code>', '`is_staff`', '<code>is_staff</code>', false);
    both('<code>a`b</code>', '``a`b``', '<code>a`b</code>', false);
    both('<code>`a</code>', '`` `a ``', '<code>`a</code>', false);
  });

  test('sub and sup', () => {
    both('H<sub>2</sub>O x<sup>2</sup>', 'H~2~O x^2^', 'H<sub>2</sub>O x<sup>2</sup>', false);
    both('<sub>a b</sub>', '~a\\ b~', '<sub>a b</sub>', false);
  });

  test('links, with title and with destinations that need angle brackets', () => {
    both('see <a href="#ac-2">AC-2</a>.', 'see [AC-2](#ac-2).', 'see <a href="#ac-2">AC-2</a>.', false);
    both(
      '<a href="https://x.org/" title="The &quot;X&quot;">X</a>',
      '[X](https://x.org/ "The \\"X\\"")',
      '<a href="https://x.org/" title="The &quot;X&quot;">X</a>',
      false,
    );
    both('<a href="a b(c">t</a>', '[t](<a b(c>)', '<a href="a b(c">t</a>', false);
    both('<a href="f(x)">t</a>', '[t](f(x))', '<a href="f(x)">t</a>', false);
  });

  test('link text with markup', () => {
    both('<a href="u"><em>x</em> [1]</a>', '[*x* \\[1\\]](u)', '<a href="u"><em>x</em> [1]</a>', false);
  });

  test('img with alt and title', () => {
    both(
      '<img alt="A *b*" src="s.png" title="T"/>',
      '![A \\*b\\*](s.png "T")',
      '<img alt="A *b*" src="s.png" title="T"/>',
      false,
    );
  });

  test('insert', () => {
    both(
      'to <insert type="param" id-ref="ac-1_prm_1"/>:',
      'to {{ insert: param, ac-1_prm_1 }}:',
      'to <insert type="param" id-ref="ac-1_prm_1"/>:',
      false,
    );
  });

  test('insert syntax with other spacing is read too', () => {
    assert.equal(xml('{{insert:param,x}}', false), '<insert type="param" id-ref="x"/>');
  });

  test('br is a hard break, continued at the item indent inside lists', () => {
    both('<p>a<br/>b</p>', 'a\\\nb');
    both('<ul><li>a<br/>b</li></ul>', '* a\\\n  b\n');
    both('a<br/>b', 'a\\\nb', 'a<br/>b', false);
  });

  test('br in a heading or table cell, which have no line breaks, is a space', () => {
    assert.equal(md('<h1>a<br/>b</h1>'), '# a b');
  });
});

describe('whitespace in mixed content', () => {
  test('runs of spaces and tabs are content; a line break with indentation is layout, one space as NIST writes it', () => {
    both('<p>for  <insert type="param" id-ref="p2"/> a\tb</p>', 'for  {{ insert: param, p2 }} a\tb');
    assert.equal(md('<p>on an\n                authorized IaaS.</p>'), 'on an authorized IaaS.');
  });

  test('whitespace at the edges of a paragraph is kept and read back (NIST writes it)', () => {
    both(
      '<p>\n   <insert type="param" id-ref="p1"/> access control policy that:</p>',
      ' {{ insert: param, p1 }} access control policy that:',
      '<p> <insert type="param" id-ref="p1"/> access control policy that:</p>',
    );
    both(
      'lock for an <insert type="param" id-ref="p4"/>\n   ',
      'lock for an {{ insert: param, p4 }} ',
      'lock for an <insert type="param" id-ref="p4"/> ',
      false,
    );
  });

  test('a list item starting with whitespace is "*  text" and reads back the same', () => {
    both('<ul><li> a </li></ul>', '*  a \n');
    both('<ul><li> a<ul><li>b</li></ul></li></ul>', '*  a\n   * b\n');
  });

  test('whitespace at the edges of emphasis moves outside, where the delimiters still work', () => {
    assert.equal(md('Revision 5: <em>\n Security</em> (PDF)', false), 'Revision 5: *Security* (PDF)');
  });

  test('non-breaking spaces are content, not whitespace', () => {
    both('<p>a\u00a0\u00a0b</p>', 'a\u00a0\u00a0b');
  });

  test('whitespace in pre is kept', () => {
    both('<pre>  a\n\tb  </pre>', '```\n  a\n\tb  \n```');
  });
});

describe('where NIST\'s converter writes other Markdown, ours reads back as the XML (docs/decisions.md, "Markup")', () => {
  test("nested lists are indented to their item's text; NIST's unindented items read as one flat list", () => {
    both('<ul><li>a<ul><li>b</li></ul></li></ul>', '* a\n  * b\n');
    both('<ol><li>a<ul><li>b</li></ul></li></ol>', '1. a\n   * b\n');
    assert.equal(xml('* a\n* b'), '<ul><li>a</li><li>b</li></ul>');
  });

  test('"-" at the start of a paragraph is escaped; NIST\'s "- x" reads as a list', () => {
    both('<p>- not a list</p>', '\\- not a list');
    assert.equal(xml('- not a list'), '<ul><li>not a list</li></ul>');
  });

  test('code is written verbatim, backslashes included; NIST escapes * ` ~ ^ inside code, where CommonMark keeps the backslash', () => {
    both('<p><code>a*b\\c</code></p>', '`a*b\\c`');
    assert.equal(xml('`a\\*b`'), '<p><code>a\\*b</code></p>');
  });

  test('an empty paragraph has no Markdown form and is left out (published FedRAMP files hold some)', () => {
    both('<p>a</p><p/><p>b</p>', 'a\n\nb', '<p>a</p><p>b</p>');
    both('<p>a</p><p>  </p>', 'a', '<p>a</p>');
  });
});

describe('escaping', () => {
  // Each case: text in XML, its Markdown, in a paragraph (multiline) and in markup-line.
  const cases: Array<[string, string, string]> = [
    ['a*b', 'a\\*b', 'a\\*b'],
    ['a * b', 'a * b', 'a * b'],
    // NIST wrote <em> with inner spaces as "* Security* (PDF)", literal asterisks to CommonMark.
    ['5: * Security* (PDF)', '5: * Security* (PDF)', '5: * Security* (PDF)'],
    ['`', '\\`', '\\`'],
    ['~', '\\~', '\\~'],
    ['^', '\\^', '\\^'],
    ['"', '\\"', '\\"'],
    ['\\', '\\\\', '\\\\'],
    ['_a_', '\\_a\\_', '\\_a\\_'],
    ['AU-02_ODP[01]', 'AU-02_ODP[01]', 'AU-02_ODP[01]'],
    ['[x](y)', '[x\\](y)', '[x\\](y)'],
    ['![x](y)', '![x\\](y)', '![x\\](y)'],
    ['{{ insert: param, x }}', '\\{{ insert: param, x }}', '\\{{ insert: param, x }}'],
    ['<BREAK>', '<BREAK>', '<BREAK>'],
    ['<https://x.org>', '\\<https://x.org>', '\\<https://x.org>'],
    ['<a@b.org>', '\\<a@b.org>', '\\<a@b.org>'],
    ['Issues & Challenges', 'Issues & Challenges', 'Issues & Challenges'],
    ['&amp; &#42;', '\\&amp; \\&#42;', '\\&amp; \\&#42;'],
    ['# not a heading', '\\# not a heading', '# not a heading'],
    ['## x ##', '\\## x ##', '## x ##'],
    ['> not a quote', '\\> not a quote', '> not a quote'],
    ['- not a list', '\\- not a list', '- not a list'],
    ['+ not a list', '\\+ not a list', '+ not a list'],
    ['-1 degree', '-1 degree', '-1 degree'],
    ['1. not a list', '1\\. not a list', '1. not a list'],
    ['2) not a list', '2\\) not a list', '2) not a list'],
    ['2021 was', '2021 was', '2021 was'],
    ['| a | b |', '| a | b |', '| a | b |'],
  ];
  for (const [text, paragraph, line] of cases) {
    test(`${JSON.stringify(text)} round-trips`, () => {
      const escapedXml = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      both(`<p>${escapedXml}</p>`, paragraph, `<p>${escapedXml.replace(/>/g, '&gt;')}</p>`);
      both(escapedXml, line, escapedXml.replace(/>/g, '&gt;'), false);
    });
  }

  test('line starts after a hard break are escaped too', () => {
    both('<p>a<br/>---<br/>= =<br/>- b</p>', 'a\\\n\\---\\\n= =\\\n\\- b');
    both('<p>x<br/>===</p>', 'x\\\n\\===');
  });

  test('a literal * that could close enclosing emphasis is escaped', () => {
    both('<em>a b* c</em>', '*a b\\* c*', '<em>a b* c</em>', false);
  });

  test('emphasis that CommonMark cannot delimit next to a letter is written as plain text, not stray asterisks', () => {
    assert.equal(md('x<em>(y)</em>z', false), 'x(y)z');
    assert.equal(md('<em>(y)</em>z', false), '(y)z');
    assert.equal(md('<em>(y) </em>z', false), '*(y)* z');
    both('x <em>(y)</em> z', 'x *(y)* z', 'x <em>(y)</em> z', false);
  });

  test('a heading ending in # keeps it', () => {
    both('<h2>C #</h2>', '## C \\#');
    both('<h2>C#</h2>', '## C#');
  });

  test('markup-line keeps block syntax as text', () => {
    assert.equal(xml('- item\n# two', false), '- item\n# two');
    assert.equal(xml('1. a', false), '1. a');
  });
});

describe('refused or neutralised input', () => {
  function refuses(fn: () => unknown, pattern: RegExp): MarkupError {
    let caught: unknown;
    try {
      fn();
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof MarkupError, `expected a MarkupError, got ${String(caught)}`);
    assert.match(caught.message, pattern);
    return caught;
  }

  test('an element outside the model is refused with the allowed list and its position', () => {
    const err = refuses(
      () => md('<p>a</p>\n<div>x</div>'),
      /element <div> is not allowed in markup-multiline; allowed: h1, .*p, table, img/,
    );
    assert.equal(err.line, 2);
    assert.equal(typeof err.column, 'number');
    refuses(
      () => md('a <script>alert(1)</script>', false),
      /element <script> is not allowed in markup-line; allowed: code, em/,
    );
    refuses(() => md('<p>a <span>b</span></p>'), /element <span> is not allowed inside <p>/);
    refuses(() => md('<p>x</p>', false), /element <p> is not allowed in markup-line/);
    refuses(() => md('<li>x</li>'), /element <li> is not allowed in markup-multiline/);
    refuses(() => md('<ul><p>x</p></ul>'), /element <p> is not allowed inside <ul>; allowed: li/);
    refuses(() => md('<a href="u"><a href="v">x</a></a>', false), /element <a> is not allowed inside <a>/);
  });

  test('attributes outside the model are refused', () => {
    refuses(() => md('<p onclick="x()">a</p>'), /attribute "onclick" is not allowed on <p>; allowed: none/);
    refuses(
      () => md('<a href="u" style="x">a</a>', false),
      /attribute "style" is not allowed on <a>; allowed: href, title/,
    );
    refuses(
      () => md('<table><tr><td align="middle">a</td></tr></table>'),
      /align="middle" on <td> must be left, center or right/,
    );
    refuses(() => md('<ol start="-1"><li>a</li></ol>'), /start="-1" on <ol> must be a non-negative integer/);
  });

  test('required attributes', () => {
    refuses(() => md('<a>x</a>', false), /<a> requires attribute "href"/);
    refuses(() => md('<insert type="param"/>', false), /<insert> requires attribute "id-ref"/);
    refuses(() => md('<insert type="param" id-ref="a b"/>', false), /id-ref="a b" on <insert> must be an XML name/);
  });

  test('text directly between blocks is refused', () => {
    refuses(
      () => md('<p>a</p> stray <p>b</p>'),
      /text "stray" is not allowed directly in markup-multiline; wrap it in <p>/,
    );
    refuses(() => md('<blockquote>quoted</blockquote>'), /text "quoted" is not allowed directly in <blockquote>/);
  });

  test('content Markdown cannot carry is refused rather than lost', () => {
    refuses(() => md('<pre>a <insert type="param" id-ref="x"/></pre>'), /<insert> inside <pre> cannot be expressed/);
    refuses(() => md('<code><a href="u">x</a></code>', false), /<a> inside <code> cannot be expressed/);
    refuses(() => md('<sub><em>x</em></sub>', false), /<sub> can only hold text in Markdown/);
    refuses(() => md('<ul></ul>'), /<ul> needs at least one <li>/);
    refuses(() => md('<br>x</br>', false), /<br> must be empty/);
  });

  test('raw HTML in Markdown is literal text, never markup', () => {
    assert.equal(xml('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    assert.equal(xml('<div>\n*x*\n</div>'), '<p>&lt;div&gt;\n<em>x</em>\n&lt;/div&gt;</p>');
    assert.equal(xml('a <b class=x>b</b>', false), 'a &lt;b class=x&gt;b&lt;/b&gt;');
    // and the text comes back as the same Markdown
    assert.equal(md(xml('<div>x</div>')), '<div>x</div>');
  });

  test('javascript: and other schemes are kept verbatim, attribute-escaped', () => {
    assert.equal(xml('[x](javascript:alert(1))', false), '<a href="javascript:alert(1)">x</a>');
    assert.equal(xml('[x](<a"b>)', false), '<a href="a&quot;b">x</a>');
    assert.equal(md('<a href="javascript:alert(1)">x</a>', false), '[x](javascript:alert(1))');
  });

  test('unbalanced Markdown is literal text and round-trips', () => {
    for (const text of ['**bold', 'a_b_', '`code', '[link](', '~sub', '"quote']) {
      const out = xml(text, false);
      assert.doesNotMatch(out, /<(em|strong|code|a|sub|q)\b/, text);
      assert.equal(xml(md(out, false), false), out, text);
    }
  });

  test('Markdown with no OSCAL equivalent is refused, with its line', () => {
    const err = refuses(() => xml('text\n\n* | a |\n  | - |\n  | b |'), /element <table> is not allowed inside <li>/);
    assert.equal(err.line, 3);
    refuses(() => xml('[{{ insert: param, x }}](u)', false), /element <insert> is not allowed inside <a>/);
  });

  test('link reference definitions are not supported: they stay text', () => {
    assert.equal(xml('[a]: https://x.org\n\n[a]'), '<p>[a]: https://x.org</p><p>[a]</p>');
  });

  test('an autolink is a link', () => {
    assert.equal(xml('<https://x.org>', false), '<a href="https://x.org">https://x.org</a>');
  });

  test('characters XML cannot hold are refused', () => {
    refuses(() => xml('a\u0001b', false), /character U\+0001 cannot appear in XML/);
  });

  test('an invalid insert is text', () => {
    assert.equal(xml('{{ insert: param, a b }}', false), '{{ insert: param, a b }}');
  });
});
