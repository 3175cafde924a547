// Generated input for the markup conversion:
//   - canonical Markdown (as the writer produces it) survives Markdown -> XML -> Markdown;
//   - markup trees with arbitrary text survive XML -> Markdown -> XML;
//   - any Markdown gives XML within the markup model, or a MarkupError;
//   - the fast path for simple Markdown gives exactly what markdown-it gives.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { MarkupError, markdownToXml, markupToMarkdown } from '../src/oscal/markup/index.js';
import type { MarkupElement, MarkupNode } from '../src/oscal/markup/index.js';
import { markdownParser } from '../src/oscal/markup/markdown-parser.js';
import { simpleMarkdownToXml } from '../src/oscal/markup/simple-markdown.js';
import { tokensToMarkup } from '../src/oscal/markup/tokens-to-markup.js';
import { writeXml } from '../src/oscal/markup/xml-writer.js';
import { readMarkupFragment } from './support/markup-fragment.js';

const readXml = readMarkupFragment;

const RUNS = { numRuns: 400 };

describe('canonical Markdown: Markdown -> XML -> Markdown is the identity', () => {
  const word = fc.stringMatching(/^[A-Za-z0-9]{1,7}$/);
  // Punctuation inside a word, written the way the writer writes it there.
  const escapedInWord = fc.constantFrom(
    '\\*',
    '\\`',
    '\\~',
    '\\^',
    '\\"',
    '\\\\',
    '_',
    '[',
    ']',
    '&',
    '<',
    '{',
    '#',
    '!',
    '|',
    '-',
    '(',
    ')',
    "'",
    '.',
  );
  const richWord = fc
    .tuple(word, fc.array(fc.tuple(escapedInWord, word), { maxLength: 2 }))
    .map(([w, rest]) => w + rest.map(([p, x]) => p + x).join(''));
  const words = fc.array(richWord, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));
  const ncName = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,8}$/);
  const insert = fc.tuple(fc.constantFrom('param', 'control'), ncName).map(([t, id]) => `{{ insert: ${t}, ${id} }}`);
  const href = fc.constantFrom('#ac-1', 'https://example.org/a_b?x=1&y=2', '#18e71fec-c6fd-475a', 'f(x)', '<a b>');
  const title = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ` "${ws.join(' ')}"`);
  // Code as the writer leaves it: whitespace collapsed, no space at both ends.
  const code = fc.stringMatching(/^[A-Za-z0-9*_#[\]<>&"~^-]( ?[A-Za-z0-9*_#[\]<>&"~^-]){0,5}$/).map((c) => `\`${c}\``);
  // In link text and image alt every bracket is escaped.
  const label = words.map((w) => w.replace(/[[\]]/g, '\\$&'));
  const plainPiece = fc.oneof(
    richWord,
    insert,
    code,
    word.map((w) => `~${w}~`),
    word.map((w) => `^${w}^`),
    fc.tuple(label, href, fc.option(title, { nil: '' })).map(([t, h, ti]) => `[${t}](${h}${ti})`),
    fc.tuple(label, href, fc.option(title, { nil: '' })).map(([t, h, ti]) => `![${t}](${h}${ti})`),
  );
  const emphasised = (inner: fc.Arbitrary<string>): fc.Arbitrary<string> =>
    fc.oneof(
      inner.map((x) => `*${x}*`),
      inner.map((x) => `**${x}**`),
      inner.map((x) => `"${x}"`),
    );
  // Emphasis content starts and ends with a word, as the writer moves spaces out of it.
  const emphasisContent = fc
    .tuple(richWord, fc.array(plainPiece, { maxLength: 2 }), richWord)
    .map(([a, mid, b]) => [a, ...mid, b].join(' '));
  const piece = fc.oneof({ weight: 4, arbitrary: plainPiece }, { weight: 1, arbitrary: emphasised(emphasisContent) });
  const inlineLine = fc.array(piece, { minLength: 1, maxLength: 5 }).map((ps) => ps.join(' '));
  // A paragraph starts with a plain word, so that no escaping of a line start is involved.
  const paragraph = fc
    .tuple(word, fc.array(fc.tuple(fc.constantFrom(' ', '\\\n'), piece), { maxLength: 5 }))
    .map(([first, rest]) => first + rest.map(([sep, p]) => sep + p).join(''));

  type Block = { markdown: string; list?: 'ul' | 'ol' };
  const indent = (text: string, first: string): string =>
    text
      .split('\n')
      .map((line, i) => (i === 0 ? first + line : line === '' ? '' : ' '.repeat(first.length) + line))
      .join('\n');
  const list = (kind: 'ul' | 'ol', depth: number): fc.Arbitrary<(alternate: boolean) => string> =>
    fc
      .array(fc.tuple(paragraph, depth > 0 ? fc.option(fc.constantFrom('ul', 'ol')) : fc.constant(null)), {
        minLength: 1,
        maxLength: 3,
      })
      .chain((items) =>
        fc.tuple(
          ...items.map(([text, nested]) =>
            nested === null
              ? fc.constant(text)
              : list(nested as 'ul' | 'ol', depth - 1).map((render) => `${text}\n${render(false)}`),
          ),
        ),
      )
      .map((bodies) => (alternate: boolean) => {
        const marker = kind === 'ul' ? (alternate ? '- ' : '* ') : alternate ? '1) ' : '1. ';
        return bodies.map((body) => indent(body, marker)).join('\n');
      });
  const table = fc
    .integer({ min: 1, max: 3 })
    .chain((columns) =>
      fc
        .tuple(
          fc.array(fc.constantFrom('---', ':---', ':---:', '---:'), { minLength: columns, maxLength: columns }),
          fc.array(fc.array(inlineLine, { minLength: columns, maxLength: columns }), { minLength: 1, maxLength: 3 }),
        )
        .map(([aligns, rows]) =>
          [rows[0], aligns, ...rows.slice(1)]
            .map((cells) => `| ${(cells as string[]).map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)
            .join('\n'),
        ),
    );
  const preText = fc
    .array(fc.stringMatching(/^[ A-Za-z0-9*_#<>&|~-]{0,12}$/), { maxLength: 4 })
    .map((lines) => lines.join('\n'));
  const block: fc.Arbitrary<Block | ((previous: Block | undefined) => Block)> = fc.oneof(
    paragraph.map((markdown) => ({ markdown })),
    fc
      .tuple(fc.integer({ min: 1, max: 6 }), inlineLine)
      .map(([level, text]) => ({ markdown: `${'#'.repeat(level)} ${text}` })),
    preText.map((text) => ({ markdown: `\`\`\`\n${text}\n\`\`\`` })),
    fc.constant({ markdown: '---' }),
    fc
      .array(paragraph, { minLength: 1, maxLength: 2 })
      .map((ps) => ({ markdown: ps.map((p) => p.replace(/^/gm, '> ')).join('\n>\n') })),
    table.map((markdown) => ({ markdown })),
    ...(['ul', 'ol'] as const).map((kind) =>
      list(kind, 2).map((render) => (previous: Block | undefined): Block => {
        // Two lists of a kind in a row: the second takes the other marker (unless the first did).
        const alternate = previous?.list === kind && !/^(- |1\) )/.test(previous.markdown);
        return { markdown: render(alternate), list: kind };
      }),
    ),
  );
  const document = fc.array(block, { minLength: 1, maxLength: 5 }).map((blocks) => {
    const made: Block[] = [];
    for (const b of blocks) made.push(typeof b === 'function' ? b(made[made.length - 1]) : b);
    return made.map((b) => (b.list ? `${b.markdown}\n` : b.markdown)).join('\n\n');
  });

  test('markup-multiline', () => {
    fc.assert(
      fc.property(document, (markdown) => {
        assert.equal(markupToMarkdown(readXml(markdownToXml(markdown, true)), true), markdown);
      }),
      RUNS,
    );
  });

  test('markup-line', () => {
    const line = fc
      .tuple(inlineLine, fc.array(fc.tuple(fc.constantFrom(' ', '\\\n'), inlineLine), { maxLength: 2 }))
      .map(([a, rest]) => a + rest.map(([s, b]) => s + b).join(''));
    fc.assert(
      fc.property(line, (markdown) => {
        assert.equal(markupToMarkdown(readXml(markdownToXml(markdown, false)), false), markdown);
      }),
      RUNS,
    );
  });
});

describe('markup trees with arbitrary text: XML -> Markdown -> XML keeps them', () => {
  // Text with every character Markdown gives a meaning to, and whitespace to collapse.
  const text = fc.string({ unit: fc.constantFrom(...'aZ09 *_`~^"\\[](){}<>&#!|-+=.:;/\'\u00a0\n\t'), maxLength: 12 });
  const alnum = fc.stringMatching(/^[A-Za-z0-9]{1,4}$/);
  const visible = fc.constantFrom(...'aZ09*_`~^"\\[](){}<>&#!|-+=.:;/\'');
  const ncName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,6}$/);
  const el = (name: string, children: MarkupNode[] = [], attrs: Record<string, string> = {}): MarkupElement => ({
    name,
    attrs,
    children,
  });
  const attribute = fc.string({ unit: fc.constantFrom(...'aZ09 *_"\\[]()<>&#|'), maxLength: 10 });

  // Mixed content: text between elements, never two elements side by side (Markdown
  // cannot keep *a**b* apart), and text on both sides of a break (a break at the start or
  // end of a block has no Markdown form). `spaced`: elements nested in emphasis or quotes
  // are set off by spaces; in "a"b"c" a nested quotation cannot be told from two quotations
  // side by side, in "a "b" c" it can.
  function mixed(pieces: fc.Arbitrary<MarkupNode>, withBreaks: boolean, spaced = false): fc.Arbitrary<MarkupNode[]> {
    const gap = spaced ? ' ' : '';
    // Unspaced content may start and end with any text: line starts, edge whitespace.
    const edge = spaced ? fc.constant('') : text;
    return fc
      .tuple(
        edge,
        alnum,
        fc.array(fc.tuple(withBreaks ? fc.oneof(pieces, fc.constant(el('br'))) : pieces, text, alnum), {
          maxLength: 3,
        }),
        edge,
      )
      .map(([lead, first, rest, trail]) => {
        const nodes: MarkupNode[] = [lead + first + gap];
        for (const [node, between, word] of rest) nodes.push(node, gap + between + word + gap);
        nodes[nodes.length - 1] += trail;
        return nodes;
      });
  }

  const inlinePieces = fc.letrec<{ piece: MarkupNode; phrase: MarkupNode }>((tie) => ({
    piece: fc.oneof(
      { depthSize: 'small' },
      tie('phrase'),
      fc
        .tuple(
          mixed(tie('phrase'), false),
          fc.string({ unit: fc.constantFrom(...'ab/#:?()<> \\'), minLength: 1, maxLength: 8 }),
          fc.option(attribute, { nil: undefined }),
        )
        .map(([children, href, title]) =>
          el(
            'a',
            children,
            title === undefined || title.trim() === '' ? { href } : { href, title: title.replace(/ +/g, ' ') },
          ),
        ),
      fc.tuple(fc.constantFrom('param', 'role'), ncName).map(([type, id]) => el('insert', [], { type, 'id-ref': id })),
    ),
    phrase: fc.oneof(
      { depthSize: 'small' },
      // Emphasis content starts and ends with a word: "*(x)*" next to a letter cannot open.
      ...['em', 'strong'].map((name) => fc.tuple(alnum, text, alnum).map(([a, t, b]) => el(name, [a + t + b]))),
      // Quotes only need no space at their edges.
      fc.tuple(visible, text, visible).map(([a, t, b]) => el('q', [a + t + b])),
      ...['em', 'strong', 'q'].map((name) =>
        mixed(tie('phrase'), false, true).map((children) => el(name, [...children, 'x'])),
      ),
      text.filter((t) => /[^ \t\n]/.test(t)).map((t) => el('code', [t])),
      ...['sub', 'sup'].map((name) =>
        fc
          .string({ unit: fc.constantFrom(...'aZ09 *_`~^"\\[]<>&{'), minLength: 1, maxLength: 6 })
          .filter((t) => t.trim() !== '')
          .map((t) => el(name, [t])),
      ),
      fc
        .tuple(attribute, fc.string({ unit: fc.constantFrom(...'ab/.()'), minLength: 1, maxLength: 6 }))
        .map(([alt, src]) => el('img', [], alt === '' ? { src } : { alt, src })),
    ),
  }));
  const inline = (withBreaks: boolean): fc.Arbitrary<MarkupNode[]> => mixed(inlinePieces.piece, withBreaks);
  const INLINE_NAMES = new Set(['a', 'insert', 'br', 'code', 'em', 'strong', 'sub', 'sup', 'q', 'img']);

  /** An item's content for a loose list, whose text is in paragraphs (its only loose form that round-trips). */
  function asParagraphs(children: MarkupNode[]): MarkupNode[] {
    const blocks: MarkupNode[] = [];
    let run: MarkupNode[] = [];
    for (const c of children) {
      if (typeof c === 'string' || INLINE_NAMES.has(c.name)) run.push(c);
      else {
        if (run.length > 0) blocks.push(el('p', run));
        run = [];
        blocks.push(c);
      }
    }
    if (run.length > 0) blocks.push(el('p', run));
    return blocks;
  }
  const cellsInline = mixed(inlinePieces.piece, false);

  const blockTree = fc.letrec<{ block: MarkupElement; item: MarkupElement }>((tie) => ({
    block: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      inline(true).map((children) => el('p', children)),
      fc.tuple(fc.integer({ min: 1, max: 6 }), inline(false)).map(([level, children]) => el(`h${level}`, children)),
      fc.string({ unit: fc.constantFrom(...'a `~\n*#<>&-'), maxLength: 20 }).map((t) => el('pre', t === '' ? [] : [t])),
      fc.constant(el('hr')),
      fc.array(tie('block'), { minLength: 1, maxLength: 2 }).map((children) => el('blockquote', children)),
      fc
        .tuple(
          fc.constantFrom('ul', 'ol'),
          fc.boolean(),
          fc.array(tie('item'), { minLength: 1, maxLength: 3 }),
          fc.option(fc.integer({ min: 0, max: 12 })),
        )
        .map(([name, loose, items, start]) => {
          const paragraphs = items.map((item) => asParagraphs(item.children));
          // A single item with a single paragraph is always tight in CommonMark.
          const canBeLoose = items.length > 1 || (paragraphs[0] as MarkupNode[]).length > 1;
          // start="1" is the default, which Markdown does not write.
          const attrs: Record<string, string> =
            name === 'ol' && start !== null && start !== 1 ? { start: String(start) } : {};
          return el(name, loose && canBeLoose ? paragraphs.map((children) => el('li', children)) : items, attrs);
        }),
      fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })).chain(([columns, rows]) =>
        fc
          .tuple(
            fc.array(fc.constantFrom(undefined, 'left', 'center', 'right'), { minLength: columns, maxLength: columns }),
            fc.array(fc.array(cellsInline, { minLength: columns, maxLength: columns }), {
              minLength: rows,
              maxLength: rows,
            }),
          )
          .map(([aligns, cells]) =>
            el(
              'table',
              cells.map((row, r) =>
                el(
                  'tr',
                  row.map((content, c) =>
                    el(r === 0 ? 'th' : 'td', content, aligns[c] === undefined ? {} : { align: aligns[c] as string }),
                  ),
                ),
              ),
            ),
          ),
      ),
    ),
    // Item content: text first, then blocks that can follow it without a blank line.
    item: fc
      .tuple(
        inline(true),
        fc.array(
          fc.oneof(
            tie('block').filter((b) => ['ul', 'pre', 'hr', 'h1', 'h2', 'blockquote'].includes(b.name)),
            fc.array(tie('item'), { minLength: 1, maxLength: 2 }).map((items) => el('ol', items)),
          ),
          { maxLength: 2 },
        ),
      )
      .filter(([, blocks]) => !blocks.some((b, i) => b.name === 'blockquote' && blocks[i - 1]?.name === 'blockquote'))
      .map(([text, blocks]) => el('li', [...text, ...blocks])),
  }));

  const BLOCK_CONTENT = new Set([
    '#multiline',
    'p',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'td',
    'th',
    'blockquote',
    'ul',
    'ol',
    'table',
    'tr',
  ]);

  /** Canonical text of markup: whitespace as it renders (see markup-nist.test.ts). */
  function canonical(nodes: MarkupNode[], context: string): string {
    const inlineNames = new Set(['a', 'insert', 'code', 'em', 'strong', 'sub', 'sup', 'q', 'img']);
    const parts = nodes.map((n) =>
      typeof n === 'string' ? (context === 'pre' ? n : n.replace(/[ \t\n\r]+/g, ' ')) : n,
    );
    const merged: Array<string | MarkupElement> = [];
    for (const p of parts) {
      const last = merged[merged.length - 1];
      if (typeof p === 'string' && typeof last === 'string')
        merged[merged.length - 1] = (last + p).replace(/ {2,}/g, ' ');
      else merged.push(p);
    }
    const trims = BLOCK_CONTENT.has(context);
    return merged
      .map((p, i) => {
        if (typeof p !== 'string') {
          const attrs = Object.keys(p.attrs)
            .sort()
            .map((a) => ` ${a}=${JSON.stringify(p.attrs[a])}`)
            .join('');
          return `<${p.name}${attrs}>${canonical(p.children, p.name)}</${p.name}>`;
        }
        const before = merged[i - 1];
        const after = merged[i + 1];
        let t = p;
        if (trims && (before === undefined || (typeof before !== 'string' && !inlineNames.has(before.name))))
          t = t.replace(/^ /, '');
        if (trims && (after === undefined || (typeof after !== 'string' && !inlineNames.has(after.name))))
          t = t.replace(/ $/, '');
        if (typeof before !== 'string' && before?.name === 'br') t = t.replace(/^ /, '');
        if (typeof after !== 'string' && after?.name === 'br') t = t.replace(/ $/, '');
        return t === '' ? '' : JSON.stringify(t);
      })
      .join('');
  }

  test('markup-line', () => {
    fc.assert(
      fc.property(inline(true), (nodes) => {
        const markdown = markupToMarkdown(nodes, false);
        assert.equal(
          canonical(readXml(markdownToXml(markdown, false)), '#line'),
          canonical(nodes, '#line'),
          JSON.stringify(markdown),
        );
      }),
      RUNS,
    );
  });

  test('markup-multiline', () => {
    fc.assert(
      fc.property(fc.array(blockTree.block, { minLength: 1, maxLength: 4 }), (nodes) => {
        const markdown = markupToMarkdown(nodes, true);
        assert.equal(
          canonical(readXml(markdownToXml(markdown, true)), '#multiline'),
          canonical(nodes, '#multiline'),
          JSON.stringify(markdown),
        );
      }),
      RUNS,
    );
  });
});

describe('any Markdown', () => {
  const anyMarkdown = fc.string({
    unit: fc.oneof(
      fc.constantFrom(...'\n *_`~^"\\[](){}<>&#!|-+=.:;1aA\t'),
      fc.constantFrom('{{ insert: param, x }}', '    ', '```', '<div>', '&amp;', '\u0001'),
    ),
    maxLength: 40,
  });

  for (const multiline of [true, false]) {
    test(`${multiline ? 'markup-multiline' : 'markup-line'}: gives markup within the model, or a MarkupError`, () => {
      fc.assert(
        fc.property(anyMarkdown, (markdown) => {
          let xml: string;
          try {
            xml = markdownToXml(markdown, multiline);
          } catch (e) {
            assert.ok(e instanceof MarkupError, String(e));
            return;
          }
          // The writer checks every element and attribute against the model, so this throws if the XML strays.
          markupToMarkdown(readXml(xml), multiline);
        }),
        RUNS,
      );
    });
  }
});

describe('the fast path for simple Markdown agrees with markdown-it', () => {
  const viaMarkdownIt = (markdown: string, multiline: boolean): string => {
    const md = markdownParser();
    return writeXml(tokensToMarkup(multiline ? md.parse(markdown, {}) : md.parseInline(markdown, {}), multiline));
  };
  // Simple-looking pieces and characters that take Markdown out of the simple subset.
  const chunk = fc.oneof(
    fc.stringMatching(/^[A-Za-z ]{1,6}$/),
    fc.constantFrom(
      '{{ insert: param, ac-1_prm_1 }}',
      '{{ insert: param, a b }}',
      '{{insert: x, y}}',
      '[AC-2](#ac-2)',
      '[a](b c)',
      '[](x)',
      '[x]()',
      '[a](#b "t")',
    ),
    fc.constantFrom(
      '\n\n',
      '\n',
      ' ',
      '  ',
      '    ',
      '\t',
      '>',
      '!',
      '*',
      '_',
      '#',
      '1. ',
      '- ',
      '&amp;',
      '<x>',
      '"',
      '\\',
      '|',
      '=',
      '[',
      ']',
      '(',
      ')',
      '{',
      '}',
    ),
  );
  const markdown = fc.array(chunk, { maxLength: 8 }).map((cs) => cs.join(''));

  for (const multiline of [true, false]) {
    test(multiline ? 'markup-multiline' : 'markup-line', () => {
      let simple = 0;
      fc.assert(
        fc.property(markdown, (md) => {
          const fast = simpleMarkdownToXml(md, multiline);
          if (fast === undefined) return;
          simple++;
          assert.equal(fast, viaMarkdownIt(md, multiline));
        }),
        { numRuns: 2000 },
      );
      // The generator must actually exercise the fast path.
      assert.ok(simple > 200, `only ${simple} inputs took the fast path`);
    });
  }
});
