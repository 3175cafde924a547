/**
 * What the server keeps between validations, over real HTTP: a registered constraint set is
 * compiled once and reused until it or a set it imports is replaced, and the resolution of a
 * profile that resolve-profile() asks for is reused until the profile or a document it imports
 * has a new revision. /metrics counts what was made and what was reused.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { api, type ApiRequest } from './support/http.js';
import { CATALOG_UUID, SETS_DIR, webCatalog, webProfile, webSsp } from './support/constraint-web.js';
import { createTokenFor, TestServer } from './support/server.js';

type Json = Record<string, any>;

let server: TestServer;
let admin: string;
let writer: string;
const sspId = webSsp()['system-security-plan'].uuid as string;

const gen = (method: string, path: string, options: ApiRequest = {}) =>
  api(server.url, method, `/oscal/v1${path}`, options);
const asJson = (doc: unknown, token: string): ApiRequest => ({
  token,
  body: JSON.stringify(doc, null, 2),
  contentType: 'application/json',
});
const putSet = async (name: string, text: string) => {
  const res = await gen('PUT', `/constraint-set/${name}`, { token: admin, body: text, contentType: 'application/xml' });
  assert.ok(res.status === 200 || res.status === 201, res.text);
};

/** The counts of one gauge of /metrics, by outcome. */
async function counts(metric: string): Promise<Record<string, number>> {
  const text = (await api(server.url, 'GET', '/metrics')).text;
  const found: Record<string, number> = {};
  for (const m of text.matchAll(new RegExp(`^${metric}\\{outcome="([a-z]+)"\\} (\\d+)$`, 'gm')))
    found[m[1]!] = Number(m[2]);
  return found;
}

/** The SSP validated with the test set; the test set's baseline finding, if any. */
async function baselineFinding(): Promise<string | undefined> {
  const res = await gen('GET', `/system-security-plan/${sspId}/validation?constraints=ssp-rules`, { token: writer });
  assert.equal(res.status, 200, res.text);
  return (res.json().findings as Json[]).find((f) => f['constraint-id'] === 'test-baseline-implemented')?.message;
}

before(async () => {
  server = await TestServer.start();
  admin = createTokenFor(server.dataDir, 'ada', 'admin');
  writer = createTokenFor(server.dataDir, 'wes', 'writer');
  await putSet('common-rules', readFileSync(join(SETS_DIR, 'common-rules.xml'), 'utf8'));
  await putSet('ssp-rules', readFileSync(join(SETS_DIR, 'ssp-rules.xml'), 'utf8'));
  for (const doc of [webCatalog(), webProfile(), webSsp()]) {
    const res = await gen('POST', `/${Object.keys(doc)[0]}`, asJson(doc, writer));
    assert.equal(res.status, 201, res.text);
  }
});

after(() => server.stop());

test('a constraint set is compiled once, and again only when a set it imports is replaced', async () => {
  await baselineFinding();
  const first = await counts('oscal_depot_constraint_set_compilations');
  await baselineFinding();
  const second = await counts('oscal_depot_constraint_set_compilations');
  assert.deepEqual(second, { compiled: first.compiled, reused: first.reused! + 1 });

  // ssp-rules imports common-rules: a new common-rules makes ssp-rules compile again (once).
  await putSet('common-rules', readFileSync(join(SETS_DIR, 'common-rules.xml'), 'utf8') + '\n<!-- replaced -->\n');
  const put = await counts('oscal_depot_constraint_set_compilations');
  await baselineFinding();
  await baselineFinding();
  const after = await counts('oscal_depot_constraint_set_compilations');
  assert.deepEqual(after, { compiled: put.compiled! + 1, reused: put.reused! + 1 });
});

test("a profile's resolution is reused until the catalog it imports has a new revision, which is then seen", async () => {
  assert.equal(await baselineFinding(), '1 of 2 baseline controls are not implemented: au-2');
  const first = await counts('oscal_depot_profile_resolutions');
  assert.equal(await baselineFinding(), '1 of 2 baseline controls are not implemented: au-2');
  const second = await counts('oscal_depot_profile_resolutions');
  assert.deepEqual(second, { resolved: first.resolved, reused: first.reused! + 1 });

  // A new revision of the catalog without au-2: the baseline is au-1 alone, which the SSP implements.
  const catalog = webCatalog();
  catalog.catalog.controls = catalog.catalog.controls.filter((c: Json) => c.id !== 'au-2');
  const res = await gen('PUT', `/catalog/${CATALOG_UUID}`, asJson(catalog, writer));
  assert.equal(res.status, 204, res.text);
  assert.equal(await baselineFinding(), undefined);
  const third = await counts('oscal_depot_profile_resolutions');
  assert.deepEqual(third, { resolved: second.resolved! + 1, reused: second.reused });
  assert.equal(await baselineFinding(), undefined);
  assert.deepEqual(await counts('oscal_depot_profile_resolutions'), {
    resolved: third.resolved,
    reused: third.reused! + 1,
  });
});
