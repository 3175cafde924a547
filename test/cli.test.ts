import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { REV5_A849 } from './support/shared.js';
import { catalogXml } from './support/documents.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

const work = mkdtempSync(join(tmpdir(), 'oscal-cli-'));

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('oscal-depot convert', () => {
  test('converts a file to each format, detecting the input format from the content', () => {
    const xml = join(REV5_A849, 'xml', 'NIST_SP-800-53_rev5_LOW-baseline_profile.xml');
    const json = run(['convert', xml, '--to', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const published = JSON.parse(
      readFileSync(join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_LOW-baseline_profile.json'), 'utf8'),
    );
    assert.deepEqual(JSON.parse(json.stdout), published);

    const yamlFile = join(work, 'low.yaml');
    const yaml = run(['convert', '-', '--to', 'yaml', '-o', yamlFile], json.stdout);
    assert.equal(yaml.code, 0, yaml.stderr);
    assert.equal(yaml.stdout, '');
    const back = run(['convert', yamlFile, '--to', 'xml']);
    assert.equal(back.code, 0, back.stderr);
    assert.match(
      back.stdout,
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<profile xmlns="http:\/\/csrc.nist.gov\/ns\/oscal\/1.0"/,
    );
    assert.deepEqual(JSON.parse(run(['convert', '-', '--to', 'json'], back.stdout).stdout), published);
  });

  test('bad input exits non-zero with file:line:col and the message', () => {
    const bad = join(work, 'bad.xml');
    writeFileSync(bad, catalogXml('\n    <colour>red</colour>'));
    const r = run(['convert', bad, '--to', 'json']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr.trim(),
      `${bad}:8:5: element <colour> is not allowed in <metadata>; allowed: ${r.stderr.split('allowed: ')[1]!.trim()}`,
    );
    const stdin = run(['convert', '-', '--to', 'yaml'], '{"catalog": ');
    assert.equal(stdin.code, 1);
    assert.match(stdin.stderr, /^<stdin>:1:\d+: not valid JSON/);
  });

  test('invalid UTF-8, a missing file and a bad --to are reported without a stack trace', () => {
    const latin1 = join(work, 'latin1.json');
    writeFileSync(latin1, Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
    const r = run(['convert', latin1, '--to', 'xml']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not valid UTF-8/);
    const missing = run(['convert', join(work, 'nope.xml'), '--to', 'json']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope\.xml: ENOENT/);
    assert.doesNotMatch(missing.stderr, /at .*\.js:\d+/);
    const badFormat = run(['convert', latin1, '--to', 'pdf']);
    assert.notEqual(badFormat.code, 0);
    assert.match(badFormat.stderr, /Allowed choices are json, xml, yaml/);
  });
});

describe('oscal-depot validate', () => {
  const invalid = join(work, 'invalid.xml');
  const valid = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_LOW-baseline_profile.json');

  test('prints file:line:col path message for each issue and exits 1 when any file is invalid', () => {
    writeFileSync(invalid, catalogXml().replace('2024-01-01T00:00:00Z', '2024-01-01'));
    const r = run(['validate', valid, invalid]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      `${invalid}:5:5 /catalog/metadata/last-modified last-modified is "2024-01-01"; it must be a date and time with a timezone, like 2024-05-01T13:45:00Z or 2024-05-01T13:45:00-04:00\n1 valid, 1 invalid\n`,
    );
    const ok = run(['validate', valid]);
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout, '1 valid, 0 invalid\n');
  });

  test('--format json and --format sarif carry the same issues', () => {
    const json = run(['validate', '--format', 'json', invalid]);
    assert.equal(json.code, 1);
    const [result] = JSON.parse(json.stdout);
    assert.equal(result.file, invalid);
    assert.equal(result.valid, false);
    assert.deepEqual(
      result.issues.map((i: { path: string; line: number; column: number }) => [i.path, i.line, i.column]),
      [['/catalog/metadata/last-modified', 5, 5]],
    );

    const sarif = JSON.parse(run(['validate', '--format', 'sarif', invalid, valid]).stdout);
    assert.equal(sarif.version, '2.1.0');
    const results = sarif.runs[0].results;
    assert.equal(results.length, 1);
    assert.equal(results[0].ruleId, 'schema-pattern');
    assert.deepEqual(results[0].locations[0].physicalLocation, {
      artifactLocation: { uri: invalid },
      region: { startLine: 5, startColumn: 5 },
    });
    assert.equal(results[0].locations[0].logicalLocations[0].fullyQualifiedName, '/catalog/metadata/last-modified');
    assert.deepEqual(sarif.runs[0].tool.driver.rules, [{ id: 'schema-pattern' }]);
  });

  test('an empty title in 1.1.2 XML: valid, exit 0, the disagreement printed as a warning and a SARIF warning', () => {
    const file = join(work, 'empty-title.xml');
    writeFileSync(file, catalogXml().replace(/<title>[^<]*<\/title>/, '<title/>'));
    const r = run(['validate', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /empty-title\.xml:\d+:\d+ \/catalog\/metadata\/title warning: title is empty: NIST's OSCAL [\d.]+ XML Schema accepts an empty markup-line, its JSON Schema does not .*\[schema-disagreement\]\n1 valid, 0 invalid; 1 finding below ERROR\n$/,
    );
    const sarif = JSON.parse(run(['validate', '--format', 'sarif', file]).stdout);
    assert.deepEqual(
      sarif.runs[0].results.map((x: { ruleId: string; level: string }) => [x.ruleId, x.level]),
      [['schema-disagreement', 'warning']],
    );
  });

  test('unreadable and malformed files are invalid, not crashes', () => {
    const r = run(['validate', join(work, 'missing.json'), '-'], '{"catalog":');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /missing\.json \/ ENOENT/);
    assert.match(r.stdout, /<stdin>:1:\d+ \/ not valid JSON/);
    assert.match(r.stdout, /0 valid, 2 invalid\n$/);
  });
});

describe('oscal-depot with options it cannot use', () => {
  /** A stack trace in what a person reads means the failure was not foreseen. */
  const noStack = (stderr: string) => assert.doesNotMatch(stderr, /^\s+at /m);

  test('a mistyped serve or token option is refused in one line before the data directory is touched', () => {
    const cases: [string[], RegExp][] = [
      [['serve', '--port', 'abc'], /--port <port>.*'abc' is invalid.*0 to 65535/],
      [['serve', '--port', '70000'], /--port <port>.*'70000' is invalid/],
      [['serve', '--max-body', 'lots'], /--max-body <size>.*'lots' is invalid.*size such as 50MB/],
      [['serve', '--workers', '-1'], /--workers <n>.*'-1' is invalid/],
      [['serve', '--request-timeout', 'soon'], /--request-timeout <duration>.*'soon' is invalid/],
      [['serve', '--tls-cert', join(work, 'cert.pem')], /^oscal-depot: --tls-cert and --tls-key go together/],
      [['token', 'create', '--user', 'a', '--expires', '3x'], /--expires <duration>.*'3x' is invalid.*30d, 12h or 1y/],
    ];
    for (const [args, message] of cases) {
      const data = join(work, `untouched-${args.join('-').replace(/\W+/g, '')}`);
      const r = run([...args, '--data', data]);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, message);
      noStack(r.stderr);
      assert.throws(() => readFileSync(join(data, 'admin-token')), /ENOENT/, `${args.join(' ')} wrote an admin token`);
    }
  });

  test('a value from the environment is checked like one on the command line', () => {
    const r = spawnSync(process.execPath, [BIN, 'serve', '--data', join(work, 'env-port')], {
      encoding: 'utf8',
      env: { ...process.env, PORT: 'http' },
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /value 'http' from env 'PORT' is invalid/);
  });

  test("a store that cannot be reached is named in one line, without the URL's password", () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const url = 'postgres://someone:not-to-be-printed@127.0.0.1:1/nothing';
    for (const args of [
      ['serve', '--database-url', url, '--data', join(work, 'no-db')],
      ['token', 'list', '--database-url', url],
    ]) {
      const r = run(args);
      assert.equal(r.code, 1, args[0]);
      assert.match(r.stderr, /^oscal-depot: cannot open the store in PostgreSQL: .*ECONNREFUSED/);
      assert.doesNotMatch(r.stderr, /not-to-be-printed/);
      noStack(r.stderr);
    }
  });
});

describe('oscal-depot writing to a reader that stops early', () => {
  test('`| head`: the closed pipe ends the command quietly, with no stack trace', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'convert', join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json'), '--to', 'xml'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // As head(1) does: read the first lines, then close the pipe while the writer still has megabytes to send.
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = (await once(child, 'close')) as [number | null];
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});
