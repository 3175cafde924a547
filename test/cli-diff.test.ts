/**
 * `oscal-depot diff OLD NEW`, the built command: its exit status is diff(1)'s (0 equal, 1
 * different, 2 trouble), and each report format says what changed. NIST's LOW baseline is the
 * same profile in XML and in JSON, so the two compare equal; an edited copy differs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { CLI_BIN as BIN } from './support/serve-process.js';
import { REV5_A849 } from './support/shared.js';

const work = mkdtempSync(join(tmpdir(), 'oscal-diff-'));
const LOW_XML = join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_LOW-baseline_profile.xml');
const LOW_JSON = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_LOW-baseline_profile.json');
const CATALOG = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');

function diff(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'diff', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The LOW baseline with `edit` applied, written as JSON to a file of its own. */
function editedLow(name: string, edit: (profile: Record<string, any>) => void): string {
  const doc = JSON.parse(readFileSync(LOW_JSON, 'utf8'));
  edit(doc.profile);
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

const EDITED = editedLow('low-edited.json', (profile) => {
  profile.metadata.title += ', trimmed';
  const ids: string[] = profile.imports[0]['include-controls'][0]['with-ids'];
  ids.splice(ids.indexOf('ac-2'), 1);
});

describe('oscal-depot diff', () => {
  test('the same profile in XML and in JSON: equal, exit 0, in every format', () => {
    const text = diff(LOW_XML, LOW_JSON);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, 'profile (OSCAL 1.0.0): no differences\n');
    assert.equal(text.stderr, '');
    const json = diff(LOW_XML, LOW_JSON, '--format', 'json');
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.equal(report.equal, true);
    assert.deepEqual(report.changes, []);
    const markdown = diff(LOW_XML, LOW_JSON, '--format', 'markdown');
    assert.equal(markdown.code, 0, markdown.stderr);
    assert.match(markdown.stdout, /^# .*\n\nOSCAL 1\.0\.0: no differences\.\n$/);
  });

  test('an edited title and a removed control: exit 1, and the text report names both', () => {
    const r = diff(LOW_XML, EDITED);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, '');
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], 'profile (OSCAL 1.0.0): 3 changes: 1 added, 1 removed, 0 moved, 1 changed');
    assert.equal(lines[1], '  controls deselected (1): ac-2');
    const metadata = lines.indexOf(
      'changed metadata "NIST Special Publication 800-53 Revision 5 LOW IMPACT BASELINE, trimmed" at /profile/metadata',
    );
    assert.notEqual(metadata, -1, r.stdout);
    assert.equal(lines[metadata + 1], '    title: … 800-53 Revision 5 LOW IMPACT [-BASELINE-]{+BASELINE, trimmed+}');
    // include-controls entries have no key of their own: the one that lost ac-2 is replaced.
    assert.ok(lines.includes('removed select-control-by-id at /profile/imports/0/include-controls/0'), r.stdout);
  });

  test('--format json: the report, with the changes and the summary', () => {
    const r = diff(LOW_XML, EDITED, '--format', 'json');
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.model, 'profile');
    assert.equal(report.equal, false);
    assert.deepEqual(report.summary.profile.controlsDeselected, ['ac-2']);
    const title = report.changes
      .find((c: any) => c.path === '/profile/metadata')
      .fields.find((f: any) => f.field === 'title');
    assert.equal(title.old, 'NIST Special Publication 800-53 Revision 5 LOW IMPACT BASELINE');
    assert.match(title.new, /, trimmed$/);
    assert.ok(report.changes.some((c: any) => c.kind === 'removed' && c.object === 'select-control-by-id'));
  });

  test('--format markdown: a heading, the summary as a list, the words struck out and added', () => {
    const r = diff(LOW_XML, EDITED, '--format', 'markdown');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^# Differences between two profile documents\n/);
    assert.match(r.stdout, /^- Controls deselected \(1\): `ac-2`$/m);
    assert.match(r.stdout, /^ {2}- title: … 800-53 Revision 5 LOW IMPACT ~~BASELINE~~ \*\*BASELINE, trimmed\*\*$/m);
    assert.match(r.stdout, /^- \*\*removed\*\* select-control-by-id at `\/profile\/imports\/0\/include-controls\/0`$/m);
  });

  test('content cannot break a report: Markdown stays one list item per change, the terminal sees no control characters', () => {
    const catalog = (name: string, title: string, remarks: string, control: string) => {
      const file = join(work, `hostile-${name}.json`);
      const metadata = {
        title,
        remarks,
        'last-modified': '2024-01-01T00:00:00Z',
        version: '1',
        'oscal-version': '1.1.2',
      };
      const controls = [{ id: 'c-1', title: control }];
      writeFileSync(
        file,
        JSON.stringify({ catalog: { uuid: '5c7d5b0c-3e0a-4f0e-9a57-3c1c2b7c8e01', metadata, controls } }),
      );
      return file;
    };
    const hostile =
      'Plain\n\n# Heading\n- item\n1. one\n===\n<script>alert(1)</script> [link](javascript:x) `code` | a | \u009b2J\u202e';
    // In the remarks a changed word ends a line, so the next line begins where a change ends.
    const older = catalog('old', 'Catalog', 'Intro\n- item\n# head', 'One');
    const newer = catalog('new', `Catalog *${hostile}*`, `Other\n- item\n# head\n${hostile}`, hostile);
    const markdown = diff(older, newer, '--format', 'markdown');
    assert.equal(markdown.code, 1, markdown.stderr);
    const html = new MarkdownIt({ html: true }).render(markdown.stdout);
    assert.doesNotMatch(html, /<script|<h[2-6]>[^<]*Heading|<a /);
    assert.equal(html.match(/<h1>/g)?.length, 1);
    assert.equal(html.match(/<ol>/g), null);
    // Two changes (metadata's title and remarks, the control's title), each one item, a field an item within.
    assert.equal(html.match(/<li><strong>changed<\/strong>/g)?.length, 2, markdown.stdout);
    assert.equal(html.match(/<li>(title|remarks):/g)?.length, 3, markdown.stdout);
    assert.equal(html.match(/<li>/g)?.length, 5, markdown.stdout);
    for (const form of ['text', 'markdown']) {
      const r = diff(older, newer, '--format', form);
      assert.doesNotMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, form);
      assert.match(r.stdout, /\\u009b2J/, form);
    }
  });

  test('--ignore-volatile: a new last-modified alone is no difference', () => {
    const saved = editedLow('low-saved.json', (profile) => {
      profile.metadata['last-modified'] = '2030-01-01T00:00:00Z';
    });
    assert.equal(diff(LOW_JSON, saved).code, 1);
    const r = diff(LOW_JSON, saved, '--ignore-volatile');
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  test('a missing file, a file that is not OSCAL, two models, a bad option: exit 2, on standard error', () => {
    const missing = join(work, 'nothing-here.json');
    const notOscal = join(work, 'not-oscal.json');
    writeFileSync(notOscal, '{"hello": "world"}');
    const cases: [string[], RegExp][] = [
      [[missing, LOW_JSON], /nothing-here\.json: ENOENT/],
      [[LOW_JSON, notOscal], /not-oscal\.json/],
      [[CATALOG, LOW_JSON], /^oscal-depot: a catalog and a profile cannot be compared/],
      [[LOW_XML, LOW_JSON, '--format', 'html'], /argument 'html' is invalid/],
      [[LOW_XML], /missing required argument 'new'/],
    ];
    for (const [args, message] of cases) {
      const r = diff(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
    }
  });
});
