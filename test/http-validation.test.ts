/**
 * Constraint validation on the server, over real HTTP: constraint sets registered by admins,
 * POST /validate and GET /{model}/{id}/validation (JSON or SARIF), writes refused at the reject
 * level and storing nothing, lower findings kept with the revision, and one external constraint
 * set (test/fixtures/constraints) giving the same findings from the CLI and from the server.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiRequest, type ApiResponse } from './support/http.js';
import {
  CATALOG_UUID,
  layOut,
  PROFILE_UUID,
  SETS_DIR,
  TEST_NS,
  webCatalog,
  webProfile,
  webSsp,
} from './support/constraint-web.js';
import { createTokenFor, TestServer } from './support/server.js';
import { CONTENT } from './support/shared.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

type Json = Record<string, any>;

const COMPONENT_EXAMPLE = join(
  CONTENT,
  'oscal-content@88bb8de',
  'examples',
  'component-definition',
  'json',
  'example-component-definition.json',
);
const setText = (file: string) => readFileSync(join(SETS_DIR, file), 'utf8');

let server: TestServer;
let admin: string;
let writer: string;
let reader: string;
const work = mkdtempSync(join(tmpdir(), 'oscal-validation-'));

before(async () => {
  server = await TestServer.start();
  admin = createTokenFor(server.dataDir, 'ada', 'admin');
  writer = createTokenFor(server.dataDir, 'wes', 'writer');
  reader = createTokenFor(server.dataDir, 'rae', 'reader');
});

after(async () => {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
});

const gen = (method: string, path: string, options: ApiRequest = {}) =>
  api(server.url, method, `/oscal/v1${path}`, options);
const asJson = (doc: unknown, token: string | undefined, extra: ApiRequest = {}): ApiRequest => ({
  ...(token ? { token } : {}),
  body: JSON.stringify(doc, null, 2),
  contentType: 'application/json',
  ...extra,
});
const putSet = (name: string, text: string, token: string | null = admin) =>
  gen('PUT', `/constraint-set/${name}`, { ...(token ? { token } : {}), body: text, contentType: 'application/xml' });

async function post(model: string, doc: Json, token = writer): Promise<ApiResponse> {
  return gen('POST', `/${model}`, asJson(doc, token));
}

/** What makes one finding the same wherever it was reported. */
function comparable(f: Json): Json {
  return {
    id: f['constraint-id'] ?? f.constraintId,
    level: f.level,
    message: f.message,
    path: f.path,
    line: f.line,
    column: f.column,
  };
}

const byPlace = (a: Json, b: Json) => `${a.id}${a.path}`.localeCompare(`${b.id}${b.path}`);

/** The findings of the test set (ids starting test-) in a report's findings. */
function setFindings(findings: Json[]): Json[] {
  return findings
    .map(comparable)
    .filter((f) => String(f.id).startsWith('test-'))
    .sort(byPlace);
}

describe('constraint sets: PUT, GET, list, DELETE', () => {
  test('an admin registers (201, then 200 on replace); a writer is 403, anonymous 401; any user lists and reads', async () => {
    assertErrorBody(await putSet('probe', setText('common-rules.xml'), null), 401);
    assertErrorBody(await putSet('probe', setText('common-rules.xml'), writer), 403, /admin/);
    const created = await putSet('probe', setText('common-rules.xml'));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.location, `${server.url}/oscal/v1/constraint-set/probe`);
    assert.equal(created.json().name, 'probe');
    assert.equal(created.json()['created-by'], 'ada');
    const replaced = await putSet('probe', setText('common-rules.xml').replace('Shared hosting', 'Shared'));
    assert.equal(replaced.status, 200, replaced.text);

    assertErrorBody(await gen('GET', '/constraint-set'), 401);
    const list = await gen('GET', '/constraint-set', { token: reader });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list
        .json()
        ['constraint-sets'].filter((s: Json) => s.name === 'probe')
        .map((s: Json) => [s.size, 'text' in s]),
      [[Buffer.byteLength(setText('common-rules.xml').replace('Shared hosting', 'Shared')), false]],
    );
    const one = await gen('GET', '/constraint-set/probe', { token: reader });
    assert.equal(one.status, 200);
    assert.match(String(one.headers['content-type']), /^application\/xml/);
    assert.equal(one.text, setText('common-rules.xml').replace('Shared hosting', 'Shared'));

    assertErrorBody(await gen('DELETE', '/constraint-set/probe', { token: writer }), 403);
    assert.equal((await gen('DELETE', '/constraint-set/probe', { token: admin })).status, 204);
    assertErrorBody(await gen('GET', '/constraint-set/probe', { token: reader }), 404);
    assertErrorBody(await gen('DELETE', '/constraint-set/probe', { token: admin }), 404);
  });

  test('a set that is not valid is 422 naming the line and expression; a bad name is 400; neither is stored', async () => {
    const broken = setText('common-rules.xml').replace('regex="\\d+\\.\\d+(\\.\\d+)?"', 'regex="(unclosed"');
    const bad = assertErrorBody(await putSet('broken', broken), 422, /regex|regular expression|\(unclosed/);
    assert.equal(bad.code, 'invalid-constraint-set');
    assert.equal(bad.errors![0]!.line, broken.split('\n').findIndex((l) => l.includes('(unclosed')) + 1);
    const badPath = assertErrorBody(
      await putSet('broken', setText('common-rules.xml').replace('metadata/version', 'metadata/[version')),
      422,
    );
    assert.match(badPath.message, /metadata\/\[version/);
    assert.equal(assertErrorBody(await putSet('broken', '<not-xml'), 422).code, 'invalid-constraint-set');
    assert.equal(
      assertErrorBody(await putSet('broken', '<!DOCTYPE x [<!ENTITY a "b">]><metaschema-meta-constraints/>'), 422).code,
      'invalid-constraint-set',
    );
    // ssp-rules imports common-rules, which is not registered under that name.
    assert.match(assertErrorBody(await putSet('broken', setText('ssp-rules.xml')), 422).message, /common-rules/);
    assertErrorBody(await putSet('-bad-name', setText('common-rules.xml')), 400);
    assertErrorBody(await gen('GET', '/constraint-set/broken', { token: admin }), 404);
  });

  test('registering and deleting are in the audit log', async () => {
    await putSet('audited', setText('common-rules.xml'));
    await gen('DELETE', '/constraint-set/audited', { token: admin });
    const entries = (await api(server.url, 'GET', '/oscal/v1/audit?limit=5', { token: admin })).json()[
      'audit-list'
    ] as Json[];
    assert.deepEqual(
      entries.slice(0, 2).map((e) => [e.actor, e.action, e.detail]),
      [
        ['ada', 'constraint-set.delete', { name: 'audited' }],
        ['ada', 'constraint-set.put', { name: 'audited' }],
      ],
    );
  });
});

test('OpenAPI describes the constraint-set and validation operations, tagged', async () => {
  const { paths } = (await api(server.url, 'GET', '/openapi.json')).json();
  const ops: [string, string, string][] = [
    ['/oscal/v1/constraint-set', 'get', 'constraint sets'],
    ['/oscal/v1/constraint-set/{name}', 'put', 'constraint sets'],
    ['/oscal/v1/constraint-set/{name}', 'get', 'constraint sets'],
    ['/oscal/v1/constraint-set/{name}', 'delete', 'constraint sets'],
    ['/oscal/v1/validate', 'post', 'validation'],
    ['/oscal/v1/{model}/{id}/validation', 'get', 'validation'],
  ];
  for (const [path, method, tag] of ops) {
    assert.deepEqual(paths[path]?.[method]?.tags, [tag], `${method.toUpperCase()} ${path}`);
    assert.ok(paths[path][method].summary, `${method.toUpperCase()} ${path} has a summary`);
  }
  assert.ok(paths['/oscal/v1/validate'].post.parameters.some((p: Json) => p.name === 'constraints'));
});

describe('writes: constraints at the reject level refuse; lower findings are kept', () => {
  test('a POST breaking an ERROR constraint is 422 with the finding, and stores nothing', async () => {
    const doc = webCatalog('7a2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e');
    doc.catalog.controls[1].parts[0].id = doc.catalog.controls[0].parts[0].id;
    const refused = assertErrorBody(await post('catalog', doc), 422, /constraint/);
    assert.equal(refused.code, 'invalid-oscal');
    const finding = refused.errors!.find((e: Json) => e.path === '/catalog/controls/1/parts/0') as Json;
    assert.ok(finding, refused.errors!.map((e) => e.path).join(', '));
    assert.equal(finding.level, 'ERROR');
    assert.match(finding['constraint-id'], /unique|index/);
    assert.ok(finding.line > 1 && finding.column > 0);
    assertErrorBody(await gen('GET', `/catalog/${doc.catalog.uuid}`, { token: writer }), 404);
    const list = await gen('GET', '/catalog', { token: writer });
    assert.ok(!list.text.includes(doc.catalog.uuid), 'the refused catalog is not listed');
    // The registry interface refuses it too.
    assertErrorBody(await api(server.url, 'PUT', `/api/v1/catalogs/${doc.catalog.uuid}`, asJson(doc, writer)), 422);
  });

  test('a PUT breaking an ERROR constraint is 422 and the current revision stays', async () => {
    const doc = webCatalog('8b3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f');
    assert.equal((await post('catalog', doc)).status, 201);
    delete doc.catalog.controls[2].parts;
    doc.catalog.metadata.title = 'Changed';
    const refused = assertErrorBody(await gen('PUT', `/catalog/${doc.catalog.uuid}`, asJson(doc, writer)), 422);
    assert.deepEqual(
      refused.errors!.map((e: Json) => [e.path, e.level]),
      [['/catalog/controls/2', 'ERROR']],
    );
    const current = await gen('GET', `/catalog/${doc.catalog.uuid}`, { token: writer, accept: 'application/json' });
    assert.equal(JSON.parse(current.text).catalog.metadata.title, 'Audit controls');
  });

  test('WARNING findings do not refuse; they are readable after, with the revision, on both interfaces', async () => {
    const res = await post('component-definition', JSON.parse(readFileSync(COMPONENT_EXAMPLE, 'utf8')));
    assert.equal(res.status, 201, res.text);
    const id = res.json()['component-definition-list'][0]['content-uuid'];
    const report = await gen('GET', `/component-definition/${id}/validation`, { token: writer });
    assert.equal(report.status, 200, report.text);
    const body = report.json();
    const stored = body['findings-when-stored'] as Json[];
    assert.ok(
      stored.length > 0 &&
        stored.every((f) => f.level === 'WARNING' && /port-range/.test(f.path) && f['constraint-id'] && f.line > 0),
    );
    assert.deepEqual(
      stored.map(comparable),
      (body.findings as Json[]).map(comparable),
      'nothing it reaches has changed: what is found now is what was found then',
    );
    assert.equal(body.valid, true);
    assert.equal(body.counts.WARNING, stored.length);
    const versions = await api(server.url, 'GET', `/api/v1/component-definitions/${id}/versions`, { token: writer });
    assert.deepEqual(versions.json()[0].findings.map(comparable), stored.map(comparable));
  });

  test('with --reject-level CRITICAL an ERROR finding is kept, not refused', async () => {
    const lenient = await TestServer.start({ args: ['--reject-level', 'CRITICAL'] });
    try {
      const token = createTokenFor(lenient.dataDir, 'wes', 'writer');
      const doc = webCatalog();
      delete doc.catalog.controls[0].parts;
      const res = await api(lenient.url, 'POST', '/oscal/v1/catalog', asJson(doc, token));
      assert.equal(res.status, 201, res.text);
      const stored = (await api(lenient.url, 'GET', `/oscal/v1/catalog/${CATALOG_UUID}/validation`, { token })).json();
      assert.equal(stored.valid, false);
      assert.deepEqual(
        stored['findings-when-stored'].map((f: Json) => [f.path, f.level]),
        [['/catalog/controls/0', 'ERROR']],
      );
    } finally {
      await lenient.stop();
    }
  });
});

describe('POST /validate and GET /{model}/{id}/validation', () => {
  test('any format is checked without storing it: JSON report, or SARIF by Accept', async () => {
    const doc = webCatalog('9c4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a');
    delete doc.catalog.controls[0].parts;
    const yaml = serializeOscal(parseOscal(JSON.stringify(doc), 'json'), 'yaml');
    const res = await gen('POST', '/validate', { token: reader, body: yaml, contentType: 'application/yaml' });
    assert.equal(res.status, 200, res.text);
    const report = res.json();
    assert.deepEqual(
      [report.valid, report.model, report.format, report['constraints-checked'], report.counts.ERROR],
      [false, 'catalog', 'yaml', true, 1],
    );
    const [finding] = report.findings;
    assert.equal(finding.path, '/catalog/controls/0');
    assert.equal(
      yaml.split('\n')[finding.line - 1]!.trim(),
      '- id: au-1',
      `line ${finding.line} is where the control starts`,
    );
    assertErrorBody(await gen('GET', `/catalog/${doc.catalog.uuid}`, { token: admin }), 404);

    const sarif = await gen('POST', '/validate?include-pass=true', {
      token: reader,
      body: JSON.stringify(doc),
      contentType: 'application/json',
      accept: 'application/sarif+json',
    });
    assert.equal(sarif.status, 200, sarif.text);
    assert.match(String(sarif.headers['content-type']), /^application\/sarif\+json/);
    const run = sarif.json().runs[0];
    const failed = run.results.filter((r: Json) => r.kind !== 'pass');
    assert.deepEqual(
      failed.map((r: Json) => r.level),
      ['error'],
    );
    assert.ok(
      run.results.some((r: Json) => r.kind === 'pass'),
      'constraints that held are pass results',
    );
    assert.ok(run.tool.driver.rules.some((r: Json) => r.id === failed[0].ruleId));
  });

  test("oscal-cli's choices as query parameters: schema or constraints off, the release of content that declares none", async () => {
    const doc = webCatalog('7d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a');
    delete doc.catalog.controls[0].parts;
    doc.catalog.metadata['last-modified'] = 'yesterday';
    const body = JSON.stringify(doc);
    const codes = async (query: string) => {
      const res = await gen('POST', `/validate${query}`, { token: reader, body, contentType: 'application/json' });
      assert.equal(res.status, 200, res.text);
      return res.json().findings.map((f: Json) => f.code);
    };
    assert.deepEqual(await codes(''), ['schema-pattern', 'constraint-expect'], 'both, in one run');
    assert.deepEqual(await codes('?disable-schema-validation=true'), ['constraint-expect']);
    assert.deepEqual(await codes('?disable-constraint-validation=true'), ['schema-pattern']);
    delete doc.catalog.metadata['oscal-version'];
    const undeclared = await gen('POST', '/validate?oscal-version=1.0.4&disable-schema-validation=true', {
      token: reader,
      body: JSON.stringify(doc),
      contentType: 'application/json',
    });
    assert.equal(undeclared.json()['oscal-version'], '1.0.4');
    assert.equal(undeclared.json().findings[0].code, 'version-assumed');
    assertErrorBody(
      await gen('POST', '/validate?oscal-version=9.9', { token: reader, body, contentType: 'application/json' }),
      400,
    );
  });

  test('statuses: 401 anonymous, 406 unacceptable, 415 unknown body type, 400 unknown set, 404 unknown document; unreadable content is a report', async () => {
    const body = JSON.stringify(webCatalog());
    assertErrorBody(await gen('POST', '/validate', { body, contentType: 'application/json' }), 401);
    assertErrorBody(
      await gen('POST', '/validate', { token: reader, body, contentType: 'application/json', accept: 'text/html' }),
      406,
    );
    assertErrorBody(await gen('POST', '/validate', { token: reader, body, contentType: 'text/plain' }), 415);
    assert.equal(
      assertErrorBody(
        await gen('POST', '/validate?constraints=nope', { token: reader, body, contentType: 'application/json' }),
        400,
      ).code,
      'unknown-constraint-set',
    );
    assertErrorBody(
      await gen('GET', '/catalog/00000000-0000-4000-8000-000000000000/validation', { token: reader }),
      404,
    );
    const unread = await gen('POST', '/validate', {
      token: reader,
      body: '{"catalog": ',
      contentType: 'application/json',
    });
    assert.equal(unread.status, 200, unread.text);
    assert.deepEqual(
      [unread.json().valid, unread.json()['constraints-checked'], unread.json().findings.length],
      [false, false, 1],
    );
  });
});

describe('an external constraint set: the same findings from the CLI and from the server', () => {
  const mutated = () => {
    const doc = webSsp();
    const ssp = doc['system-security-plan'];
    ssp['system-characteristics'].props.find((p: Json) => p.ns === TEST_NS).value = 'tenant';
    ssp['control-implementation']['implemented-requirements'][0]['control-id'] = 'au-9';
    return doc;
  };

  /** The set's findings for each document, as the CLI reports them on files laid out like the server's URLs. */
  function fromCli(docs: Json[]): Json[] {
    const dir = mkdtempSync(join(work, 'web-'));
    const paths = layOut(dir, [webCatalog(), webProfile(), ...docs]);
    const r = spawnSync(
      process.execPath,
      [
        BIN,
        'validate',
        '--format',
        'json',
        '--constraints',
        join(SETS_DIR, 'ssp-rules.xml'),
        paths['system-security-plan']!,
      ],
      { encoding: 'utf8' },
    );
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    return setFindings(JSON.parse(r.stdout)[0].issues);
  }

  before(async () => {
    assert.equal((await putSet('common-rules', setText('common-rules.xml'))).status, 201);
    assert.equal((await putSet('ssp-rules', setText('ssp-rules.xml'))).status, 201);
    for (const doc of [webCatalog(), webProfile(), webSsp()]) {
      const model = Object.keys(doc)[0]!;
      const res = await post(model, doc);
      assert.equal(res.status, 201, res.text);
    }
  });

  test('on the stored SSP: the profile is resolved from the store, and the findings are those of the CLI', async () => {
    const expected = [
      {
        id: 'test-baseline-implemented',
        level: 'WARNING',
        message: '1 of 2 baseline controls are not implemented: au-2',
        path: '/system-security-plan',
      },
      {
        id: 'test-responsible-role',
        level: 'WARNING',
        message: 'component "This System" names no responsible role',
        path: '/system-security-plan/system-implementation/components/0',
      },
      {
        id: 'test-responsible-role',
        level: 'WARNING',
        message: 'inventory item c9c32657-a0eb-4cf2-b5c1-20928983063c names no responsible role',
        path: '/system-security-plan/system-implementation/inventory-items/0',
      },
    ];
    const cli = fromCli([webSsp()]);
    assert.deepEqual(
      cli.map(({ line: _, column: __, ...f }) => f),
      expected,
    );
    const id = webSsp()['system-security-plan'].uuid;
    const res = await gen('GET', `/system-security-plan/${id}/validation?constraints=ssp-rules`, { token: writer });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json()['constraint-sets'], ['ssp-rules']);
    assert.deepEqual(setFindings(res.json().findings), cli);
    // Without the set, none of its findings.
    const plain = (await gen('GET', `/system-security-plan/${id}/validation`, { token: writer })).json();
    assert.deepEqual([plain.valid, setFindings(plain.findings)], [true, []]);
  });

  test('on a body sent to POST /validate: a broken enum, a control outside the baseline, and the template message follow', async () => {
    const cli = fromCli([mutated()]);
    assert.deepEqual(
      cli.map((f) => [f.id, f.level, f.path]),
      [
        ['test-baseline-implemented', 'WARNING', '/system-security-plan'],
        ['test-hosting-tier', 'ERROR', '/system-security-plan/system-characteristics/props/2/value'],
        [
          'test-implemented-in-baseline',
          'ERROR',
          '/system-security-plan/control-implementation/implemented-requirements/0',
        ],
        ['test-responsible-role', 'WARNING', '/system-security-plan/system-implementation/components/0'],
        ['test-responsible-role', 'WARNING', '/system-security-plan/system-implementation/inventory-items/0'],
      ],
    );
    assert.equal(cli[0]!.message, '2 of 2 baseline controls are not implemented: au-1, au-2');
    const res = await gen('POST', '/validate?constraints=ssp-rules', {
      token: writer,
      body: JSON.stringify(mutated(), null, 2),
      contentType: 'application/json',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json().valid, false);
    assert.deepEqual(setFindings(res.json().findings), cli);
  });

  test('a profile that cannot be had is a finding naming it, not a failure', async () => {
    const doc = webSsp();
    doc['system-security-plan']['import-profile'].href = '../profile/00000000-0000-4000-8000-00000000dead';
    const res = await gen('POST', '/validate?constraints=ssp-rules', {
      token: reader,
      body: JSON.stringify(doc),
      contentType: 'application/json',
    });
    assert.equal(res.status, 200, res.text);
    const errors = (res.json().findings as Json[]).filter((f) => f.code === 'constraint-error');
    assert.ok(errors.length > 0, res.text);
    assert.ok(
      errors.every((f) => f.level === 'ERROR' && /00000000-0000-4000-8000-00000000dead/.test(f.message)),
      JSON.stringify(errors),
    );
  });

  test('documents the caller may not read are not reached through the set', async () => {
    // The profile and catalog are the writer's, and private (the server's default).
    const findings = (
      await gen('POST', '/validate?constraints=ssp-rules', {
        token: reader,
        body: JSON.stringify(webSsp()),
        contentType: 'application/json',
      })
    ).json().findings as Json[];
    assert.ok(
      findings.some((f) => f.code === 'constraint-error' && f.message.includes(PROFILE_UUID)),
      'the private profile is as absent to this reader',
    );
    assert.ok(!JSON.stringify(findings).includes('Audit baseline'), 'nothing of the private profile shows');
  });
});
