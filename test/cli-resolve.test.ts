import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { parseOscal } from '../src/oscal/formats/index.js';
import { scrub } from './support/resolve.js';
import { REV5_A849 } from './support/shared.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

const work = mkdtempSync(join(tmpdir(), 'oscal-resolve-'));

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, 'resolve', ...args], { cwd: work, input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const published = (format: 'xml' | 'json', name: string) =>
  scrub(parseOscal(readFileSync(join(REV5_A849, format, `NIST_SP-800-53_rev5_${name}.${format}`), 'utf8')).content);

writeFileSync(
  join(work, 'catalog.json'),
  JSON.stringify({
    catalog: {
      uuid: '00000000-0000-4000-8000-000000000001',
      metadata: { title: 'C', 'last-modified': '2024-01-01T00:00:00Z', version: '1', 'oscal-version': '1.1.2' },
      controls: [
        { id: 'c-1', title: 'One' },
        { id: 'c-2', title: 'Two' },
      ],
    },
  }),
);
const profileXml = (imports: string) => `<?xml version="1.0" encoding="UTF-8"?>
<profile xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="00000000-0000-4000-8000-000000000002">
  <metadata>
    <title>P</title>
    <last-modified>2024-01-01T00:00:00Z</last-modified>
    <version>1</version>
    <oscal-version>1.1.2</oscal-version>
  </metadata>${imports}
</profile>
`;

describe('oscal-depot resolve', () => {
  test("resolves a published XML baseline, importing the catalog beside it; output in the profile's format by default", () => {
    const r = run([join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_LOW-baseline_profile.xml'), '--to', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(scrub(JSON.parse(r.stdout)), published('xml', 'LOW-baseline-resolved-profile_catalog'));
  });

  test('--map points an import at a local file; -o writes the file and links the profile relative to it', () => {
    const profile = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_LOW-baseline_profile.json');
    const out = join(work, 'low.json');
    const r = run([
      profile,
      '-o',
      out,
      '--map',
      `NIST_SP-800-53_rev5_catalog.xml=${join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json')}`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const result = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(scrub(result), published('json', 'LOW-baseline-resolved-profile_catalog'));
    const links = result.catalog.metadata.links;
    assert.deepEqual(links, [{ href: relative(work, profile), rel: 'source-profile' }]);
    assert.match(
      result.catalog.metadata.props.find((p: { name: string }) => p.name === 'resolution-tool').value,
      /^oscal-depot \d+\.\d+\.\d+$/,
    );
  });

  test('XML and YAML output carry the same catalog', () => {
    writeFileSync(join(work, 'two.xml'), profileXml('\n  <import href="catalog.json"><include-all/></import>'));
    const json = run(['two.xml', '--to', 'json']);
    for (const format of ['xml', 'yaml']) {
      const r = run(['two.xml', '--to', format]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(scrub(parseOscal(r.stdout).content), scrub(JSON.parse(json.stdout)));
    }
    assert.match(run(['two.xml']).stdout, /^<\?xml /, 'XML in, XML out');
  });

  test('warnings go to standard error as file:line:col, and the resolution goes on', () => {
    writeFileSync(
      join(work, 'warn.xml'),
      profileXml(`
  <import href="catalog.json">
    <include-controls>
      <with-id>c-1</with-id>
      <with-id>zz-9</with-id>
    </include-controls>
  </import>`),
    );
    const r = run(['warn.xml', '--to', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stderr,
      'warn.xml:12:7: warning: no control with id "zz-9" (no-match at /profile/imports/0/include-controls/0/with-ids/1)\n',
    );
    assert.deepEqual(
      JSON.parse(r.stdout).catalog.controls.map((c: { id: string }) => c.id),
      ['c-1'],
    );

    // From standard input, imports are relative to the working directory; a warning of an
    // imported profile names that profile's file.
    const stdin = run(['-', '--to', 'json'], profileXml('\n  <import href="warn.xml"><include-all/></import>'));
    assert.equal(stdin.code, 0, stdin.stderr);
    assert.equal(
      stdin.stderr,
      `${join(work, 'warn.xml')}: warning: no control with id "zz-9" (no-match at /profile/imports/0/include-controls/0/with-ids/1)\n`,
    );
    const links = JSON.parse(stdin.stdout).catalog.metadata.links;
    assert.deepEqual(links, [{ href: 'urn:uuid:00000000-0000-4000-8000-000000000002', rel: 'source-profile' }]);
  });

  test('a missing import, a network import without --map, a circular import: exit 1, the reason on standard error', () => {
    writeFileSync(join(work, 'missing.xml'), profileXml('\n  <import href="nowhere.json"><include-all/></import>'));
    const missing = run(['missing.xml']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, '');
    assert.equal(missing.stderr, `missing.xml: import "nowhere.json": ${join(work, 'nowhere.json')}: no such file\n`);

    writeFileSync(
      join(work, 'remote.xml'),
      profileXml('\n  <import href="https://example.com/catalog.json"><include-all/></import>'),
    );
    const remote = run(['remote.xml']);
    assert.equal(remote.code, 1);
    assert.match(
      remote.stderr,
      /not fetched from the network; give a local copy with --map https:\/\/example\.com\/catalog\.json=<file>/,
    );
    const mapped = run(['remote.xml', '--map', 'https://example.com/catalog.json=catalog.json']);
    assert.equal(mapped.code, 0, mapped.stderr);

    writeFileSync(join(work, 'loop.xml'), profileXml('\n  <import href="loop.xml"><include-all/></import>'));
    const loop = run(['loop.xml']);
    assert.equal(loop.code, 1);
    assert.match(loop.stderr, /^loop\.xml: import "loop\.xml" is circular: /);
    assert.doesNotMatch(loop.stderr + missing.stderr, /at .*\.js:\d+/);
  });

  test("an import whose file is missing is read from its twin in another format, beside it or in NIST's folder per format, and the CLI says so", () => {
    const catalog = readFileSync(join(work, 'catalog.json'), 'utf8');
    mkdirSync(join(work, 'nist', 'xml'), { recursive: true });
    mkdirSync(join(work, 'nist', 'json'), { recursive: true });
    writeFileSync(join(work, 'nist', 'json', 'twin-catalog.json'), catalog);
    writeFileSync(
      join(work, 'nist', 'xml', 'uses-twin.xml'),
      profileXml('\n  <import href="twin-catalog.xml"><include-all/></import>'),
    );
    const layout = run([join('nist', 'xml', 'uses-twin.xml'), '--to', 'json']);
    assert.equal(layout.code, 0, layout.stderr);
    assert.deepEqual(
      JSON.parse(layout.stdout).catalog.controls.map((c: { id: string }) => c.id),
      ['c-1', 'c-2'],
    );
    assert.equal(
      layout.stderr,
      `${join('nist', 'xml', 'uses-twin.xml')}: note: import "twin-catalog.xml": ${join(work, 'nist', 'xml', 'twin-catalog.xml')} does not exist; read ${join(work, 'nist', 'json', 'twin-catalog.json')}, the same document in JSON\n`,
    );

    writeFileSync(join(work, 'uses-beside.xml'), profileXml('\n  <import href="catalog.yaml"><include-all/></import>'));
    const beside = run(['uses-beside.xml']);
    assert.equal(beside.code, 0, beside.stderr);
    assert.match(beside.stderr, /catalog\.yaml does not exist; read .*catalog\.json, the same document in JSON/);
  });

  test('an unreadable import names the file, line and column; a bad --map is refused', () => {
    writeFileSync(join(work, 'broken.json'), '{"catalog": ');
    writeFileSync(join(work, 'uses-broken.xml'), profileXml('\n  <import href="broken.json"><include-all/></import>'));
    const r = run(['uses-broken.xml']);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `^uses-broken\\.xml: import "broken\\.json": ${join(work, 'broken.json').replace(/[.]/g, '\\.')}:1:\\d+: not valid JSON`,
      ),
    );
    const badMap = run(['uses-broken.xml', '--map', 'no-equals-sign']);
    assert.notEqual(badMap.code, 0);
    assert.match(badMap.stderr, /expected URL=path/);
  });
});
