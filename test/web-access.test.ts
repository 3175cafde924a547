/**
 * Access on the web interface (issue 20): a page never shows a title, a count or a link of a
 * document the viewer may not read. Every page of PAGES is walked, over real HTTP against a real
 * `oscal-depot serve`, as each caller of the API's authorization matrix (test/http-authorization)
 * plus the holder of a read grant, on a public and a private document of each model it serves.
 * The expected statuses are written out by hand from the rules; every response is searched for
 * every identifying string of every document that caller may not read; a page refused for such a
 * document must be the very page served for a document that does not exist.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { MODELS } from '../src/oscal/model/models.js';
import { assertNoneOf } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog, retitled } from './support/marked-docs.js';
import { TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';

type Who = 'anonymous' | 'reader' | 'writer' | 'otherOwner' | 'owner' | 'admin' | 'grantee';
type Vis = 'public' | 'private';
type Model = (typeof MODELS)[number];
/** The models the fixtures hold a public and a private document of: every document page is walked on each. */
type FixtureModel = 'catalog' | 'profile';
/** What a document page needs of the viewer: read it, change it, or manage it (as the APIs' rules). */
type Rule = 'read' | 'write' | 'manage';

const WHO: Who[] = ['anonymous', 'reader', 'writer', 'otherOwner', 'owner', 'admin', 'grantee'];
const VIS: Vis[] = ['public', 'private'];
const FIXTURE_MODELS: readonly FixtureModel[] = ['catalog', 'profile'];

/**
 * Expected status of a document page, per caller: [on the public document, on the private one],
 * both owned by `owner`; `grantee` holds a read grant on each private one. Rules: read = admin,
 * owner, public, grant; write = admin, owner, write grant; manage = admin, owner. Cannot read: 404,
 * exactly as for a document that does not exist. May read but not do this: 403. Pages beyond
 * reading first ask for a signed-in viewer: 401 (the sign-in form) to anyone signed out.
 */
const EXPECTED: Record<Rule, Record<Who, readonly [number, number]>> = {
  read: /*  */ {
    anonymous: [200, 404],
    reader: [200, 404],
    writer: [200, 404],
    otherOwner: [200, 404],
    owner: [200, 200],
    admin: [200, 200],
    grantee: [200, 200],
  },
  write: /* */ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
    grantee: [403, 403],
  },
  manage: /**/ {
    anonymous: [401, 401],
    reader: [403, 404],
    writer: [403, 404],
    otherOwner: [403, 404],
    owner: [200, 200],
    admin: [200, 200],
    grantee: [403, 403],
  },
};

/** User names behind the tokens; the admin is the first-start token's user. */
const NAME: Record<Exclude<Who, 'anonymous'>, string> = {
  reader: 'rita',
  writer: 'walt',
  otherOwner: 'oscar',
  owner: 'olive',
  admin: 'admin',
  grantee: 'gina',
};

interface Doc {
  model: FixtureModel;
  id: string;
  /** Its first title; every later title here starts with it, so one search finds any of them. */
  title: string;
  /** A word of the title found in no other document's. */
  tag: string;
  rootUuid: string;
  marker: string;
  owner: string;
  visibility: Vis;
  grants: { principal: string; permission: 'read' | 'write' }[];
  /** Of the fixtures: a content snapshot and an attached file, made once every setting is in place. */
  snapshot?: string;
  resource?: string;
}

const docUrl = (doc: Doc) => `/documents/${doc.model}/${doc.id}`;

/** Every page of the web interface, in one of three kinds. */
type WebPage =
  /** About no document: the same for everyone but the account corner. */
  | { name: string; kind: 'site'; url: () => string }
  /** Rows of the documents of a model that the viewer may read, with q, sort and paging. */
  | { name: string; kind: 'list'; model: Model; url: () => string }
  /** One document's page, under a rule; on every fixture model unless `models` says otherwise. */
  | { name: string; kind: 'document'; rule: Rule; url: (doc: Doc) => string; models?: readonly FixtureModel[] };

/**
 * EVERY web page must be in this table: a page missing here is a page nobody checks for leaks.
 * A new page is one line; a page of one document shows its title to whoever may open it.
 */
const PAGES: readonly WebPage[] = [
  { name: 'home', kind: 'site', url: () => '/' },
  { name: 'sign-in', kind: 'site', url: () => '/sign-in' },
  // Every fixture's title and marker hold these words: a search that finds what the caller may not read leaks it.
  { name: 'search', kind: 'site', url: () => '/search?q=depot+fixture' },
  { name: 'search by marker', kind: 'site', url: () => '/search?q=zqx*' },
  ...MODELS.map((model): WebPage => ({ name: `browse ${model}`, kind: 'list', model, url: () => `/browse/${model}` })),
  { name: 'document', kind: 'document', rule: 'read', url: (d) => docUrl(d) },
  { name: 'download json', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/download/json` },
  { name: 'download xml', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/download/xml` },
  { name: 'download yaml', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/download/yaml` },
  { name: 'versions', kind: 'document', rule: 'manage', url: (d) => `${docUrl(d)}/versions` },
  { name: 'version 1', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/versions/1` },
  { name: 'resolved', kind: 'document', rule: 'read', models: ['profile'], url: (d) => `${docUrl(d)}/resolved` },
  { name: 'snapshots', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/snapshots` },
  { name: 'what changed', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/diff?from=1` },
  { name: 'attachments', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/attachments` },
  { name: 'a snapshot', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/snapshots/${d.snapshot}` },
  { name: 'an attached file', kind: 'document', rule: 'read', url: (d) => `${docUrl(d)}/attachments/${d.resource}` },
  { name: 'sharing', kind: 'document', rule: 'manage', url: (d) => `${docUrl(d)}/access` },
  { name: 'upload a version', kind: 'document', rule: 'write', url: (d) => `${docUrl(d)}/upload` },
];

const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let server: TestServer;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
/** Every document this file created, with what the server was told about it. */
const registry = new Map<string, Doc>();
const fixtures = {} as Record<FixtureModel, Record<Vis, Doc>>;

/** A page as a browser asks for it, signed in through the web cookie (never a bearer token). */
function get(who: Who, path: string): Promise<ApiResponse> {
  const headers: Record<string, string> = who === 'anonymous' ? {} : { cookie: `depotToken=${tokens[who]}` };
  return api(server.url, 'GET', path, { accept: HTML_ACCEPT, headers });
}

/** The API, as a bearer-token client: how fixtures are made and access is changed. */
function apiCall(who: Exclude<Who, 'anonymous'>, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return api(server.url, method, `/oscal/v1${path}`, {
    token: tokens[who],
    ...(body === undefined ? {} : { body: JSON.stringify(body), contentType: 'application/json' }),
  });
}

/** The rules of D7: who may read a document as the server was told about it. */
function mayRead(who: Who, doc: Doc): boolean {
  if (doc.visibility === 'public') return true;
  if (who === 'anonymous') return false;
  return who === 'admin' || doc.owner === NAME[who] || doc.grants.some((g) => g.principal === `user:${NAME[who]}`);
}

/** What would identify a document on a page: its id (and so any link to it), root uuid, title and remarks marker. */
const fingerprints = (doc: Doc) => [doc.id, doc.rootUuid, doc.title, doc.marker];

/** No byte of any document this caller may not read, anywhere in the response. */
function assertNothingHidden(who: Who, res: ApiResponse, what: string): void {
  for (const doc of registry.values())
    if (!mayRead(who, doc)) assertNoneOf(res, fingerprints(doc), `${what} as ${who} (hiding ${doc.title})`);
}

/** The headers that could tell two answers apart, less the clock and the per-request id. */
function headersOf(res: ApiResponse): Record<string, unknown> {
  const { date: _date, 'x-request-id': _requestId, ...rest } = res.headers;
  return rest;
}

/** D3 on pages: the answer for a hidden document is the answer for an absent one, to the byte. */
function assertSameAsAbsent(res: ApiResponse, absent: ApiResponse, what: string): void {
  assert.equal(res.status, absent.status, `${what}: the status of a document that does not exist`);
  assert.deepEqual(headersOf(res), headersOf(absent), `${what}: the headers of a document that does not exist`);
  assert.ok(res.body.equals(absent.body), `${what}: the page of a document that does not exist:\n${res.text}`);
}

/** A document of the same model and visibility, but an id no document has. */
const absentLike = (doc: Doc): Doc => ({ ...doc, id: randomUUID() });

async function setAccess(doc: Doc, change: { visibility?: Vis; grants?: Doc['grants'] }): Promise<void> {
  const res = await apiCall('owner', 'PUT', `/${doc.model}/${doc.id}/access`, change);
  assert.equal(res.status, 200, res.text);
  if (change.visibility) doc.visibility = change.visibility;
  if (change.grants) doc.grants = change.grants;
}

async function createCatalog(label: string, visibility: Vis, ownerWho: 'owner' | 'otherOwner' = 'owner') {
  const marked = markedCatalog(label);
  const res = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token: tokens[ownerWho],
    body: marked.body,
    contentType: 'application/json',
  });
  assert.equal(res.status, 201, res.text);
  const doc: Doc = {
    model: 'catalog',
    id: res.json()['catalog-list'][0]['content-uuid'],
    title: marked.title,
    tag: marked.title.split(' ').at(-1)!,
    rootUuid: marked.rootUuid,
    marker: marked.marker,
    owner: NAME[ownerWho],
    visibility: 'private',
    grants: [],
  };
  registry.set(doc.id, doc);
  if (visibility === 'public') await setAccess(doc, { visibility });
  return { doc, marked };
}

/** A profile of the public catalog (so that it resolves), marked like markedCatalog's copies. */
async function createProfile(label: string, visibility: Vis, catalog: Doc): Promise<Doc> {
  const tag = randomBytes(6).toString('hex');
  const title = `Depot profile fixture ${label} ${tag}`;
  const marker = `zqx-${tag}-distinctive-marker`;
  const rootUuid = randomUUID();
  const res = await apiCall('owner', 'POST', '/profile', {
    profile: {
      uuid: rootUuid,
      metadata: {
        title,
        'last-modified': '2024-01-01T00:00:00Z',
        version: '1',
        'oscal-version': '1.1.2',
        remarks: marker,
      },
      imports: [{ href: `../catalog/${catalog.id}`, 'include-all': {} }],
    },
  });
  assert.equal(res.status, 201, res.text);
  const id = res.json()['profile-list'][0]['content-uuid'] as string;
  const doc: Doc = {
    model: 'profile',
    id,
    title,
    tag,
    rootUuid,
    marker,
    owner: NAME.owner,
    visibility: 'private',
    grants: [],
  };
  registry.set(id, doc);
  if (visibility === 'public') await setAccess(doc, { visibility });
  return doc;
}

const decodeHref = (href: string) => href.replace(/&amp;/g, '&');

/** The documents a browse page lists, in order: one link per row, and no other link to a document. */
function rowsOf(res: ApiResponse, model: Model): string[] {
  const tbody = /<table class="documents">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(res.text)?.[1] ?? '';
  const rows = [...tbody.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
  const ids = rows.map((row) => {
    const links = [...row.matchAll(/href="\/documents\/([^/"]+)\/([^/"]+)"/g)];
    assert.equal(links.length, 1, `one document link per row: ${row}`);
    assert.equal(links[0]![1], model, `a row of ${model} links to a ${model}`);
    return links[0]![2]!;
  });
  const everyLink = [...res.text.matchAll(/href="\/documents\//g)].length;
  assert.equal(everyLink, ids.length, 'no link to a document outside the rows');
  if (ids.length === 0) assert.match(res.text, /<p class="empty">/, 'an empty list says so');
  return ids;
}

const nextOf = (res: ApiResponse) => /<a href="([^"]+)" rel="next">/.exec(res.text)?.[1];

/** The ids of the registry's documents of a model this caller may read, in the page's title order. */
function readableOf(who: Who, model: Model, descending = false): string[] {
  const docs = [...registry.values()].filter((d) => d.model === model && mayRead(who, d));
  // The store orders by the lower-cased title byte by byte (COLLATE "C"), then by id.
  const key = (d: Doc) => [d.title.toLowerCase(), d.id] as const;
  docs.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
  });
  if (descending) docs.reverse();
  return docs.map((d) => d.id);
}

before(async () => {
  // Every request looks its token up again, so that an access change shows on the next page.
  server = await TestServer.start({ args: ['--token-cache', '0', '--auth-failure-limit', '0'] });
  tokens.admin = server.adminToken();
  const made = await Promise.all(
    (['reader', 'writer', 'otherOwner', 'owner', 'grantee'] as const).map((who) =>
      makeToken(server.dataDir, NAME[who], who === 'reader' || who === 'grantee' ? 'reader' : 'writer'),
    ),
  );
  (['reader', 'writer', 'otherOwner', 'owner', 'grantee'] as const).forEach(
    (who, i) => (tokens[who] = made[i]!.secret),
  );

  const publicCatalog = (await createCatalog('public', 'public')).doc;
  const { doc: privateCatalog, marked } = await createCatalog('private', 'private');
  // A second version, so that the private catalog's history has a title of the past in it too.
  const revised = await apiCall(
    'owner',
    'PUT',
    `/catalog/${privateCatalog.id}`,
    JSON.parse(retitled(marked, `${marked.title} revised`)),
  );
  assert.equal(revised.status, 204, revised.text);
  fixtures.catalog = { public: publicCatalog, private: privateCatalog };
  fixtures.profile = {
    public: await createProfile('public', 'public', publicCatalog),
    private: await createProfile('private', 'private', publicCatalog),
  };
  // Unreadable to the owner: the owner's pages must hide it as anyone else's hide the owner's.
  await createCatalog('other owner', 'private', 'otherOwner');
  for (const model of FIXTURE_MODELS)
    await setAccess(fixtures[model].private, { grants: [{ principal: `user:${NAME.grantee}`, permission: 'read' }] });
  // A snapshot and an attached file of each, for the pages that open one of them.
  for (const doc of FIXTURE_MODELS.flatMap((model) => VIS.map((vis) => fixtures[model][vis]))) {
    const snapshot = await apiCall('owner', 'POST', `/${doc.model}/${doc.id}/snapshot`, { snapshot: {} });
    assert.equal(snapshot.status, 201, snapshot.text);
    doc.snapshot = snapshot.json()['snapshot-id'];
    // The file says the document's title, so that a caller who may read it is seen to get it.
    const attached = await api(server.url, 'POST', `/oscal/v1/${doc.model}/${doc.id}/attachment`, {
      token: tokens.owner,
      body: `Notes on ${doc.title}`,
      contentType: 'text/plain',
      headers: { 'content-disposition': 'attachment; filename="notes.txt"' },
    });
    assert.equal(attached.status, 201, attached.text);
    doc.resource = attached.json().uuid;
  }
});

after(async () => {
  await stopWithin(server);
});

describe('the cookie signs each caller in', () => {
  for (const who of WHO) {
    test(who, async () => {
      const home = await get(who, '/');
      assert.equal(home.status, 200, home.text);
      if (who === 'anonymous') assert.ok(home.text.includes('href="/sign-in"'));
      else assert.ok(home.text.includes(`Signed in as <strong>${NAME[who]}</strong>`), home.text);
    });
  }
});

describe('every page as every caller', () => {
  for (const page of PAGES) {
    for (const who of WHO) {
      if (page.kind === 'site') {
        test(`${page.name}, ${who}: 200, nothing of a document it may not read`, async () => {
          const res = await get(who, page.url());
          assert.equal(res.status, 200, res.text);
          assertNothingHidden(who, res, page.name);
        });
      } else if (page.kind === 'list') {
        test(`${page.name}, ${who}: 200, exactly the documents it may read`, async () => {
          const res = await get(who, page.url());
          assert.equal(res.status, 200, res.text);
          assertNothingHidden(who, res, page.name);
          assert.deepEqual(rowsOf(res, page.model), readableOf(who, page.model));
          assert.equal(nextOf(res), undefined, 'every fixture fits on the first page');
        });
      } else {
        for (const model of page.models ?? FIXTURE_MODELS) {
          for (const vis of VIS) {
            const status = EXPECTED[page.rule][who][vis === 'public' ? 0 : 1];
            test(`${page.name} of the ${vis} ${model}, ${who}: ${status}`, async () => {
              const doc = fixtures[model][vis];
              const res = await get(who, page.url(doc));
              assert.equal(res.status, status, res.text.slice(0, 2000));
              assertNothingHidden(who, res, `${page.name} of the ${vis} ${model}`);
              if (status === 200) assert.ok(res.text.includes(doc.title), `the page shows the title to ${who}`);
              if (!mayRead(who, doc))
                assertSameAsAbsent(res, await get(who, page.url(absentLike(doc))), `${page.name} as ${who}`);
            });
          }
        }
      }
    }
  }
});

describe('browse: no row, page or search hit counts a document the viewer may not read', () => {
  for (const who of WHO) {
    for (const model of FIXTURE_MODELS) {
      for (const sort of ['title', '-title'] as const) {
        test(`${model}, ${who}, one per page by ${sort}: as many pages as documents it may read`, async () => {
          const expected = readableOf(who, model, sort === '-title');
          const seen: string[] = [];
          let url: string | undefined = `/browse/${model}?limit=1&sort=${sort}`;
          let pages = 0;
          while (url !== undefined) {
            assert.ok(++pages <= registry.size + 1, `paging ends: ${url}`);
            const res = await get(who, url);
            assert.equal(res.status, 200, res.text);
            assertNothingHidden(who, res, url);
            const rows = rowsOf(res, model);
            assert.equal(rows.length, Math.min(1, expected.length), `${url}: one row a page`);
            seen.push(...rows);
            const next = nextOf(res);
            url = next === undefined ? undefined : decodeHref(next);
          }
          assert.deepEqual(seen, expected);
          assert.equal(pages, Math.max(1, expected.length), 'no page more (nor a Next link) for a hidden document');
        });
      }

      test(`${model}, ${who}: a word only in the private title finds it only for those who may read it`, async () => {
        const hidden = fixtures[model].private;
        const res = await get(who, `/browse/${model}?q=${hidden.tag}`);
        assert.equal(res.status, 200, res.text);
        assertNothingHidden(who, res, `search for ${hidden.tag}`);
        if (mayRead(who, hidden)) {
          assert.deepEqual(rowsOf(res, model), [hidden.id]);
          assert.ok(res.text.includes(hidden.title));
          return;
        }
        assert.deepEqual(rowsOf(res, model), []);
        // The same page as a search for a word no title has, the query (shown in the form) aside.
        const word = randomBytes(6).toString('hex');
        const nothing = await get(who, `/browse/${model}?q=${word}`);
        assert.equal(res.text, nothing.text.replaceAll(word, hidden.tag));
      });
    }
  }

  test('the counts differ only by the hidden documents: admin lists all, anonymous the public ones', async () => {
    for (const model of FIXTURE_MODELS) {
      const count = async (who: Who) => rowsOf(await get(who, `/browse/${model}`), model).length;
      const all = [...registry.values()].filter((d) => d.model === model);
      assert.equal(await count('admin'), all.length);
      assert.equal(await count('anonymous'), all.filter((d) => d.visibility === 'public').length);
      assert.ok((await count('admin')) > (await count('anonymous')), 'the fixtures hold a hidden document');
      for (const who of WHO)
        assert.equal(await count(who), all.filter((d) => mayRead(who, d)).length, `${who}'s ${model} count`);
    }
  });

  test('a new private document changes no byte of any list or site page of a caller who may not read it', async () => {
    const urls = PAGES.flatMap((page) =>
      page.kind === 'document'
        ? []
        : page.kind === 'site'
          ? [page.url()]
          : [page.url(), `${page.url()}?sort=-title`, `${page.url()}?sort=-created&limit=1`, `${page.url()}?q=fixture`],
    );
    const snapshot = async () =>
      new Map(
        await Promise.all(
          WHO.flatMap((who) => urls.map(async (url) => [`${who} ${url}`, (await get(who, url)).text] as const)),
        ),
      );
    const earlier = await snapshot();
    const { doc } = await createCatalog('added later', 'private');
    const later = await snapshot();
    for (const who of WHO) {
      for (const url of urls) {
        if (mayRead(who, doc)) continue;
        assert.equal(
          later.get(`${who} ${url}`),
          earlier.get(`${who} ${url}`),
          `${url} as ${who} changed when a document it may not read was added`,
        );
      }
    }
    // So that the comparison can fail: the owner's catalog list did change.
    assert.notEqual(later.get('owner /browse/catalog'), earlier.get('owner /browse/catalog'));
    assert.ok(later.get('owner /browse/catalog')!.includes(doc.title));
  });
});

describe('a read grant', () => {
  test('shows a private document to the grantee only, and taking it away hides it again', async () => {
    const { doc } = await createCatalog('granted later', 'private');
    const page = docUrl(doc);
    const hidden = async (who: Who) => {
      const res = await get(who, page);
      assertNothingHidden(who, res, `the document page as ${who}`);
      assertSameAsAbsent(res, await get(who, docUrl(absentLike(doc))), `the document page as ${who}`);
      assert.ok(!rowsOf(await get(who, '/browse/catalog'), 'catalog').includes(doc.id));
    };
    await hidden('reader');

    await setAccess(doc, { grants: [{ principal: `user:${NAME.reader}`, permission: 'read' }] });
    const shown = await get('reader', page);
    assert.equal(shown.status, 200, shown.text);
    assert.ok(shown.text.includes(doc.title));
    assert.ok(!shown.text.includes(`${page}/versions"`), 'no link to the versions, which a grant does not open');
    assert.ok(rowsOf(await get('reader', '/browse/catalog'), 'catalog').includes(doc.id));
    assert.deepEqual(rowsOf(await get('reader', `/browse/catalog?q=${doc.tag}`), 'catalog'), [doc.id]);
    for (const format of ['json', 'xml', 'yaml']) {
      const download = await get('reader', `${page}/download/${format}`);
      assert.equal(download.status, 200, `${format}: ${download.text}`);
      assert.ok(download.text.includes(doc.title), format);
    }
    assert.equal((await get('reader', `${page}/versions`)).status, 403, 'a read grant does not open the history');
    // The grant names rita: another reader-level caller still sees nothing.
    await hidden('writer');

    await setAccess(doc, { grants: [] });
    await hidden('reader');
  });
});
