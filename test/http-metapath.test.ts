/**
 * GET /oscal/v1/{model}/{id}/metapath over real HTTP, on NIST's SP 800-53 rev5 catalog stored by
 * its owner: the results checked against the catalog's JSON as posted (the title of ac-1, the
 * number of controls, where a pointer leads); the current revision is the one read; a caller who
 * may not read the document gets what a missing one gets; a bad expression is 400 naming where
 * in it; and an expression that asks for work without end is stopped, without holding up the server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertConceals, assertErrorBody } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog, retitled, type MarkedDoc } from './support/marked-docs.js';
import { TestServer } from './support/server.js';
import { REV5_A849 } from './support/shared.js';
import { makeToken } from './support/tokens.js';
import { controlsIn } from './support/documents.js';

const CATALOG_JSON = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');

let server: TestServer;
let alice: string;
let bob: string;
let rita: string;
let doc: MarkedDoc;
let id: string;

before(async () => {
  server = await TestServer.start();
  [alice, bob, rita] = (
    await Promise.all([
      makeToken(server.dataDir, 'alice', 'writer'),
      makeToken(server.dataDir, 'bob', 'writer'),
      makeToken(server.dataDir, 'rita', 'reader'),
    ])
  ).map((t) => t.secret);
  doc = markedCatalog('metapath', { path: CATALOG_JSON });
  const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token: alice,
    body: doc.body,
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
  id = created.json()['catalog-list'][0]['content-uuid'];
});

after(async () => {
  await stopWithin(server);
});

function query(expression: string, token?: string, extra = '', docId = id): Promise<ApiResponse> {
  return api(
    server.url,
    'GET',
    `/oscal/v1/catalog/${docId}/metapath?expression=${encodeURIComponent(expression)}${extra}`,
    token === undefined ? {} : { token },
  );
}

function result(res: ApiResponse): Record<string, any> {
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json\b/);
  return res.json();
}

const atPointer = (value: any, pointer: string): any =>
  pointer
    .split('/')
    .slice(1)
    .reduce((v, s) => v[s.replace(/~1/g, '/').replace(/~0/g, '~')], value);

const fingerprints = () => [doc.title, doc.marker, doc.rootUuid];

describe('GET /oscal/v1/{model}/{id}/metapath', () => {
  test("the owner gets //control[@id='ac-1']/title: its Metapath, a pointer to it in the JSON, and the title", async () => {
    const r = result(await query("//control[@id='ac-1']/title", alice));
    assert.deepEqual([r.revision, r.count, r.truncated, r.items.length], [1, 1, false, 1]);
    const [item] = r.items;
    const title = controlsIn(doc.content.catalog).find((c) => c.id === 'ac-1').title;
    assert.equal(item.kind, 'node');
    assert.match(item.metapath, /^\/catalog\[1\]\/group\[\d+\]\/control\[\d+\]\/title\[1\]$/);
    assert.equal(atPointer(doc.content, item.pointer), title);
    assert.equal(item.text, title);
  });

  test('count(//control) is the number of controls, an xs:integer', async () => {
    const r = result(await query('count(//control)', alice));
    assert.deepEqual(r.items, [{ kind: 'atomic', type: 'xs:integer', value: controlsIn(doc.content.catalog).length }]);
  });

  test('limit gives the first items and the count of all; no more than 1000 are ever given', async () => {
    const all = controlsIn(doc.content.catalog).length;
    const first = result(await query('//control', alice, '&limit=3'));
    assert.deepEqual([first.count, first.truncated, first.items.length], [all, true, 3]);
    assert.deepEqual(
      first.items.map((i: any) => atPointer(doc.content, i.pointer).id),
      ['ac-1', 'ac-2', 'ac-2.1'],
      'in document order',
    );
    const many = result(await query('1 to 1500', alice));
    assert.deepEqual([many.count, many.truncated, many.items.length], [1500, true, 1000]);
    assert.deepEqual(many.items[999], { kind: 'atomic', type: 'xs:integer', value: 1000 });
    const array = result(await query('array { 1 to 20000 }', alice)).items[0];
    assert.deepEqual([array.kind, array['value-truncated'], array.value[0]], ['array', true, 1]);
    assert.ok(array.value.length < 20000, `${array.value.length} members given`);
    assertErrorBody(await query('1', alice, '&limit=1001'), 400);
  });

  test('the current revision is read: after a replacement, the new title', async () => {
    const before = result(await query('/catalog/metadata/title', alice));
    assert.equal(before.items[0].text, doc.title);
    const newTitle = `${doc.title}, revised`;
    const put = await api(server.url, 'PUT', `/oscal/v1/catalog/${id}`, {
      token: alice,
      body: retitled(doc, newTitle),
      contentType: 'application/json',
    });
    assert.equal(put.status, 204, put.text);
    const now = result(await query('/catalog/metadata/title', alice));
    assert.deepEqual([now.revision, now.items[0].text], [2, newTitle]);
    doc = { ...doc, title: newTitle, content: JSON.parse(retitled(doc, newTitle)) };
  });

  test('a caller who may not read the document gets what a missing document gets: 404', async () => {
    for (const token of [bob, rita, undefined]) {
      const res = await query('/catalog/metadata/title', token);
      assertErrorBody(res, 404);
      assertConceals(res, fingerprints(), await query('/catalog/metadata/title', token, '', randomUUID()));
    }
  });

  test('a bad expression is 400 invalid-expression, naming the line and column in it', async () => {
    const body = assertErrorBody(await query('//control[', alice), 400, /line 1, column 11\b.*\[XPST0003\]/);
    assert.equal(body.code, 'invalid-expression');
    assertErrorBody(await query('count(//control)\n  + )', alice), 400, /line 2, column 5\b.*\[XPST0003\]/);
    assertErrorBody(await query('no-such-function(1)', alice), 400, /no-such-function.*\[XPST0017\]/);
    assertErrorBody(await query(`${'('.repeat(1990)}1${')'.repeat(1990)}`, alice), 400, /nested too deeply/);
    assert.equal(assertErrorBody(await query('', alice), 400).code, 'bad-request');
  });

  test('an error while evaluating is 422 expression-failed with its code and where', async () => {
    const typeError = assertErrorBody(await query("'a' + count(//control)", alice), 422, /column 5\b.*\[XPTY0004\]/);
    assert.equal(typeError.code, 'expression-failed');
    assertErrorBody(await query('count(1 to 100000000000)', alice), 422, /\[FOAR0002\]/);
  });

  test('work without end is stopped (422 expression-too-costly) while the server goes on answering', async () => {
    const started = Date.now();
    const endless = query('count((1 to 9999999) ! (1 to 9999999))', alice);
    // Some 80 million integers: past 256 MB in about as long as the time limit (either stops it).
    const hungry = query('count(for $i in 1 to 9999999 return ($i, $i, $i, $i, $i, $i, $i, $i))', alice);
    // Meanwhile, a read that evaluates nothing is answered at once.
    const ready = await api(server.url, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.ok(Date.now() - started < 3000, `the server answered in ${Date.now() - started} ms`);
    for (const res of await Promise.all([endless, hungry])) {
      const body = assertErrorBody(res, 422, /still running after 5 s|more memory/);
      assert.equal(body.code, 'expression-too-costly');
    }
    const recursion = await query('let $f := function($f, $n) { $f($f, $n + 1) } return $f($f, 1)', alice);
    assert.equal(assertErrorBody(recursion, 422, /recursed/).code, 'expression-too-costly');
    // What ran them was replaced: the server still evaluates.
    const groups = (doc.content.catalog.groups as unknown[]).length;
    assert.equal(result(await query('count(//group)', alice)).items[0].value, groups);
  });

  test('anonymous callers and other users query a public document, as they read it', async () => {
    const access = await api(server.url, 'PUT', `/oscal/v1/catalog/${id}/access`, {
      token: alice,
      body: JSON.stringify({ visibility: 'public' }),
      contentType: 'application/json',
    });
    assert.equal(access.status, 200, access.text);
    for (const token of [undefined, bob, rita]) {
      const r = result(await query('/catalog/metadata/title', token));
      assert.equal(r.items[0].text, doc.title);
    }
  });
});
