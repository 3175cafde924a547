/**
 * FedRAMP's published rules judged the way oscal-cli reports them: the CLI runs both FedRAMP
 * sets with schema validation off over the partial SSPs of test/fixtures/fedramp-rules (one
 * where each rule fails, one where it holds), and each rule's SARIF results must say so. Then the
 * sets run, schema validation on, over NIST's SSP example: the engine must evaluate every rule
 * there without a processing error of its own.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_BIN } from './support/serve-process.js';
import { CONTENT, PROJECT_ROOT, SHARED } from './support/shared.js';

type Json = Record<string, any>;

const DIR = join(PROJECT_ROOT, 'test', 'fixtures', 'fedramp-rules');
const FEDRAMP = join(SHARED, 'constraints', 'fedramp-automation@b79ec536');
const SETS = ['fedramp-external-constraints.xml', 'fedramp-external-allowed-values.xml'].map((f) => join(FEDRAMP, f));

/** The rules of each family, each with a .fail.xml and a .hold.xml document. */
const FAMILIES: Record<string, string[]> = {
  'data centers': ['data-center-country-code', 'data-center-us'],
  'parties and roles': [
    'party-has-name',
    'responsible-party-is-person',
    'responsible-party-prepared-by',
    'responsible-party-prepared-by-location-valid',
    'responsible-party-prepared-for',
    'responsible-party-prepared-for-location-valid',
    'role-defined-authorizing-official-poc',
    'role-defined-information-system-security-officer',
    'role-defined-prepared-by',
    'role-defined-prepared-for',
    'role-defined-system-owner',
  ],
  components: [
    'component-has-authentication-method',
    'component-has-non-provider-responsible-role',
    'component-has-provider-responsible-role',
    'component-has-used-by-link',
    'network-component-has-connection-security-prop',
    'network-component-has-implementation-point',
    'used-by-link-references-component',
    'authentication-method-has-remarks',
    'non-provider-responsible-role-references-user',
    'component-type',
  ],
  'implemented requirements': [
    'by-component-has-responsible-role',
    'implementation-status-has-remarks',
    'statement-has-this-system-component',
    'missing-response-components',
    'misplaced-response-components',
    'control-implementation-status',
    'has-required-response-points',
    'has-required-parameters',
    'aggregate-parameters-warning',
    'incomplete-implemented-requirements',
    'extraneous-implemented-requirements',
    'import-profile-has-available-document',
    'import-profile-resolves-to-fedramp-content',
  ],
};

/** Rules that count `/location/...`, which selects nothing in an SSP: they fail on every one (see the fixtures' README). */
const ROOT_PATH_RULES = ['data-center-alternate', 'data-center-count', 'data-center-primary'];

/** NIST's rev5 LOW baseline by its published URL, and the catalog it imports, read from ../shared. */
const NIST_LOW_URL =
  'https://raw.githubusercontent.com/usnistgov/oscal-content/main/nist.gov/SP800-53/rev5/xml/NIST_SP-800-53_rev5_LOW-baseline_profile.xml';
const REV5_XML = join(CONTENT, 'oscal-content@88bb8de', 'nist.gov', 'SP800-53', 'rev5', 'xml');
const MAPS = [
  `${NIST_LOW_URL}=${join(REV5_XML, 'NIST_SP-800-53_rev5_LOW-baseline_profile.xml')}`,
  `file://${join(REV5_XML, 'NIST_SP-800-53_rev5_catalog.xml')}=${join(CONTENT, 'oscal-content@a849dbc', 'nist.gov', 'SP800-53', 'rev5', 'xml', 'NIST_SP-800-53_rev5_catalog.xml')}`,
];

function validate(args: string[]): string {
  const setArgs = SETS.flatMap((s) => ['--constraints', s]);
  const r = spawnSync(process.execPath, [CLI_BIN, 'validate', ...setArgs, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  assert.ok(r.status === 0 || r.status === 1, `validate exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

const fixture = (rule: string, kind: 'fail' | 'hold' | 'root') => join(DIR, `${rule}.${kind}.xml`);
const allRules = Object.values(FAMILIES).flat();
const files = [
  ...allRules.flatMap((rule) => [fixture(rule, 'fail'), fixture(rule, 'hold')]),
  ...ROOT_PATH_RULES.flatMap((rule) => [fixture(rule, 'fail'), fixture(rule, 'root')]),
];

/** Every fixture in one process, as oscal-cli's users run a folder of test documents. */
const run = (() => {
  let sarif: Json | undefined;
  let json: Json[] | undefined;
  const common = ['--disable-schema-validation', ...MAPS.flatMap((m) => ['--map', m])];
  return {
    /** SARIF results by file. */
    sarif(): Map<string, Json[]> {
      sarif ??= JSON.parse(validate([...common, '--format', 'sarif', '--sarif-include-pass', ...files]));
      const byFile = new Map<string, Json[]>();
      for (const r of sarif!.runs[0].results) {
        const file = r.locations[0].physicalLocation.artifactLocation.uri;
        byFile.set(file, [...(byFile.get(file) ?? []), r]);
      }
      return byFile;
    },
    json(): Json[] {
      json ??= JSON.parse(validate([...common, '--format', 'json', ...files]));
      return json!;
    },
  };
})();

function kindsFor(rule: string, file: string): string[] {
  return (run.sarif().get(file) ?? []).filter((r) => r.ruleId === rule).map((r) => r.kind);
}

describe('FedRAMP rules on partial SSPs, schema validation off', () => {
  test('every rule named here is one of the two sets, and has its documents', () => {
    const text = SETS.map((s) => readFileSync(s, 'utf8')).join('\n');
    const ids = new Set([...text.matchAll(/\bid=["']([^"']+)["']/g)].map((m) => m[1]));
    for (const rule of [...allRules, ...ROOT_PATH_RULES]) assert.ok(ids.has(rule), rule);
    for (const file of files) assert.ok(existsSync(file), relative(PROJECT_ROOT, file));
  });

  for (const [family, rules] of Object.entries(FAMILIES)) {
    describe(family, () => {
      for (const rule of rules) {
        test(`${rule}: fails on its fail document, holds on its hold document`, () => {
          const failed = kindsFor(rule, fixture(rule, 'fail'));
          assert.ok(failed.includes('fail'), `${rule}.fail.xml: expected a fail result, got [${failed.join(', ')}]`);
          const held = kindsFor(rule, fixture(rule, 'hold'));
          assert.ok(held.includes('pass'), `${rule}.hold.xml: expected a pass result, got [${held.join(', ')}]`);
          assert.ok(!held.includes('fail'), `${rule}.hold.xml: expected no fail result, got [${held.join(', ')}]`);
        });
      }
    });
  }

  test('the data-center rules that count /location fail even where the metadata has a primary and an alternate data center', () => {
    for (const rule of ROOT_PATH_RULES) {
      for (const kind of ['fail', 'root'] as const) {
        const kinds = kindsFor(rule, fixture(rule, kind));
        assert.ok(kinds.includes('fail'), `${rule}.${kind}.xml: expected a fail result, got [${kinds.join(', ')}]`);
        assert.ok(!kinds.includes('pass'), `${rule}.${kind}.xml: expected no pass result, got [${kinds.join(', ')}]`);
      }
    }
  });

  test("an index-has-key failure is worded by the rule's message, its templates read on the node without a key", () => {
    const failText = (rule: string) =>
      (run.sarif().get(fixture(rule, 'fail')) ?? [])
        .filter((r) => r.ruleId === rule && r.kind === 'fail')
        .map((r) => r.message.text);
    assert.deepEqual(failText('has-required-response-points'), [
      'All Response points defined in the baseline MUST have corresponding statements values in the SSP. Missing statement: (ac-1_smt.b).',
    ]);
    assert.deepEqual(failText('has-required-parameters'), [
      'A FedRAMP SSP must define all parameters for all controls from the imported baseline. The following parameters are defined in the baseline, but not properly set in the SSP: (ac-1_prm_2).',
    ]);
    assert.deepEqual(failText('responsible-party-is-person'), [
      "For roles 'system-owner' and 'information-system-security-officer', the responsible-role party MUST be a party of type 'person'.",
    ]);
  });

  test('no rule meets a processing error, but for the doc() of a profile that is not there', () => {
    const errors = run
      .json()
      .flatMap((r) =>
        r.issues.filter((i: Json) => i.code === 'constraint-error').map((i: Json) => ({ file: r.file, i })),
      )
      .map(({ file, i }) => `${relative(DIR, file)}: ${i.constraintId}: ${i.message}`);
    // fn:doc() of a missing document is an error (FODC0002), in metaschema-java as here.
    const expected =
      /^import-profile-has-available-document\.fail\.xml: import-profile-resolves-to-fedramp-content: .*\[FODC0002\]$/;
    assert.deepEqual(
      errors.filter((e) => !expected.test(e)).map((e) => e.slice(0, 300)),
      [],
    );
    assert.equal(errors.length, 1, errors.join('\n'));
  });
});

describe("FedRAMP's sets on NIST's SSP example, schema validation on", () => {
  const example = join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp');
  const docs = [join(example, 'json', 'ssp-example.json'), join(example, 'xml', 'ssp-example.xml')];

  test('both formats: every rule evaluated, the only processing errors those of the three hrefs its import-profile names', () => {
    const results: Json[] = JSON.parse(validate(['--format', 'json', ...docs]));
    const failing: string[][] = [];
    for (const r of results) {
      assert.equal(r.constraintsChecked, true, `${r.file}: constraints were not checked`);
      const errors = r.issues.filter((i: Json) => i.code === 'constraint-error');
      // import-profile names a back-matter resource with three rlinks (XML, JSON, YAML), so
      // $resolved-import-profile-href is three strings, and doc-available() and resolve-uri()
      // take at most one: a type error (XPTY0004) in metaschema-java too.
      assert.deepEqual(
        errors.map((i: Json) => i.constraintId).sort(),
        [
          'import-profile-has-available-document',
          'import-profile-resolves-to-fedramp-content',
          'let $profile-is-available',
        ],
        errors.map((i: Json) => `${i.constraintId}: ${i.message}`).join('\n'),
      );
      for (const i of errors) assert.match(i.message, /XPTY0004/);
      failing.push(
        [
          ...new Set(
            r.issues
              .filter((i: Json) => i.constraintId && i.code !== 'constraint-error')
              .map((i: Json) => i.constraintId),
          ),
        ].sort() as string[],
      );
    }
    assert.deepEqual(failing[0], failing[1], 'the JSON and the XML example fail the same rules');
    // It is not a FedRAMP SSP: among others, it names no FedRAMP roles or data centers.
    for (const rule of [
      'role-defined-system-owner',
      'responsible-party-prepared-by',
      'data-center-count',
      'fedramp-version',
    ])
      assert.ok(failing[0]!.includes(rule), rule);
  });
});
