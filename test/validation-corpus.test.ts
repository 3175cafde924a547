/**
 * A corpus of mutated OSCAL documents (test/validation-corpus/) judged by our validator and,
 * for OSCAL 1.0.x, by NIST's official JSON Schemas of the declared release.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serializeOscal, type Format } from '../src/oscal/formats/index.js';
import { validateText, type ValidationResult } from '../src/oscal/validate/index.js';
import { NIST_SCHEMA_VERSIONS, nistVerdict, relevantErrors, type OracleVerdict } from './support/nist-oracle.js';
import { BASES, LINES, MODELS, type Base } from './validation-corpus/bases.js';
import { declaredVersion, MUTATION_KINDS, type CorpusCase, type Verdict } from './validation-corpus/corpus.js';
import { CASES } from './validation-corpus/index.js';
import { applyEdits, type Json } from './validation-corpus/json-edit.js';
import { NIST_SCHEMA_BUGS } from './validation-corpus/nist-schema-bugs.js';

const verdictOf = (valid: boolean): Verdict => (valid ? 'valid' : 'invalid');

function describeIssues(result: ValidationResult): string {
  return result.issues.map((i) => `${i.code} ${i.path || '/'}: ${i.message}`).join('\n  ') || '(none)';
}

/**
 * Our validator on the document written in `format`. The XML writer lays the document out by
 * the model of `version`, which for a document declaring no release is its base's.
 */
function ours(doc: Json, model: string, version: string, format: Format): ValidationResult {
  if (format === 'json') return validateText(JSON.stringify(doc, null, 2), { format });
  const text = serializeOscal({ model, version, content: doc as Record<string, unknown> }, format);
  return validateText(text, { format });
}

interface Prepared {
  doc: Json;
  declared: string | undefined;
  /** NIST's verdict, when the document declares a release NIST published a JSON Schema for. */
  oracle?: OracleVerdict;
  /** What our validator must say. */
  expected: Verdict;
  /** Where the expected verdict comes from, for messages. */
  judge: string;
}

const prepared = new Map<CorpusCase, Prepared>();

function prepare(c: CorpusCase): Prepared {
  let p = prepared.get(c);
  if (!p) {
    const doc = applyEdits(c.base.json(), c.base.model, c.edits);
    const declared = declaredVersion(doc);
    const oracle =
      declared !== undefined && NIST_SCHEMA_VERSIONS.includes(declared) ? nistVerdict(doc, declared) : undefined;
    const knownBug = NIST_SCHEMA_BUGS.get(c.name);
    if (oracle && !knownBug) {
      p = { doc, declared, oracle, expected: verdictOf(oracle.valid), judge: `NIST's ${declared} JSON Schema` };
    } else {
      p = {
        doc,
        declared,
        expected: c.expect,
        judge: knownBug ? `the corpus (NIST's schema is wrong here: ${knownBug})` : 'the corpus',
      };
      if (oracle) p.oracle = oracle;
    }
    prepared.set(c, p);
  }
  return p;
}

function countBy<T>(items: readonly T[], key: (item: T) => string, order: readonly string[]): string {
  const counts = new Map(order.map((k) => [k, 0]));
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
}

const byModel = countBy(CASES, (c) => c.base.model, MODELS);
const byLine = countBy(
  CASES,
  (c) => `${c.base.line}.x`,
  LINES.map((l) => `${l}.x`),
);
const byKind = countBy(CASES, (c) => c.kind, MUTATION_KINDS);
const fedAs = (format: 'xml' | 'yaml') => CASES.filter((c) => c.alsoAs.includes(format)).length;

describe('validation corpus', () => {
  test(`corpus: ${CASES.length} cases (${byModel}); by release line: ${byLine}; also as XML ${fedAs('xml')}, as YAML ${fedAs('yaml')}`, () => {
    assert.ok(CASES.length >= 150, `only ${CASES.length} cases`);
    for (const model of MODELS) {
      const lines = new Set(CASES.filter((c) => c.base.model === model).map((c) => c.base.line));
      const count = CASES.filter((c) => c.base.model === model).length;
      assert.ok(count >= 8, `${model} has only ${count} cases`);
      // mapping-collection exists from 1.2 on; every other model is covered in all three lines.
      if (model !== 'mapping-collection')
        assert.deepEqual([...lines].sort(), [...LINES], `${model} is missing a release line`);
    }
  });

  test(`cases by mutation kind: ${byKind}`, () => {
    for (const kind of MUTATION_KINDS)
      assert.ok(
        CASES.some((c) => c.kind === kind),
        `no ${kind} case`,
      );
    assert.equal(new Set(CASES.map((c) => c.name)).size, CASES.length, 'case names must be unique');
  });
});

describe('bases are valid for our validator and for NIST', () => {
  const check = (base: Base, format: Format) => {
    const doc = base.json();
    const result = ours(doc, base.model, base.version, format);
    assert.equal(result.valid, true, `our validator rejects the base:\n  ${describeIssues(result)}`);
    assert.equal(result.model, base.model);
    assert.equal(result.version, base.version);
  };
  for (const base of BASES) {
    test(`${base.id} (${base.from})`, () => {
      check(base, 'json');
      if (NIST_SCHEMA_VERSIONS.includes(base.version)) {
        const verdict = nistVerdict(base.json(), base.version);
        assert.equal(
          verdict.valid,
          true,
          `NIST's ${base.version} schema rejects the base:\n  ${relevantErrors(verdict).join('\n  ')}`,
        );
      } else {
        assert.ok(base.line !== '1.0', "every 1.0.x base is checked by NIST's schema");
      }
    });
    for (const format of ['xml', 'yaml'] as const)
      test(`${base.id} as ${format.toUpperCase()}`, () => check(base, format));
  }
});

describe("NIST's 1.0.x schemas as the oracle", () => {
  test("the stated verdict of every 1.0.x case is NIST's, except where NIST's schema is listed as wrong", () => {
    const differing = CASES.filter((c) => {
      const p = prepare(c);
      return p.oracle && !NIST_SCHEMA_BUGS.has(c.name) && verdictOf(p.oracle.valid) !== c.expect;
    });
    assert.deepEqual(
      differing.map((c) => `${c.name}: NIST says ${verdictOf(prepare(c).oracle!.valid)}`),
      [],
    );
  });

  for (const [name, bug] of NIST_SCHEMA_BUGS) {
    test(`NIST's schema still misjudges: ${name}`, () => {
      const c = CASES.find((x) => x.name === name);
      assert.ok(c, 'the listed case is in the corpus');
      const p = prepare(c);
      assert.ok(p.oracle, 'the case declares a release NIST published a schema for');
      assert.notEqual(verdictOf(p.oracle.valid), c.expect, `NIST's ${p.declared} schema no longer shows: ${bug}`);
    });
  }
});

function formatsOf(c: CorpusCase): Format[] {
  return ['json', ...c.alsoAs];
}

describe('our verdict on every case', () => {
  for (const c of CASES) {
    for (const format of formatsOf(c)) {
      test(`${c.name} [${format}]`, () => {
        const p = prepare(c);
        const result = ours(p.doc, c.base.model, p.declared ?? c.base.version, format);
        const oracleSays = p.oracle
          ? `\nNIST's ${p.declared} schema: ${p.oracle.valid ? 'valid' : relevantErrors(p.oracle).join('; ')}`
          : '';
        assert.equal(
          verdictOf(result.valid),
          p.expected,
          `expected ${p.expected} per ${p.judge}; our issues:\n  ${describeIssues(result)}${oracleSays}`,
        );
        if (c.path !== undefined) {
          assert.deepEqual(
            [...new Set(result.issues.map((i) => i.path))],
            [c.path],
            `issue paths:\n  ${describeIssues(result)}`,
          );
        }
      });
    }
  }
});
