/**
 * Validation of OSCAL XML reports every problem in one run, as it does for JSON and YAML: an
 * unknown element (which the reader finds), a malformed uuid and a date without a time zone
 * (which the schema finds) all come back together, each with its line, from the CLI, from
 * POST /oscal/v1/validate and in the 422 refusing a write; over real HTTP and the built CLI.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OscalError } from '../src/oscal/errors.js';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { readXml, xmlPositions } from '../src/oscal/formats/xml-reader.js';
import type { ReadProblems } from '../src/oscal/formats/tree-reader.js';
import { validateText, type ValidationIssue } from '../src/oscal/validate/index.js';
import { assertErrorBody } from './support/error-body.js';
import { api } from './support/http.js';
import { CLI_BIN } from './support/serve-process.js';
import { createTokenFor, TestServer } from './support/server.js';
import { REV5_A849 } from './support/shared.js';

const DOC_UUID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

/** Line numbers below are those of this text: the three problems are on lines 5, 8 and 11. */
const xml = `<?xml version="1.0" encoding="UTF-8"?>
<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${DOC_UUID}">
  <metadata>
    <title>Three problems</title>
    <last-modified>2024-01-01T00:00:00</last-modified>
    <version>1.0</version>
    <oscal-version>1.1.2</oscal-version>
    <colour>red<shade>dark</shade></colour>
    <party uuid="c3f0a7d2-9b1e-4c55-8d2a-6e7f8a9b0c1d" type="person"><name>Ada</name></party>
    <party uuid="7a3d5e9f-1c2b-4a6d-b8e0-3f4a5b6c7d8e" type="person"><name>Bob</name></party>
    <party uuid="not-a-uuid" type="organization">
      <name>Acme</name>
    </party>
  </metadata>
</catalog>
`;

/** Each problem as its JSON pointer and line, in a stable order. */
type Place = [path: string, line: number | undefined];
const EXPECTED: Place[] = [
  ['/catalog/metadata/colour', 8],
  ['/catalog/metadata/last-modified', 5],
  ['/catalog/metadata/parties/2/uuid', 11],
];
const places = (issues: { path: string; line?: number }[]): Place[] =>
  issues.map((i): Place => [i.path, i.line]).sort((a, b) => a[0].localeCompare(b[0]));
/** The unknown element is the reader's finding; the other two the schema's. */
const codeOf = (issues: { code?: string; path: string }[], path: string) => issues.find((i) => i.path === path)?.code;

let work: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'oscal-xml-every-problem-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('the engine: XML read past what the model does not allow', () => {
  test('validateText reports the three problems with their lines and nothing else', () => {
    const result = validateText(xml);
    assert.equal(result.valid, false);
    assert.equal(result.format, 'xml');
    assert.deepEqual(places(result.issues), EXPECTED);
    assert.ok(result.issues.every((i) => i.line !== undefined && i.column !== undefined));
    assert.equal(codeOf(result.issues, '/catalog/metadata/colour'), 'unknown-element');
    assert.match(codeOf(result.issues, '/catalog/metadata/last-modified')!, /^schema-/);
    assert.equal(result.issues.find((i) => i.code === 'unknown-element')!.column, 5);
  });

  test('without a collector the reader still stops at the first problem', () => {
    assert.throws(
      () => parseOscal(xml),
      (e: unknown) => e instanceof OscalError && e.code === 'unknown-element' && e.line === 8 && e.column === 5,
    );
  });

  test('unknown attributes, stray text and a repeated field are each recorded, and the tree is built', () => {
    const text = `<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${DOC_UUID}" tint="blue">
  <metadata>
    <title>T</title>
    <title>again</title>
    <last-modified>2024-01-01T00:00:00Z</last-modified>
    <version>1</version>
    <oscal-version>1.1.2</oscal-version>
  </metadata>
  <group id="g">
    words
    <title>G</title>
    <control id="c"><title>C</title></control>
  </group>
</catalog>`;
    const problems: ReadProblems = { found: [], limit: 100 };
    const doc = readXml(text, undefined, problems);
    assert.deepEqual(
      problems.found.map((e) => [e.code, e.path, e.line]),
      [
        ['unknown-element', '/catalog/tint', 1],
        ['invalid-structure', undefined, 4],
        ['unknown-element', undefined, 11],
      ],
    );
    const catalog = doc.content.catalog as Record<string, any>;
    assert.equal(catalog.metadata.title, 'T', 'the first of a repeated field is kept');
    assert.equal('tint' in catalog, false);
    assert.equal(catalog.groups[0].controls[0].id, 'c');
  });

  test('a value that cannot be typed is kept as its text and reported once, not again by the schema', () => {
    const profile = `<profile xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${DOC_UUID}">
  <metadata>
    <title>P</title>
    <last-modified>2024-01-01T00:00:00Z</last-modified>
    <version>1</version>
    <oscal-version>1.1.2</oscal-version>
  </metadata>
  <import href="#b"><include-all/></import>
  <merge>
    <as-is>perhaps</as-is>
  </merge>
</profile>`;
    const problems: ReadProblems = { found: [], limit: 100 };
    const doc = readXml(profile, undefined, problems);
    assert.deepEqual(
      problems.found.map((e) => [e.code, e.path, e.line]),
      [['invalid-value', '/profile/merge/as-is', 10]],
    );
    assert.equal((doc.content.profile as Record<string, any>).merge['as-is'], 'perhaps');
    assert.deepEqual(
      validateText(profile).issues.map((i) => [i.code, i.path, i.line]),
      [['invalid-value', '/profile/merge/as-is', 10]],
    );
  });

  test("NIST's documents read leniently are what the strict read gives, with nothing recorded", () => {
    for (const name of [
      'NIST_SP-800-53_rev5_LOW-baseline_profile.xml',
      'NIST_SP-800-53_rev5_LOW-baseline-resolved-profile_catalog.xml',
    ]) {
      const text = readFileSync(join(REV5_A849, 'xml', name), 'utf8');
      const problems: ReadProblems = { found: [], limit: 100 };
      const strictPositions = new Map();
      assert.deepEqual(readXml(text, undefined, problems), readXml(text, strictPositions), name);
      assert.deepEqual(problems.found, [], name);
      assert.deepEqual(xmlPositions(text), strictPositions, name);
    }
  });

  test('past the limit, problems are skipped but no longer recorded', () => {
    const many = Array.from({ length: 50 }, (_, i) => `<x${i}/>`).join('');
    const text = `<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${DOC_UUID}"><metadata><title>T</title><last-modified>2024-01-01T00:00:00Z</last-modified><version>1</version><oscal-version>1.1.2</oscal-version>${many}</metadata></catalog>`;
    const problems: ReadProblems = { found: [], limit: 10 };
    readXml(text, undefined, problems);
    assert.equal(problems.found.length, 10);
  });
});

describe('every problem of an XML document, from the CLI and the server', () => {
  let server: TestServer;
  let writer: string;
  before(async () => {
    server = await TestServer.start();
    writer = createTokenFor(server.dataDir, 'wes', 'writer');
  });
  after(async () => {
    await server.stop();
  });

  test('oscal-depot validate FILE lists all three with their lines', () => {
    const file = join(work, 'three-problems.xml');
    writeFileSync(file, xml);
    const run = spawnSync(process.execPath, [CLI_BIN, 'validate', '--format', 'json', file], { encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    const [result] = JSON.parse(run.stdout) as { issues: ValidationIssue[] }[];
    assert.deepEqual(places(result!.issues), EXPECTED);
    const text = spawnSync(process.execPath, [CLI_BIN, 'validate', file], { encoding: 'utf8' });
    for (const [path, line] of EXPECTED)
      assert.match(text.stdout, new RegExp(`three-problems\\.xml:${line}:\\d+ ${path} `));
  });

  test('POST /oscal/v1/validate lists all three with their lines', async () => {
    const res = await api(server.url, 'POST', '/oscal/v1/validate', {
      token: writer,
      body: xml,
      contentType: 'application/xml',
    });
    assert.equal(res.status, 200, res.text);
    const report = res.json();
    assert.equal(report.valid, false);
    assert.deepEqual(places(report.findings), EXPECTED);
    assert.equal(codeOf(report.findings, '/catalog/metadata/colour'), 'unknown-element');
  });

  test('POST /oscal/v1/catalog is 422 listing all three with their lines, and stores nothing', async () => {
    const res = await api(server.url, 'POST', '/oscal/v1/catalog', {
      token: writer,
      body: xml,
      contentType: 'application/xml',
    });
    const body = assertErrorBody(res, 422, /3 problems/);
    assert.equal(body.code, 'invalid-oscal');
    assert.deepEqual(places(body.errors!), EXPECTED);
    assertErrorBody(await api(server.url, 'GET', `/oscal/v1/catalog/${DOC_UUID}`, { token: writer }), 404);
  });

  test('the web upload page shows each of the three beside its line of the uploaded file', async () => {
    const form = new FormData();
    form.append('file', new Blob([xml]), 'three-problems.xml');
    const res = await fetch(`${server.url}/upload/catalog`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { cookie: `depotToken=${writer}`, accept: 'text/html' },
    });
    const page = await res.text();
    assert.equal(res.status, 422, page);
    for (const [, line] of EXPECTED) {
      assert.match(page, new RegExp(`<tr class="offending">\\s*<th scope="row" class="line-number">${line}</th>`));
      assert.match(page, new RegExp(`<td class="problem">\\s*Line ${line}, column \\d+: `));
    }
  });

  test('a write whose only problem is an unknown attribute is 422 naming it and its line', async () => {
    const text = xml
      .replace('<colour>red<shade>dark</shade></colour>', '')
      .replace('not-a-uuid', '0e9d8c7b-6a5f-4e3d-9c2b-1a0f9e8d7c6b')
      .replace('2024-01-01T00:00:00<', '2024-01-01T00:00:00Z<')
      .replace('<party uuid="c3f0a7d2', '<party tint="x" uuid="c3f0a7d2');
    const res = await api(server.url, 'POST', '/oscal/v1/catalog', {
      token: writer,
      body: text,
      contentType: 'application/xml',
    });
    const body = assertErrorBody(res, 422, /1 problem,/);
    assert.deepEqual(
      body.errors!.map((e) => [e.path, e.line]),
      [['/catalog/metadata/parties/0/tint', 9]],
    );
  });

  test('a JSON or YAML write whose strict read stops at an unknown property is 422 listing it and what the schema finds', async () => {
    const doc = parseOscal(
      xml
        .replace('<colour>red<shade>dark</shade></colour>', '')
        .replace('not-a-uuid', '0e9d8c7b-6a5f-4e3d-9c2b-1a0f9e8d7c6b'),
      'xml',
    );
    const metadata = (doc.content.catalog as { metadata: Record<string, unknown> }).metadata;
    metadata.colour = 'red';
    // An empty document-ids asks for the server's entry (generic-interface 2.2): no problem of a write.
    metadata['document-ids'] = [];
    const json = JSON.stringify(doc.content, null, 2);
    const yaml = serializeOscal({ ...doc, content: doc.content }, 'yaml');
    for (const [text, contentType] of [
      [json, 'application/json'],
      [yaml, 'application/yaml'],
    ] as const) {
      const res = await api(server.url, 'POST', '/oscal/v1/catalog', { token: writer, body: text, contentType });
      const body = assertErrorBody(res, 422, /2 problems/);
      const lines = text.split('\n');
      assert.deepEqual(
        body.errors!.map((e) => e.path).sort(),
        ['/catalog/metadata/colour', '/catalog/metadata/last-modified'],
        contentType,
      );
      for (const e of body.errors!)
        assert.ok(e.line && lines[e.line - 1]!.includes(e.path.split('/').pop()!), contentType);
    }
  });
});
