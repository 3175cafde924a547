/**
 * The web interface over real HTTP, without a browser (issue 20): its pages' Content-Security-
 * Policy, local sign-in and sign-out, the access rules of the APIs, and the assets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { cli, createTokenFor, TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';

const WEB_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let server: TestServer;
let alice: string;
let bob: string;
let aliceDoc: string;
const SECRET_TITLE = 'Alice private catalog 7f3e';

function catalog(title: string): string {
  return JSON.stringify({
    catalog: {
      uuid: crypto.randomUUID(),
      metadata: { title, 'last-modified': '2024-01-01T00:00:00Z', version: '1.0', 'oscal-version': '1.1.2' },
    },
  });
}

/** A page as a browser asks for it, with the web sign-in cookie when given. */
function get(path: string, cookie?: string): Promise<ApiResponse> {
  return api(server.url, 'GET', path, { accept: HTML, headers: cookie ? { cookie } : {} });
}

function signIn(token: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return api(server.url, 'POST', '/sign-in', {
    body: new URLSearchParams({ token }).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers,
  });
}

/** The cookie a sign-in set, as a browser sends it back. */
function cookieOf(res: ApiResponse): string {
  const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = set.find((c) => c.startsWith('depotToken='));
  assert.ok(cookie, `no sign-in cookie in ${set.join(' | ')}`);
  return cookie.split(';')[0]!;
}

before(async () => {
  // Every request looks its token up, so that a revocation shows at once.
  server = await TestServer.start({ args: ['--token-cache', '0'] });
  alice = createTokenFor(server.dataDir, 'alice', 'writer');
  bob = createTokenFor(server.dataDir, 'bob', 'writer');
  const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token: alice,
    body: catalog(SECRET_TITLE),
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
  aliceDoc = created.json()['catalog-list'][0]['content-uuid'];
});

after(async () => {
  await stopWithin(server);
});

describe('pages', () => {
  test('the home page, for a browser: HTML under the web policy, with links to every model and a sign-in link', async () => {
    const res = await get('/');
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8$/);
    assert.equal(res.headers['content-security-policy'], WEB_POLICY);
    assert.match(res.text, /^<!doctype html>\s*<html lang="en">/);
    assert.ok(res.text.includes('href="/browse/catalog"'));
    assert.ok(res.text.includes('href="/browse/system-security-plan"'));
    assert.ok(res.text.includes('href="/sign-in"'));
    assert.match(res.text, /<link rel="stylesheet" href="\/assets\/site.css" ?\/?>/);
    assert.doesNotMatch(res.text, /<script(?![^>]*\bsrc=)|<style|\son\w+=|style=/i, 'no inline script or style');
  });

  test('GET / without Accept text/html is still the API page under the API policy', async () => {
    const res = await api(server.url, 'GET', '/');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-security-policy']), /^default-src 'none'; frame-ancestors 'none'$/);
    assert.ok(res.text.includes(`href="${server.url}/docs"`));
    assert.match(String(res.headers.vary), /Accept/);
  });

  test('a browse page and the sign-in page are under the web policy', async () => {
    for (const path of ['/browse/catalog', '/sign-in', '/browse/profile?q=x&sort=-last-modified']) {
      const res = await get(path);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.equal(res.headers['content-security-policy'], WEB_POLICY, path);
    }
  });

  test('bad input is a 4xx page, never a 500', async () => {
    assert.equal((await get('/browse/catalog?sort=sideways')).status, 400);
    assert.equal((await get('/browse/catalog?cursor=nonsense')).status, 400);
    assert.equal((await get('/browse/nothing')).status, 404);
    assert.equal((await get('/documents/catalog/not-an-id')).status, 404);
    assert.equal((await get('/documents/catalog/x/download/pdf')).status, 404);
    const form = await api(server.url, 'POST', '/sign-in', { body: 'x', contentType: 'text/plain' });
    assert.ok(form.status >= 400 && form.status < 500, `${form.status}`);
  });
});

describe('assets', () => {
  test('site.css is served with its type and a Cache-Control', async () => {
    const res = await api(server.url, 'GET', '/assets/site.css');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/css; charset=utf-8');
    assert.match(String(res.headers['cache-control']), /max-age=\d+/);
    assert.match(res.text, /font-family/);
  });

  test('only known file names: no other file, no path out of the folder', async () => {
    for (const path of ['/assets/nope.css', '/assets/..%2Fpackage.json', '/assets/%2E%2E%2F%2E%2E%2Fpackage.json']) {
      const res = await api(server.url, 'GET', path);
      assert.equal(res.status, 404, `${path}: ${res.status}`);
      assert.doesNotMatch(res.text, /oscal-depot/);
    }
  });
});

describe('local sign-in', () => {
  test('a right token: 303 home with an HttpOnly SameSite=Lax cookie, and the pages name the user', async () => {
    const res = await signIn(alice);
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.location, '/');
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n');
    assert.match(set, /^depotToken=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/m);
    assert.doesNotMatch(set, /Secure/, 'not Secure over plain http');
    const home = await get('/', cookieOf(res));
    assert.match(home.text, /Signed in as <strong>alice<\/strong> \(writer\)/);
    assert.ok(home.text.includes('action="/sign-out"'));
  });

  test('a wrong token: the form again with an error, 401, no cookie', async () => {
    const res = await signIn('odt_not-a-real-token');
    assert.equal(res.status, 401);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.match(res.text, /<form method="post" action="\/sign-in"/);
    assert.match(res.text, /role="alert"[^>]*>That token is unknown/);
    assert.equal(res.headers['content-security-policy'], WEB_POLICY);
  });

  test('a sign-in posted from a page of another site is refused', async () => {
    const res = await signIn(alice, { origin: 'https://evil.example' });
    assert.equal(res.status, 403);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  test('sign-out clears the cookie', async () => {
    const res = await api(server.url, 'POST', '/sign-out', { headers: { cookie: cookieOf(await signIn(alice)) } });
    assert.equal(res.status, 303);
    assert.match(String(res.headers['set-cookie']), /^depotToken=; Max-Age=0; Path=\/;.* HttpOnly; SameSite=Lax$/);
  });

  test('a revoked token signs its browser out: the next page is 401 and drops the cookie', async () => {
    const carol = await makeToken(server.dataDir, 'carol', 'reader');
    const cookie = cookieOf(await signIn(carol.secret));
    assert.equal((await get('/browse/catalog', cookie)).status, 200);
    const revoked = cli(['token', 'revoke', carol.id, '--data', server.dataDir]);
    assert.equal(revoked.code, 0, revoked.stderr);
    const res = await get('/browse/catalog', cookie);
    assert.equal(res.status, 401, res.text);
    assert.match(String(res.headers['set-cookie']), /^depotToken=; Max-Age=0/);
    assert.match(res.text, /action="\/sign-in"/);
  });
});

describe('access rules', () => {
  test("alice's private catalog: listed and shown to her", async () => {
    const cookie = cookieOf(await signIn(alice));
    const list = await get('/browse/catalog', cookie);
    assert.ok(list.text.includes(SECRET_TITLE), list.text);
    assert.ok(list.text.includes(`href="/documents/catalog/${aliceDoc}"`));
    const page = await get(`/documents/catalog/${aliceDoc}`, cookie);
    assert.equal(page.status, 200, page.text);
    assert.ok(page.text.includes(`<h1>${SECRET_TITLE}</h1>`));
    for (const format of ['json', 'xml', 'yaml']) {
      assert.ok(page.text.includes(`href="/documents/catalog/${aliceDoc}/download/${format}"`), format);
      const download = await get(`/documents/catalog/${aliceDoc}/download/${format}`, cookie);
      assert.equal(download.status, 200, `${format}: ${download.text}`);
      assert.match(
        String(download.headers['content-disposition']),
        new RegExp(`attachment; filename="${aliceDoc}.${format}"`),
      );
      assert.ok(download.text.includes(SECRET_TITLE), format);
    }
  });

  test('neither bob nor anonymous sees it listed, nor reaches its page or downloads; the 404 names nothing', async () => {
    const bobCookie = cookieOf(await signIn(bob));
    for (const cookie of [bobCookie, undefined]) {
      const list = await get('/browse/catalog', cookie);
      assert.equal(list.status, 200);
      assert.ok(!list.text.includes(SECRET_TITLE) && !list.text.includes(aliceDoc));
      for (const path of [`/documents/catalog/${aliceDoc}`, `/documents/catalog/${aliceDoc}/download/json`]) {
        const res = await get(path, cookie);
        assert.equal(res.status, 404, `${path}: ${res.status}`);
        assert.ok(!res.text.includes(SECRET_TITLE) && !res.text.includes(aliceDoc), res.text);
        assert.equal(res.headers['content-security-policy'], WEB_POLICY);
      }
    }
    const absent = await get(`/documents/catalog/${crypto.randomUUID()}`, bobCookie);
    const hidden = await get(`/documents/catalog/${aliceDoc}`, bobCookie);
    assert.equal(absent.text.replace(/[0-9a-f-]{36}/g, ''), hidden.text.replace(/[0-9a-f-]{36}/g, ''));
  });

  test('the sign-in cookie does not authenticate the APIs: there a browser still needs a bearer token', async () => {
    const cookie = cookieOf(await signIn(alice));
    const res = await api(server.url, 'GET', `/oscal/v1/catalog/${aliceDoc}`, { headers: { cookie } });
    assert.equal(res.status, 404);
  });
});

describe('history', () => {
  test('versions listed newest first with author and time; an older one opens read-only; none for others', async () => {
    const first = JSON.parse(catalog('History catalog, first words'));
    const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
      token: alice,
      body: JSON.stringify(first),
      contentType: 'application/json',
    });
    assert.equal(created.status, 201, created.text);
    const id: string = created.json()['catalog-list'][0]['content-uuid'];
    first.catalog.metadata.title = 'History catalog, second words';
    const replaced = await api(server.url, 'PUT', `/oscal/v1/catalog/${id}`, {
      token: alice,
      body: JSON.stringify(first),
      contentType: 'application/json',
    });
    assert.equal(replaced.status, 204, replaced.text);

    const cookie = cookieOf(await signIn(alice));
    const current = await get(`/documents/catalog/${id}`, cookie);
    assert.ok(current.text.includes(`href="/documents/catalog/${id}/versions"`), 'the owner is offered the history');
    const list = await get(`/documents/catalog/${id}/versions`, cookie);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.headers['content-security-policy'], WEB_POLICY);
    const second = list.text.indexOf(`href="/documents/catalog/${id}/versions/2"`);
    const firstLink = list.text.indexOf(`href="/documents/catalog/${id}/versions/1"`);
    assert.ok(second >= 0 && firstLink > second, 'both versions, newest first');
    assert.ok(list.text.includes('alice'));
    assert.match(list.text, /<time datetime="\d{4}-\d{2}-\d{2}T/);

    const old = await get(`/documents/catalog/${id}/versions/1`, cookie);
    assert.equal(old.status, 200, old.text);
    assert.ok(old.text.includes('History catalog, first words'));
    assert.ok(!old.text.includes('History catalog, second words'));
    assert.match(old.text, /Version 1, written by alice .*read-only/s);
    assert.equal((await get(`/documents/catalog/${id}/versions/3`, cookie)).status, 404);

    // Bob may not read the document: neither its history nor any version exists for him.
    const bobCookie = cookieOf(await signIn(bob));
    for (const path of [`/documents/catalog/${id}/versions`, `/documents/catalog/${id}/versions/1`]) {
      const res = await get(path, bobCookie);
      assert.equal(res.status, 404, `${path}: ${res.status}`);
      assert.ok(!res.text.includes('History catalog'), res.text);
    }
  });
});
