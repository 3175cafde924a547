import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { catalogJson, catalogXml } from './support/documents.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

const work = mkdtempSync(join(tmpdir(), 'oscal-convert-'));

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A catalog that reads fine but breaks four rules of its schema: a bad uuid, a bad date, an empty list, a missing title. */
const fourProblems = catalogJson(',\n      "props": []')
  .replace('"uuid": "8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1"', '"uuid": "not-a-uuid"')
  .replace('"2024-01-01T00:00:00Z"', '"2024-01-01"')
  .replace('      "title": "T",\n', '');

describe('oscal-depot convert checks the schema first', () => {
  const invalid = join(work, 'four-problems.json');
  writeFileSync(invalid, fourProblems);

  test('a document its schema refuses: the problems as validate prints them, nothing written, exit 1', () => {
    const output = join(work, 'never.xml');
    const r = run(['convert', invalid, '--to', 'xml', '-o', output]);
    assert.equal(r.code, 1);
    assert.equal(existsSync(output), false, 'nothing may be written');
    const validated = run(['validate', '--no-constraints', invalid]);
    const issueLines = validated.stdout.split('\n').filter((l) => l.startsWith(invalid));
    assert.equal(issueLines.length, 4, validated.stdout);
    const lines = r.stderr.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, -1), issueLines);
    assert.equal(
      lines.at(-1),
      `${invalid}: not valid OSCAL 1.1.2 (4 problems); nothing was written. Fix the document, or convert it anyway with --no-validate`,
    );
    const toStdout = run(['convert', invalid, '--to', 'yaml']);
    assert.equal(toStdout.code, 1);
    assert.equal(toStdout.stdout, '');
  });

  test('--no-validate converts it anyway', () => {
    const r = run(['convert', invalid, '--to', 'xml', '--no-validate']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /<catalog xmlns="http:\/\/csrc.nist.gov\/ns\/oscal\/1.0" uuid="not-a-uuid">/);
  });

  test('warnings are printed and the document is converted', () => {
    const file = join(work, 'empty-title.xml');
    writeFileSync(file, catalogXml().replace(/<title>[^<]*<\/title>/, '<title/>'));
    const output = join(work, 'empty-title.json');
    const r = run(['convert', file, '--to', 'json', '-o', output]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^.*empty-title\.xml:\d+:\d+ \/catalog\/metadata\/title warning: .*\[schema-disagreement\]\n$/,
    );
    assert.equal(JSON.parse(readFileSync(output, 'utf8')).catalog.metadata.title, '');
  });

  test('a valid document converts silently, from standard input too', () => {
    const r = run(['convert', '-', '--to', 'yaml'], catalogJson());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^(---\n)?catalog:\n/);
  });
});
