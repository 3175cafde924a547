/**
 * `oscal-depot metapath FILE EXPRESSION`, the built command, over NIST's SP 800-53 rev5 catalog:
 * what it prints is checked against the catalog's own JSON (the title of ac-1, the number of
 * controls, the value a pointer names), whichever format the catalog is read from; and every
 * failure is one line on standard error with exit status 2.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_BIN as BIN } from './support/serve-process.js';
import { REV5_A849 } from './support/shared.js';
import { controlsIn } from './support/documents.js';

const CATALOG_JSON = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');
const CATALOG_XML = join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_catalog.xml');
const CATALOG_YAML = join(REV5_A849, 'yaml', 'NIST_SP-800-53_rev5_catalog.yaml');
const catalog = JSON.parse(readFileSync(CATALOG_JSON, 'utf8'));

function metapath(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, 'metapath', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...(input !== undefined ? { input } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function atPointer(doc: any, pointer: string): any {
  return pointer
    .split('/')
    .slice(1)
    .reduce((v, s) => v[s.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/** A failure: nothing on standard output, one line on standard error, exit 2. */
function assertStopped(r: ReturnType<typeof metapath>, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^oscal-depot: [^\n]+\n$/, 'one line');
  assert.match(r.stderr, pattern);
}

const AC1_TITLE = controlsIn(catalog.catalog).find((c) => c.id === 'ac-1').title as string;

describe('oscal-depot metapath', () => {
  test("//control[@id='ac-1']/title prints the node's Metapath and the title, from JSON, XML and YAML alike", () => {
    const outputs = [CATALOG_JSON, CATALOG_XML, CATALOG_YAML].map((file) => {
      const r = metapath([file, "//control[@id='ac-1']/title"]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    });
    const [line, ...rest] = outputs[0]!.split('\n');
    assert.deepEqual(rest, ['']);
    const [path, text] = line!.split('\t');
    assert.match(path!, /^\/catalog\[1\]\/group\[\d+\]\/control\[\d+\]\/title\[1\]$/);
    assert.equal(text, AC1_TITLE);
    assert.equal(outputs[1], outputs[0]);
    assert.equal(outputs[2], outputs[0]);
  });

  test('count(//control) prints the number of controls in the catalog', () => {
    const r = metapath([CATALOG_JSON, 'count(//control)']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${controlsIn(catalog.catalog).length}\n`);
  });

  test("standard input with --from, and the file and expression by oscal-cli's -i and -e", () => {
    const fromStdin = metapath(['--from', 'json', '-', '/catalog/metadata/title'], readFileSync(CATALOG_JSON, 'utf8'));
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.equal(fromStdin.stdout, `/catalog[1]/metadata[1]/title[1]\t${catalog.catalog.metadata.title}\n`);
    const flags = metapath(['-e', '/catalog/metadata/title', '-i', CATALOG_JSON]);
    assert.equal(flags.stdout, fromStdin.stdout);
  });

  test('--json gives each item with its kind: a node with a pointer into the JSON form, atomic values with their types', () => {
    const r = metapath(['--json', CATALOG_JSON, "//control[@id='ac-2']/@id, count(//group), 'x', 2.5, true()"]);
    assert.equal(r.code, 0, r.stderr);
    const items = JSON.parse(r.stdout);
    assert.equal(items.length, 5);
    const [flag, groups, string, decimal, boolean] = items;
    assert.equal(flag.kind, 'node');
    assert.match(flag.metapath, /\/control\[\d+\]\/@id$/);
    assert.equal(atPointer(catalog, flag.pointer), 'ac-2');
    assert.equal(flag.text, 'ac-2');
    assert.deepEqual(groups, { kind: 'atomic', type: 'xs:integer', value: catalog.catalog.groups.length });
    assert.deepEqual(string, { kind: 'atomic', type: 'xs:string', value: 'x' });
    assert.deepEqual(decimal, { kind: 'atomic', type: 'xs:decimal', value: '2.5' });
    assert.deepEqual(boolean, { kind: 'atomic', type: 'xs:boolean', value: true });
  });

  test('an empty result prints nothing and succeeds', () => {
    const r = metapath([CATALOG_JSON, "//control[@id='no-such-control']"]);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  });

  test('a bad expression is exit 2, naming the line and column in it and the W3C code', () => {
    assertStopped(metapath([CATALOG_JSON, '//control[']), /line 1, column 11: .*\[XPST0003\]/);
    assertStopped(metapath([CATALOG_JSON, 'count(//control)\n  + )']), /line 2, column 5: .*\[XPST0003\]/);
    assertStopped(metapath([CATALOG_JSON, 'count(//control) + no-such-function()']), /no-such-function.*\[XPST0017\]/);
  });

  test('an error while evaluating is exit 2 with its code and where', () => {
    assertStopped(metapath([CATALOG_JSON, "'a' + count(//control)"]), /line 1, column 5: .*\[XPTY0004\]/);
  });

  test('a missing file is one plain line, exit 2', () => {
    const r = metapath([join(REV5_A849, 'json', 'no-such-catalog.json'), 'count(//control)']);
    assertStopped(r, /no-such-catalog\.json: no such file/);
    assert.doesNotMatch(r.stderr, /ENOENT|at .*\.js/);
  });

  test('no expression is exit 2 saying what to give', () => {
    assertStopped(metapath([CATALOG_JSON]), /oscal-depot metapath FILE EXPRESSION/);
  });
});
