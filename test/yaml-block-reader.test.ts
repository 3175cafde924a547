/**
 * The block-style YAML reader against its oracle, js-yaml's failsafe load (what read YAML before
 * it, and still reads whatever it defers): on every published document, on dumps of them written by
 * both YAML libraries in many styles, on hand-picked edge cases, and on generated and mutated text.
 * The rule everywhere: the reader gives exactly js-yaml's tree, or defers; it never reads text
 * js-yaml refuses. And it must not defer what OSCAL tools write, or it would be no faster.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import * as jsYaml from 'js-yaml';
import * as yamlLib from 'yaml';
import { readBlockYaml } from '../src/oscal/formats/yaml-block-reader.js';
import { readYaml } from '../src/oscal/formats/yaml-reader.js';
import { readJson } from '../src/oscal/formats/json-reader.js';
import { MAX_NESTING } from '../src/oscal/formats/nesting.js';
import { OscalError } from '../src/oscal/errors.js';
import { CONTENT, filesUnder, shortName } from './support/shared.js';

type Verdict =
  { kind: 'equal' } | { kind: 'deferred' } | { kind: 'refused-by-both' } | { kind: 'wrong'; detail: string };

/** Compares the reader with js-yaml on one text. */
function judge(text: string): Verdict {
  let expected: unknown;
  let oracleThrew = false;
  try {
    expected = jsYaml.load(text, { schema: jsYaml.FAILSAFE_SCHEMA });
  } catch {
    oracleThrew = true;
  }
  const got = readBlockYaml(text);
  if (got === undefined) return oracleThrew ? { kind: 'refused-by-both' } : { kind: 'deferred' };
  if (oracleThrew) return { kind: 'wrong', detail: `read text js-yaml refuses: ${JSON.stringify(got).slice(0, 300)}` };
  if (!isDeepStrictEqual(got, expected))
    return {
      kind: 'wrong',
      detail: `got ${JSON.stringify(got).slice(0, 300)}\nexpected ${JSON.stringify(expected).slice(0, 300)}`,
    };
  return { kind: 'equal' };
}

function assertReadsLikeJsYaml(text: string, what: string): void {
  const verdict = judge(text);
  assert.equal(
    verdict.kind,
    'equal',
    `${what}: ${verdict.kind === 'wrong' ? verdict.detail : verdict.kind}\n--- text ---\n${text.slice(0, 2000)}`,
  );
}

const yamlFiles = filesUnder(CONTENT, '.yaml');
const jsonFiles = filesUnder(CONTENT, '.json');

describe('block YAML reader on published content', () => {
  it('reads every published YAML file exactly as js-yaml does, deferring none', () => {
    assert.ok(yamlFiles.length >= 20, `found ${yamlFiles.length} YAML files`);
    for (const f of yamlFiles) assertReadsLikeJsYaml(readFileSync(f, 'utf8'), shortName(f));
  });

  // Each writer's styles: js-yaml's plain, quoted and literal scalars; the yaml package's folded
  // and literal blocks, multi-line plain and quoted scalars (narrow lines force them) and sequences
  // at their key's own indentation.
  const writers: Record<string, (value: unknown) => string> = {
    'js-yaml dump, as our writer': (v) => jsYaml.dump(v, { noRefs: true, lineWidth: -1 }),
    'js-yaml dump, 40 columns, indent 4': (v) =>
      jsYaml.dump(v, { noRefs: true, lineWidth: 40, indent: 4, seqNoIndent: true }),
    'js-yaml dump, double quotes forced': (v) =>
      jsYaml.dump(v, { noRefs: true, forceQuotes: true, quoteStyle: 'double' }),
    'js-yaml dump, mappings in sequences on their own lines': (v) =>
      jsYaml.dump(v, { noRefs: true, seqInlineFirst: false }),
    'yaml stringify, default': (v) => yamlLib.stringify(v),
    'yaml stringify, 30 columns, sequences unindented': (v) =>
      yamlLib.stringify(v, { lineWidth: 30, minContentWidth: 10, indentSeq: false }),
    'yaml stringify, folded blocks': (v) =>
      yamlLib.stringify(v, { defaultStringType: 'BLOCK_FOLDED', lineWidth: 40, minContentWidth: 10 }),
    'yaml stringify, literal blocks': (v) => yamlLib.stringify(v, { defaultStringType: 'BLOCK_LITERAL' }),
    'yaml stringify, double-quoted, 40 columns': (v) =>
      yamlLib.stringify(v, { defaultStringType: 'QUOTE_DOUBLE', lineWidth: 40, minContentWidth: 10 }),
    'yaml stringify, single-quoted, 40 columns': (v) =>
      yamlLib.stringify(v, { defaultStringType: 'QUOTE_SINGLE', lineWidth: 40, minContentWidth: 10 }),
  };
  for (const [name, write] of Object.entries(writers)) {
    it(`reads every published JSON document written by ${name}`, () => {
      assert.ok(jsonFiles.length >= 20, `found ${jsonFiles.length} JSON files`);
      for (const f of jsonFiles)
        assertReadsLikeJsYaml(write(JSON.parse(readFileSync(f, 'utf8'))), `${shortName(f)} (${name})`);
    });
  }
});

describe('block YAML reader on edge cases', () => {
  const reads: Record<string, string> = {
    'document start and comment lines': '# made by hand\n---\n# about a\na: 1\n\n  # indented comment\nb: 2\n',
    'no final line break': 'a: b',
    "sequence at its key's indentation": 'a:\n- x\n- y: 1\n  z: 2\nb: c\n',
    'compact mappings and nested sequences':
      'a:\n  - b: 1\n    c:\n      - d\n      -   e: 2\n          f: 3\n  -\n    g: 4\n',
    'quoted keys and values': '"a b": \'c\'\'d\'\n\'e: f\': "g\\"h"\n"": ""\n',
    'escapes': 'a: "\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\"\\/\\\\ \\x41\\u00e9\\U0001F600"\n',
    'multi-line plain with blank lines': 'a: one\n  two\n\n  three\n\n\n  four\nb: x\n',
    'plain continuation deeper than its sequence': 'a:\n- one\n two\n- three\n',
    'a comment line ends a plain scalar': 'a: one\n  # note\nb: two\n',
    'scalars on the line after their key or dash': 'a:\n  long\n   text\nb:\n  "quoted"\nc:\n  - \n    plain\n',
    'multi-line double-quoted with escaped breaks': 'a: "one \\\n    two\n\n    three  \n    four\\\n\n    five"\n',
    'multi-line single-quoted': "a: 'it''s\n  here\n\n  now '\n",
    'literal chomping': 'a: |\n  x\n\n\nb: |-\n  x\n\n\nc: |+\n  x\n\n\nd: x\n',
    'folded chomping and more-indented lines':
      'a: >\n  one\n  two\n\n  three\n    code\n    more\n  four\n\n\nb: >-\n  x\n   y\nc: >+\n  z\n\n',
    'explicit indentation': 'a: |2\n    lead\n  text\nb: >-1\n  lead\n c\n- \n'.replace('- \n', ''),
    'explicit indentation in a sequence': 'a:\n  - |1-\n     x\n  - >2\n      y\n     z\n',
    'keep chomping at the end of the text': 'a: >+\n  z\n\n',
    'keep chomping before spaces with no line break': 'a: |+\n  x\n\n\n  ',
    'whitespace-only lines in a literal': 'a: |\n  x\n     \n  y\n   \n',
    'nested compact sequences': 'a:\n- - x\n  - - y\n    - z: 1\n      w: 2\n- v\n',
    'escaped space before a line break': 'a: "x\\ \n  y"\n',
    'empty flow collections': 'a: []\nb: {}\nc:\n  - []\n  - {}\n',
    'indicators inside plain text': 'a: -1\nb: x-y\nc: a:b\nd: "#x"\ne: http://x/#y\nf: ?x\ng: :x\nh: x # y\n'.replace(
      ' # y',
      '#y',
    ),
    'markers that are keys': '---: 1\n...x: 2\n',
    'non-ASCII and astral characters': 'a: é 😀 中文\n',
    'root indented': '  a: 1\n  b:\n    - 2\n',
  };
  for (const [name, text] of Object.entries(reads)) it(`reads: ${name}`, () => assertReadsLikeJsYaml(text, name));

  const defers: Record<string, string> = {
    'anchor and alias': 'a: &x 1\nb: *x\n',
    'tag': 'a: !!str 1\n',
    'flow sequence with content': 'a: [1, 2]\n',
    'flow mapping with content': 'a: {b: 1}\n',
    'comment after a value': 'a: 1 # one\n',
    'tab in content': 'a: "x\ty"\n',
    'carriage return line ends': 'a: 1\r\nb: 2\r\n',
    'duplicate key': 'a: 1\na: 2\n',
    'inherited property name': '__proto__: 1\n',
    'merge key': '<<: 1\n',
    'second document': 'a: 1\n---\nb: 2\n',
    'document end marker': 'a: 1\n...\n',
    'document marker before text': 'a: 1\n--- b: 2\n',
    'indented document marker before text': " ---  a: ''\n",
    'directive': '%YAML 1.2\n---\na: 1\n',
    'empty value': 'a:\nb: 1\n',
    'complex key': '? a\n: 1\n',
    'space before the colon': 'a : 1\n',
    'root sequence': '- a\n',
    'root scalar': 'a\n',
    'bad indentation': 'a:\n    b: 1\n  c: 2\n',
    'mapping in a plain value': 'a: b: c\n',
    'unknown escape': 'a: "\\q"\n',
    'unterminated quote': 'a: "b\n',
    'non-printable character': 'a: "\u0001"\n',
    'unpaired surrogate': 'a: "\uD800"\n',
    'empty text': '',
    "nesting past the engine's limit (compact)": `a:\n- ${'- '.repeat(5000)}x\n`,
  };
  for (const [name, text] of Object.entries(defers)) {
    it(`defers: ${name}`, () => {
      assert.equal(readBlockYaml(text), undefined);
    });
  }

  it('nests exactly as deep as JSON: MAX_NESTING levels are read, one more is refused alike', () => {
    const nested = (depth: number) => {
      let value: unknown = 'x';
      for (let i = depth; i > 0; i--) value = i % 2 ? { a: value } : [value];
      return value;
    };
    const deepest = nested(MAX_NESTING);
    const yamlText = jsYaml.dump(deepest);
    assert.deepEqual(readBlockYaml(yamlText), deepest);
    // Not OSCAL, but deep enough: both formats get past the nesting check to the model's.
    for (const read of [() => readYaml(yamlText), () => readJson(JSON.stringify(deepest))]) {
      assert.throws(read, (e: unknown) => e instanceof OscalError && e.code === 'unknown-root');
    }
    const tooDeep = nested(MAX_NESTING + 1);
    assert.equal(readBlockYaml(jsYaml.dump(tooDeep)), undefined);
    const refusals = [() => readYaml(jsYaml.dump(tooDeep)), () => readJson(JSON.stringify(tooDeep))].map((read) => {
      try {
        read();
      } catch (e) {
        return e instanceof OscalError ? [e.code, e.message] : e;
      }
      return 'read';
    });
    assert.deepEqual(refusals[0], ['forbidden-construct', `nesting deeper than ${MAX_NESTING} levels is not accepted`]);
    assert.deepEqual(refusals[0], refusals[1]);
  });

  it('nests as deep as JSON on the js-yaml path too (flow collections go there)', () => {
    const flow = (depth: number) => `b: ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}\n`;
    assert.throws(
      () => readYaml(flow(MAX_NESTING)),
      (e: unknown) => e instanceof OscalError && e.code === 'unknown-root',
    );
    for (const depth of [MAX_NESTING + 1, 10_000]) {
      assert.throws(
        () => readYaml(flow(depth)),
        (e: unknown) =>
          e instanceof OscalError &&
          e.code === 'forbidden-construct' &&
          e.line === 1 &&
          /nesting deeper/.test(e.message),
      );
    }
  });

  it('leaves errors to js-yaml: a duplicate key is reported with its line', () => {
    assert.throws(
      () => readYaml('catalog:\n  uuid: 1\n  uuid: 2\n'),
      (e: unknown) => e instanceof OscalError && e.code === 'malformed' && e.line === 3,
    );
  });

  it('leaves aliases to the js-yaml path, which refuses them', () => {
    assert.throws(
      () => readYaml('catalog: &c\n  uuid: x\nother: *c\n'),
      (e: unknown) => e instanceof OscalError && e.code === 'forbidden-construct',
    );
  });
});

describe('block YAML reader against js-yaml on generated text', () => {
  /** Pieces that make YAML mean something else: indicators, quotes, escapes, breaks, spaces. */
  const PIECES = [
    'a',
    'b',
    'xy z',
    ' ',
    '  ',
    ':',
    ': ',
    '#',
    ' #',
    '-',
    '- ',
    '? ',
    "'",
    "''",
    '"',
    '\\',
    '\\n',
    '\n',
    '\n\n',
    '\n  ',
    '[',
    ']',
    '{',
    '}',
    ',',
    '&',
    '*',
    '!',
    '|',
    '>',
    '%',
    '@',
    '`',
    '~',
    'null',
    'true',
    '1.0',
    '---',
    '...',
    'é',
    '😀',
    '<<',
  ];
  /** What the reader defers whole texts for; edits put these in. */
  const DEFERRED_PIECES = ['\t', '\r\n', '\r', '\u0085', '\u2028', '\uFEFF', '\uD800'];
  const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((parts) => parts.join(''));
  const key = fc.oneof(fc.constantFrom('uuid', 'title', 'props', 'a-b', 'x.y'), text);
  const { node } = fc.letrec<{ node: unknown; list: unknown[]; map: Record<string, unknown> }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, tie('list'), tie('map')),
    list: fc.array(tie('node'), { maxLength: 4 }),
    map: fc.dictionary(key, tie('node'), { maxKeys: 4, noNullPrototype: true }),
  }));
  const root = fc.dictionary(key, node, { minKeys: 1, maxKeys: 4, noNullPrototype: true });

  const jsYamlWriter = fc
    .record({
      lineWidth: fc.constantFrom(-1, 12, 40),
      indent: fc.integer({ min: 1, max: 4 }),
      seqNoIndent: fc.boolean(),
      seqInlineFirst: fc.boolean(),
      quoteStyle: fc.constantFrom<'single' | 'double'>('single', 'double'),
      forceQuotes: fc.boolean(),
    })
    .map((options) => (value: unknown) => jsYaml.dump(value, { ...options, noRefs: true }));
  const yamlWriter = fc
    .record({
      lineWidth: fc.constantFrom(0, 12, 40),
      indent: fc.integer({ min: 1, max: 4 }),
      indentSeq: fc.boolean(),
      defaultStringType: fc.constantFrom(
        'PLAIN',
        'QUOTE_DOUBLE',
        'QUOTE_SINGLE',
        'BLOCK_FOLDED',
        'BLOCK_LITERAL',
      ) as fc.Arbitrary<yamlLib.Scalar.Type>,
      defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE') as fc.Arbitrary<yamlLib.Scalar.Type | null>,
    })
    .map((options) => (value: unknown) => yamlLib.stringify(value, { ...options, minContentWidth: 4 }));
  const written = fc.tuple(root, fc.oneof(jsYamlWriter, yamlWriter)).map(([value, write]) => write(value));

  /** Edits a text as a hand or a bug might: a piece put in, a run taken out, a line's indentation changed. */
  const edit = fc.oneof(
    fc.tuple(fc.nat(), fc.constantFrom(...PIECES, ...DEFERRED_PIECES)).map(
      ([at, piece]) =>
        (s: string) =>
          s.slice(0, at % (s.length + 1)) + piece + s.slice(at % (s.length + 1)),
    ),
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 6 })).map(
      ([at, n]) =>
        (s: string) =>
          s.slice(0, at % (s.length + 1)) + s.slice((at % (s.length + 1)) + n),
    ),
    fc.tuple(fc.nat(), fc.integer({ min: -3, max: 3 })).map(([row, shift]) => (s: string) => {
      const lines = s.split('\n');
      const i = row % lines.length;
      lines[i] = shift >= 0 ? ' '.repeat(shift) + lines[i] : lines[i]!.replace(new RegExp(`^ {0,${-shift}}`), '');
      return lines.join('\n');
    }),
  );
  const mutated = fc
    .tuple(written, fc.array(edit, { minLength: 1, maxLength: 3 }))
    .map(([s, edits]) => edits.reduce((t, f) => f(t), s));

  function campaign(texts: fc.Arbitrary<string>, runs: number): Record<Verdict['kind'], number> {
    const counts = { equal: 0, deferred: 0, 'refused-by-both': 0, wrong: 0 };
    fc.assert(
      fc.property(texts, (t) => {
        const verdict = judge(t);
        counts[verdict.kind]++;
        if (verdict.kind === 'wrong') throw new Error(`${verdict.detail}\n--- text ---\n${JSON.stringify(t)}`);
      }),
      { numRuns: runs },
    );
    return counts;
  }

  it("gives js-yaml's tree for what both libraries write, and reads most of it", (t) => {
    const counts = campaign(written, 1500);
    t.diagnostic(`written: ${JSON.stringify(counts)}`);
    assert.ok(counts.equal >= 1500 * 0.5, `read only ${counts.equal} of 1500 written texts: ${JSON.stringify(counts)}`);
  });

  it('never reads an edited text differently from js-yaml, nor one it refuses', (t) => {
    const counts = campaign(mutated, 3000);
    t.diagnostic(`edited: ${JSON.stringify(counts)}`);
    // Most edits break the text for js-yaml too; of those it reads, the reader must read a good share.
    assert.ok(
      counts.equal >= (counts.equal + counts.deferred) * 0.4,
      `read only ${counts.equal} of ${counts.equal + counts.deferred} edited texts js-yaml reads: ${JSON.stringify(counts)}`,
    );
  });
});
