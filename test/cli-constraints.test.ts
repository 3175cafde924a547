/**
 * `oscal-depot validate` with constraints: the model's own, external sets (--constraints),
 * schema only (--no-constraints), exit codes by level, SARIF rules and pass results, and the
 * documents a set reaches read from files and --map.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { layOut, SETS_DIR, TEST_NS, webCatalog, webProfile, webSsp } from './support/constraint-web.js';
import { CONTENT } from './support/shared.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

type Json = Record<string, any>;

const SET = join(SETS_DIR, 'ssp-rules.xml');
const COMPONENT_EXAMPLE = join(
  CONTENT,
  'oscal-content@88bb8de',
  'examples',
  'component-definition',
  'json',
  'example-component-definition.json',
);
const work = mkdtempSync(join(tmpdir(), 'oscal-cli-constraints-'));
after(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'validate', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A catalog whose second control has no statement: an ERROR of the release's own constraints. */
function brokenCatalog(): string {
  const doc = webCatalog();
  delete doc.catalog.controls[1].parts;
  const file = join(work, 'broken-catalog.json');
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

describe("validate: oscal-cli's flags", () => {
  /** A catalog with neither title nor last-modified (schema errors) and a control without its statement (a model constraint). */
  function partialCatalog(withVersion = true): string {
    const doc = webCatalog();
    delete doc.catalog.metadata.title;
    if (!withVersion) delete doc.catalog.metadata['oscal-version'];
    delete doc.catalog.controls[1].parts;
    const file = join(work, `partial-${withVersion}.json`);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    return file;
  }
  const rules = (stdout: string) =>
    stdout
      .split('\n')
      .filter((l) => l.includes(' /catalog'))
      .map((l) => /\[([^\]]+)\]$/.exec(l)?.[1] ?? 'schema');

  test('schema problems and constraint findings together; --disable-schema-validation and --disable-constraint-validation take out one each', () => {
    const file = partialCatalog();
    assert.deepEqual(rules(run([file]).stdout), ['schema', 'catalog-control-require-statement-when-not-withdrawn']);
    const noSchema = run(['--disable-schema-validation', file]);
    assert.equal(noSchema.code, 1);
    assert.deepEqual(rules(noSchema.stdout), ['catalog-control-require-statement-when-not-withdrawn']);
    assert.deepEqual(rules(run(['--disable-constraint-validation', file]).stdout), ['schema']);
    assert.deepEqual(rules(run(['--no-constraints', file]).stdout), ['schema']);
  });

  test('a document that declares no release: the newest, with a note; --oscal-version chooses; an unknown release is refused', () => {
    const file = partialCatalog(false);
    const newest = run(['--disable-schema-validation', '--format', 'json', file]);
    const [result] = JSON.parse(newest.stdout);
    assert.equal(result.version, '1.2.2');
    assert.equal(result.issues[0].code, 'version-assumed');
    const chosen = JSON.parse(run(['--oscal-version', '1.1.2', '--format', 'json', file]).stdout)[0];
    assert.equal(chosen.version, '1.1.2');
    const unknown = run(['--oscal-version', '9.9', file]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /9\.9.*invalid|Allowed choices/);
  });

  test('SARIF with --sarif-include-pass and the schema off: the failing rule fails, a rule that held passes', () => {
    const file = partialCatalog();
    const log = JSON.parse(
      run(['--disable-schema-validation', '--format', 'sarif', '--sarif-include-pass', file]).stdout,
    );
    const kinds = (id: string) => log.runs[0].results.filter((r: Json) => r.ruleId === id).map((r: Json) => r.kind);
    assert.deepEqual(kinds('catalog-control-require-statement-when-not-withdrawn'), ['fail']);
    assert.ok(log.runs[0].results.some((r: Json) => r.kind === 'pass'));
    assert.ok(!log.runs[0].results.some((r: Json) => r.ruleId?.startsWith('schema-')), 'no schema results');
  });
});

describe('validate: the model constraints', () => {
  test('an ERROR finding: file:line:col path level: message [constraint id], exit 1; --no-constraints checks the schema only', () => {
    const file = brokenCatalog();
    const r = run([file]);
    assert.equal(r.code, 1, r.stderr);
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('"id": "au-2"'));
    const [first, summary, rest] = r.stdout.split('\n');
    assert.ok(first!.startsWith(`${file}:${line}:`), first);
    assert.match(first!, / \/catalog\/controls\/1 error: .* \[catalog-control-require-statement-when-not-withdrawn\]$/);
    assert.deepEqual([summary, rest], ['0 valid, 1 invalid', '']);
    const schemaOnly = run(['--no-constraints', file]);
    assert.equal(schemaOnly.code, 0);
    assert.equal(schemaOnly.stdout, '1 valid, 0 invalid\n');
  });

  test('WARNING findings are reported but the document is valid: exit 0, counted in the summary', () => {
    const r = run([COMPONENT_EXAMPLE]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.stdout.split('\n').filter((l) => / warning: .*\[port-range-(start|end)-/.test(l)).length, 6);
    assert.match(r.stdout, /\n1 valid, 0 invalid; 6 findings below ERROR\n$/);
  });
});

describe('validate --constraints', () => {
  const dir = mkdtempSync(join(work, 'web-'));
  const paths = layOut(dir, [webCatalog(), webProfile(), webSsp()]);
  const ssp = paths['system-security-plan']!;

  test('SARIF: one rule per constraint with its formal name and help URL, results located, pass results on request', () => {
    const plain = JSON.parse(run(['--format', 'sarif', '--constraints', SET, ssp]).stdout);
    assert.ok(
      plain.runs[0].results.every((r: Json) => r.kind === 'fail'),
      'no pass results unless asked',
    );
    const r = run(['--format', 'sarif', '--sarif-include-pass', '--constraints', SET, ssp]);
    assert.equal(r.code, 0, r.stdout);
    const { rules } = JSON.parse(r.stdout).runs[0].tool.driver;
    const results = JSON.parse(r.stdout).runs[0].results as Json[];
    const rule = (id: string) => rules.find((x: Json) => x.id === id);
    assert.deepEqual(rule('test-implemented-in-baseline'), {
      id: 'test-implemented-in-baseline',
      name: 'Implemented controls are in the baseline',
      helpUri: 'https://example.org/rules/implemented-in-baseline',
      defaultConfiguration: { level: 'error' },
      properties: { kind: 'index-has-key', source: SET },
    });
    const passed = results.filter((x) => x.kind === 'pass').map((x) => x.ruleId);
    assert.ok(
      passed.includes('test-implemented-in-baseline') &&
        passed.includes('test-hosting-tier') &&
        passed.includes('test-document-version'),
      passed.join(', '),
    );
    const failed = results.filter((x) => x.kind === 'fail');
    assert.deepEqual([...new Set(failed.map((x) => x.ruleId))].sort(), [
      'test-baseline-implemented',
      'test-responsible-role',
    ]);
    assert.ok(failed.every((x) => x.level === 'warning' && x.locations[0].physicalLocation.region.startLine > 0));
    assert.ok(!passed.includes('test-baseline-implemented'), 'a constraint that failed does not pass');
  });

  test('a constraint that did not apply is neither a pass nor a failure', () => {
    const doc = webSsp();
    doc['system-security-plan']['system-characteristics'].props = doc['system-security-plan'][
      'system-characteristics'
    ].props.filter((p: Json) => p.ns !== TEST_NS);
    const file = join(dir, 'system-security-plan', 'no-tier');
    writeFileSync(file, JSON.stringify(doc));
    const results = JSON.parse(run(['--format', 'sarif', '--sarif-include-pass', '--constraints', SET, file]).stdout)
      .runs[0].results as Json[];
    assert.ok(!results.some((x) => x.ruleId === 'test-hosting-tier'));
    assert.ok(results.some((x) => x.ruleId === 'test-document-version' && x.kind === 'pass'));
  });

  test('an ERROR of the set exits 1', () => {
    const doc = webSsp();
    doc['system-security-plan']['system-characteristics'].props.find((p: Json) => p.ns === TEST_NS).value = 'tenant';
    const file = join(dir, 'system-security-plan', 'tenant');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const r = run(['--constraints', SET, file]);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /\/system-security-plan\/system-characteristics\/props\/2\/value error: prop\/@value is "tenant"; it must be one of: shared, dedicated \[test-hosting-tier\]/,
    );
  });

  test('a document the set reaches by URL is read from the file --map names', () => {
    const doc = webSsp();
    doc['system-security-plan']['import-profile'].href = 'https://example.org/baselines/audit.json';
    const file = join(work, 'mapped-ssp.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const unmapped = run(['--constraints', SET, file]);
    assert.equal(unmapped.code, 1);
    assert.match(unmapped.stdout, /error: .*https:\/\/example\.org\/baselines\/audit\.json.*--map/);
    const mapped = run([
      '--constraints',
      SET,
      '--map',
      `https://example.org/baselines/audit.json=${paths.profile}`,
      file,
    ]);
    assert.equal(mapped.code, 0, mapped.stdout);
    assert.match(
      mapped.stdout,
      /warning: 1 of 2 baseline controls are not implemented: au-2 \[test-baseline-implemented\]/,
    );
  });

  test('an import-profile of "#uuid" reaches the profile through the back-matter resource\'s rlink', () => {
    const doc = webSsp();
    const ssp0 = doc['system-security-plan'];
    const resource = '0d7f4a1e-2b3c-4d5e-8f9a-0b1c2d3e4f5a';
    ssp0['import-profile'].href = `#${resource}`;
    ssp0['back-matter'].resources.push({
      uuid: resource,
      rlinks: [{ href: `../profile/${webProfile().profile.uuid}` }],
    });
    const file = join(dir, 'system-security-plan', 'by-resource');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const r = run(['--constraints', SET, file]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /warning: 1 of 2 baseline controls are not implemented: au-2 \[test-baseline-implemented\]/);
  });

  test('a profile that cannot be resolved is a finding that says why', () => {
    const profile = webProfile();
    profile.profile.imports[0].href = '../catalog/no-such-catalog';
    const profileFile = join(work, 'unresolvable-profile.json');
    writeFileSync(profileFile, JSON.stringify(profile));
    const doc = webSsp();
    doc['system-security-plan']['import-profile'].href = 'https://example.org/unresolvable.json';
    const file = join(work, 'unresolvable-ssp.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const r = run(['--constraints', SET, '--map', `https://example.org/unresolvable.json=${profileFile}`, file]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /error: .*the profile cannot be resolved: .*no-such-catalog.*no such file/);
  });

  test('a set that cannot be used ends the command with exit 2 and the file, line and expression', () => {
    const setDir = mkdtempSync(join(work, 'sets-'));
    writeFileSync(join(setDir, 'common-rules.xml'), readFileSync(join(SETS_DIR, 'common-rules.xml')));
    const bad = join(setDir, 'bad-set.xml');
    writeFileSync(
      bad,
      readFileSync(SET, 'utf8').replace('test="exists(responsible-role)"', 'test="exists(responsible-role"'),
    );
    const r = run(['--constraints', bad, ssp]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    const line =
      readFileSync(bad, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('exists(responsible-role"')) + 1;
    assert.match(r.stderr, new RegExp(`bad-set\\.xml:${line}\\b.*exists\\(responsible-role`));
    assert.doesNotMatch(r.stderr, /^\s+at /m);
    const missingImport = join(work, 'lonely.xml');
    writeFileSync(missingImport, readFileSync(SET, 'utf8'));
    const m = run(['--constraints', missingImport, ssp]);
    assert.equal(m.code, 2);
    assert.match(m.stderr, /common-rules\.xml/);
  });
});
