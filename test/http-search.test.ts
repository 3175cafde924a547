/**
 * Full-text search over real HTTP (issue 22) on both backends, with NIST's 800-53 catalog and SSP
 * example stored: words, phrases, prefixes and control ids; the control-id and model filters;
 * access (a private document's words are found by its owner only); the index kept in step with
 * PUT and DELETE. Expected hits are derived from the files, not from the server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog, retitled } from './support/marked-docs.js';
import { freshDatabase, SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { createTokenFor, TestServer } from './support/server.js';
import { CONTENT, REV5_A849 } from './support/shared.js';

const CATALOG = join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json');
const SSP = join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json');

type Obj = Record<string, any>;
type Hit = {
  'content-uuid': string;
  model: string;
  kind: string;
  key?: string;
  path: string;
  snippet: string;
  highlights: [number, number][];
};

/** A word that occurs once in the whole file, inside one control's guidance: the test's own pick. */
function guidanceOnlyWord(): { word: string; control: string } {
  const text = readFileSync(CATALOG, 'utf8').toLowerCase();
  const catalog = JSON.parse(readFileSync(CATALOG, 'utf8')) as Obj;
  const controls: Obj[] = [];
  const walk = (node: Obj) => {
    for (const c of node.controls ?? []) {
      controls.push(c);
      walk(c);
    }
    for (const g of node.groups ?? []) walk(g);
  };
  walk(catalog.catalog);
  for (const control of controls) {
    const guidance = (control.parts ?? []).find((p: Obj) => p.name === 'guidance');
    for (const word of String(guidance?.prose ?? '')
      .toLowerCase()
      .match(/\b[a-z]{9,}\b/g) ?? []) {
      if (text.split(word).length === 2) return { word, control: control.id };
    }
  }
  throw new Error('no word found once');
}

function backends(): {
  name: string;
  args: () => Promise<{ args: string[]; drop?: () => Promise<void> }>;
  skip?: string;
}[] {
  return [
    { name: 'SQLite', args: async () => ({ args: [] }) },
    {
      name: 'PostgreSQL',
      ...(TEST_DATABASE_URL ? {} : { skip: SKIP_MESSAGE }),
      args: async () => {
        const database = await freshDatabase();
        return { args: ['--database-url', database.url], drop: database.drop };
      },
    },
  ];
}

for (const backend of backends()) {
  describe(`search on ${backend.name}`, { ...(backend.skip ? { skip: backend.skip } : {}) }, () => {
    let server: TestServer;
    let drop: (() => Promise<void>) | undefined;
    let admin: string;
    let alice: string;
    let bob: string;
    let catalogId: string;
    let sspId: string;

    const search = async (query: Record<string, string>, token?: string) => {
      const res = await api(
        server.url,
        'GET',
        `/oscal/v1/search?${new URLSearchParams(query)}`,
        token ? { token } : {},
      );
      assert.equal(res.status, 200, res.text);
      return res.json()['search-results'] as Hit[];
    };
    const post = async (model: string, body: string, token: string) => {
      const res = await api(server.url, 'POST', `/oscal/v1/${model}`, { token, body, contentType: 'application/json' });
      assert.equal(res.status, 201, res.text);
      return res.json()[`${model}-list`][0]['content-uuid'] as string;
    };
    const publish = async (model: string, id: string) => {
      const res = await api(server.url, 'PUT', `/oscal/v1/${model}/${id}/access`, {
        token: admin,
        body: JSON.stringify({ visibility: 'public' }),
        contentType: 'application/json',
      });
      assert.equal(res.status, 200, res.text);
    };

    before(async () => {
      const made = await backend.args();
      drop = made.drop;
      server = await TestServer.start({ args: made.args });
      admin = server.adminToken();
      alice = createTokenFor(server.dataDir, 'alice', 'writer', made.args);
      bob = createTokenFor(server.dataDir, 'bob', 'writer', made.args);
      catalogId = await post('catalog', readFileSync(CATALOG, 'utf8'), admin);
      sspId = await post('system-security-plan', readFileSync(SSP, 'utf8'), admin);
      await publish('catalog', catalogId);
      await publish('system-security-plan', sspId);
    });

    after(async () => {
      await stopWithin(server);
      await drop?.();
    });

    test('a word only in a control’s guidance finds that control’s guidance', async () => {
      const { word, control } = guidanceOnlyWord();
      const hits = await search({ q: word });
      assert.equal(hits.length, 1, JSON.stringify(hits));
      assert.equal(hits[0]!['content-uuid'], catalogId);
      assert.equal(hits[0]!.key, `${control}_gdn`);
      const [start, end] = hits[0]!.highlights[0]!;
      assert.equal(hits[0]!.snippet.slice(start, end).toLowerCase(), word);
    });

    test('a phrase, a prefix, and an id in either spelling', async () => {
      const phrase = await search({ q: '"account management"', model: 'catalog' });
      assert.ok(
        phrase.some((h) => h.key === 'ac-2'),
        'AC-2 Account Management',
      );
      const prefix = await search({ q: 'crypt*', model: 'catalog', limit: '100' });
      assert.ok(
        prefix.some((h) => h.key === 'sc-13'),
        'SC-13 Cryptographic Protection',
      );
      const dotted = await search({ q: 'ac-2.1', model: 'catalog' });
      const bracketed = await search({ q: 'AC-2(1)', model: 'catalog' });
      assert.deepEqual(
        bracketed.map((h) => h.path),
        dotted.map((h) => h.path),
      );
      assert.ok(dotted.some((h) => h.key === 'ac-2.1'));
    });

    test('a control-id filter finds the SSPs that implement it', async () => {
      const ssp = JSON.parse(readFileSync(SSP, 'utf8')) as Obj;
      const implemented = ssp['system-security-plan']['control-implementation']['implemented-requirements'][0][
        'control-id'
      ] as string;
      const hits = await search({ 'control-id': implemented, model: 'system-security-plan' });
      assert.ok(hits.length > 0);
      assert.ok(hits.every((h) => h['content-uuid'] === sspId && h.model === 'system-security-plan'));
      assert.ok(hits.some((h) => h.kind === 'implemented-requirement'));
    });

    test('a private document’s words: found by its owner, by no one else; PUT and DELETE keep the index in step', async () => {
      const doc = markedCatalog('search private');
      const id = await post('catalog', doc.body, alice);
      const word = doc.marker.split('-')[1]!;
      assert.equal((await search({ q: word }, alice)).length > 0, true);
      assert.deepEqual(await search({ q: word }, bob), []);
      assert.deepEqual(await search({ q: word }), []);

      const renamed = JSON.parse(retitled(doc, 'Zeppelinoscope procedures')) as Obj;
      renamed.catalog.metadata.remarks = 'nothing marked here';
      const put = await api(server.url, 'PUT', `/oscal/v1/catalog/${id}`, {
        token: alice,
        body: JSON.stringify(renamed),
        contentType: 'application/json',
      });
      assert.equal(put.status, 204, put.text);
      assert.deepEqual(await search({ q: word }, alice), [], 'removed words are no longer found');
      assert.ok((await search({ q: 'zeppelinoscope' }, alice)).length > 0, 'new words are');

      const gone = await api(server.url, 'DELETE', `/oscal/v1/catalog/${id}`, { token: alice });
      assert.equal(gone.status, 204, gone.text);
      assert.deepEqual(await search({ q: 'zeppelinoscope' }, alice), []);
    });

    test('deleting the current version: the index follows the version now current', async () => {
      const doc = markedCatalog('search versions');
      const id = await post('catalog', doc.body, alice);
      const next = JSON.parse(retitled(doc, 'Quixotically renamed')) as Obj;
      next.catalog.metadata.remarks = 'no marker';
      const put = await api(server.url, 'PUT', `/oscal/v1/catalog/${id}`, {
        token: alice,
        body: JSON.stringify(next),
        contentType: 'application/json',
      });
      assert.equal(put.status, 204, put.text);
      const word = doc.marker.split('-')[1]!;
      assert.deepEqual(await search({ q: word }, alice), []);
      const gone = await api(server.url, 'DELETE', `/api/v1/catalogs/${id}/versions/2`, { token: alice });
      assert.equal(gone.status, 204, gone.text);
      assert.ok((await search({ q: word }, alice)).length > 0, 'the first version’s words again');
      assert.deepEqual(await search({ q: 'quixotically' }, alice), []);
    });

    test('paging: the Link header’s next page continues without repeats; bad input is 400', async () => {
      const first = await api(server.url, 'GET', '/oscal/v1/search?q=account&limit=5', {});
      assert.equal(first.status, 200);
      const link = /<([^>]+)>; rel="next"/.exec(String(first.headers.link));
      assert.ok(link, 'a next page');
      const second = await api(server.url, 'GET', new URL(link[1]!).pathname + new URL(link[1]!).search, {});
      const paths = [...first.json()['search-results'], ...second.json()['search-results']].map((h: Hit) => h.path);
      assert.equal(new Set(paths).size, paths.length);
      for (const bad of ['', 'cursor=nonsense&q=a', 'q=a&limit=0', 'q=a&model=nothing']) {
        const res = await api(server.url, 'GET', `/oscal/v1/search?${bad}`, {});
        assert.equal(res.status, 400, `${bad}: ${res.text}`);
      }
      for (const hostile of ['"', '(', 'NEAR(a b)', 'a AND OR', '*', ':', '&!|', 'x'.repeat(400)]) {
        const res = await api(server.url, 'GET', `/oscal/v1/search?${new URLSearchParams({ q: hostile })}`, {});
        assert.equal(res.status, 200, `${hostile}: ${res.text}`);
      }
    });
  });
}
