/**
 * Sign-in through OpenID Connect (D6, D7) with real parts only: a real OpenID provider process
 * (oidc-provider) and real `oscal-depot serve` processes on loopback ports. The browser's redirect
 * flow is driven with fetch, a cookie jar and the provider's own login and consent forms.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { SealedCookies } from '../src/auth/oidc-session.js';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog } from './support/marked-docs.js';
import { Browser, type Hop } from './support/oidc-browser.js';
import { rsaSigningKey, TestProvider, type ProviderClient } from './support/oidc-provider.js';
import { newDataDir, TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

const API = 'https://depot.test/api';
const OTHER_API = 'https://elsewhere.test/api';
const KID = 'provider-key-1';
const WEB: ProviderClient = { id: 'depot-web', secret: randomBytes(24).toString('base64url'), web: true };
/** Roles as one space-separated string, as some providers send them. */
const ROBOT: ProviderClient = {
  id: 'depot-robot',
  secret: randomBytes(24).toString('base64url'),
  web: false,
  roles: 'reader writer',
};
const USERS = {
  alice: { roles: ['writer'], groups: ['auditors'] },
  bob: { roles: ['reader', 'superuser'], groups: ['auditors'] },
  carol: {},
};

let provider: TestProvider;
let depot: TestServer;
let signingKey: JWK;
let depotArgs: string[];
const depotEnv = { OSCAL_DEPOT_OIDC_CLIENT_SECRET: WEB.secret };

before(async () => {
  signingKey = await rsaSigningKey(KID);
  provider = await TestProvider.listen({
    signingKey,
    users: USERS,
    resources: [API, OTHER_API],
    clients: [WEB, ROBOT],
  });
  // The server discovers the provider on first need, so it may start before the provider serves.
  // Many refused tokens and cookies on purpose; the limit on them is tested apart.
  depotArgs = [...provider.depotArgs(WEB, API, 'openid profile roles groups'), '--auth-failure-limit', '0'];
  depot = await TestServer.start({ args: depotArgs, env: depotEnv });
  await provider.serve([`${depot.url}/auth/callback`]);
});
after(async () => {
  await stopWithin(depot);
  await provider?.stop();
});

/** The whole browser flow: /auth/login, the provider's login and consent forms, /auth/callback. */
async function signIn(
  login: keyof typeof USERS,
  query = '',
): Promise<{ browser: Browser; session: string; hops: Hop[]; landing: Hop }> {
  const browser = new Browser();
  const loginForm = await browser.navigate(`${depot.url}/auth/login${query}`);
  assert.equal(loginForm.status, 200, `the provider's login form: ${loginForm.body.slice(0, 300)}`);
  const consentForm = await browser.submit(loginForm, { login, password: 'whatever the provider accepts' });
  const landing = await browser.submit(consentForm);
  assert.equal(landing.status, 200, `the page after sign-in: ${landing.url} ${landing.body.slice(0, 300)}`);
  const session = browser.cookie('appSession');
  assert.ok(
    session,
    `no appSession cookie after the flow: ${JSON.stringify(
      browser.hops.map((h) => [h.url, h.status, h.setCookies]),
      null,
      1,
    )}`,
  );
  return { browser, session, hops: browser.hops, landing };
}

const withCookie = (session: string, extra: Record<string, string> = {}) => ({
  headers: { cookie: `appSession=${session}`, ...extra },
});
const listCatalogs = (options: Parameters<typeof api>[3]) =>
  api(depot.url, 'GET', '/oscal/v1/catalog?limit=1000', options);
const listed = (res: ApiResponse) =>
  (res.json()['catalog-list'] as { 'content-uuid': string }[]).map((i) => i['content-uuid']);

async function postCatalog(label: string, options: Parameters<typeof api>[3]): Promise<ApiResponse> {
  return api(depot.url, 'POST', '/oscal/v1/catalog', {
    ...options,
    body: markedCatalog(label).body,
    contentType: 'application/json',
  });
}

/** A JWT as the provider would sign it (or with another key), to vary exactly one thing at a time. */
async function jwt(claims: JWTPayload, key: JWK = signingKey): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'at+jwt' })
    .sign(await importJWK(key, 'RS256'));
}
const now = () => Math.floor(Date.now() / 1000);
const goodClaims = (): JWTPayload => ({
  iss: provider.issuer,
  aud: API,
  sub: 'mallory',
  roles: ['admin'],
  iat: now(),
  exp: now() + 300,
});

let aliceSession: string;
let aliceDoc: string;

describe('web sign-in (authorization code flow with PKCE)', () => {
  test('the redirect flow ends with an appSession cookie that authenticates /oscal/v1 and /api/v1', async () => {
    const { session, hops } = await signIn('alice');
    aliceSession = session;

    const start = hops[0]!;
    assert.equal(start.status, 302);
    const authorize = new URL(start.location!);
    assert.equal(authorize.origin, provider.issuer);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorize.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok(authorize.searchParams.get('state') && authorize.searchParams.get('nonce'));
    assert.equal(authorize.searchParams.get('redirect_uri'), `${depot.url}/auth/callback`);
    assert.match(start.setCookies.join('\n'), /^appSignIn=[^;]+;.*Path=\/auth\/callback; HttpOnly; SameSite=Lax/m);

    const callback = hops.find((h) => h.url.startsWith(`${depot.url}/auth/callback?`))!;
    assert.equal(callback.status, 302);
    assert.equal(callback.location, `${depot.url}/`, 'the web home, without return_to');
    const set = callback.setCookies.find((c) => c.startsWith('appSession='))!;
    assert.match(
      set,
      /; Max-Age=28800; Path=\/; HttpOnly; SameSite=Lax$/,
      'HttpOnly, SameSite=Lax, Path=/, 8 h; not Secure over plain http',
    );
    assert.ok(
      callback.setCookies.some((c) => /^appSignIn=;.*Max-Age=0/.test(c)),
      'the sign-in cookie is cleared',
    );

    const created = await postCatalog('alice', withCookie(session));
    assert.equal(created.status, 201, created.text);
    aliceDoc = created.json()['catalog-list'][0]['content-uuid'];
    assert.ok(listed(await listCatalogs(withCookie(session))).includes(aliceDoc), 'the owner lists it');
    assert.ok(!listed(await listCatalogs({})).includes(aliceDoc), 'private: anonymous callers do not');

    const access = await api(depot.url, 'GET', `/oscal/v1/catalog/${aliceDoc}/access`, withCookie(session));
    assert.equal(access.status, 200, access.text);
    assert.equal(access.json().owner, 'oidc:alice');
    const versions = await api(depot.url, 'GET', `/api/v1/catalogs/${aliceDoc}/versions`, withCookie(session));
    assert.equal(versions.status, 200, `the registry interface takes the cookie too: ${versions.text}`);
    assertErrorBody(await api(depot.url, 'GET', `/api/v1/catalogs/${aliceDoc}/versions`), 401);
  });

  test('a local user of the same name is someone else', async () => {
    const { secret } = await makeToken(depot.dataDir, 'alice', 'writer');
    assertErrorBody(await api(depot.url, 'GET', `/oscal/v1/catalog/${aliceDoc}`, { token: secret }), 404);
  });

  test('roles and groups come from the claims: highest known role, reader by default, grants to groups', async () => {
    const bob = (await signIn('bob')).session;
    const { session: carol, landing } = await signIn('carol', '?return_to=/oscal/v1/catalog%3Fq%3DDepot');
    assert.equal(landing.url, `${depot.url}/oscal/v1/catalog?q=Depot`, 'back where return_to said');
    assertErrorBody(await postCatalog('bob', withCookie(bob)), 403);
    assertErrorBody(await postCatalog('carol', withCookie(carol)), 403);

    const grant = JSON.stringify({
      visibility: 'private',
      grants: [{ principal: 'group:auditors', permission: 'read' }],
    });
    const put = (origin: string) =>
      api(depot.url, 'PUT', `/oscal/v1/catalog/${aliceDoc}/access`, {
        ...withCookie(aliceSession, { origin }),
        body: grant,
        contentType: 'application/json',
      });
    assertErrorBody(await put('http://attacker.example'), 403, /another site/);
    assert.equal((await put(depot.url)).status, 200);

    assert.equal(
      (await api(depot.url, 'GET', `/oscal/v1/catalog/${aliceDoc}`, withCookie(bob))).status,
      200,
      'bob is in group auditors',
    );
    assertErrorBody(await api(depot.url, 'GET', `/oscal/v1/catalog/${aliceDoc}`, withCookie(carol)), 404);
  });

  test('a tampered, foreign, expired or misused cookie is 401, never anonymous', async () => {
    const parts = aliceSession.split('.');
    const ciphertext = parts[3]!;
    const flipped = ciphertext.slice(0, 10) + (ciphertext[10] === 'A' ? 'B' : 'A') + ciphertext.slice(11);
    const tampered = [...parts.slice(0, 3), flipped, parts[4]].join('.');
    const secret = readFileSync(join(depot.dataDir, 'session-secret'), 'utf8').trim();
    const identity = {
      kind: 'user' as const,
      name: 'oidc:alice',
      role: 'admin' as const,
      groups: [],
      via: 'oidc' as const,
    };
    const expired = await new SealedCookies(secret).session(identity, new Date(Date.now() - 1000));
    const foreign = await new SealedCookies(randomBytes(32).toString('base64url')).session(
      identity,
      new Date(Date.now() + 60_000),
    );
    const midway = new Browser();
    assert.equal((await midway.navigate(`${depot.url}/auth/login`)).status, 200);
    const pending = midway.cookie('appSignIn', '/auth/callback')!;

    for (const [what, value] of Object.entries({
      tampered,
      expired,
      foreign,
      'the sign-in cookie': pending,
      garbage: 'not-a-session',
    })) {
      const res = await listCatalogs(withCookie(value));
      assert.equal(res.status, 401, `${what}: ${res.text}`);
      assertErrorBody(res, 401, /session/);
    }
  });

  test('cancelling at the provider is 401 and sets no session; return_to must be a path on this server', async () => {
    const browser = new Browser();
    const loginForm = await browser.navigate(`${depot.url}/auth/login`);
    const abort = /href="([^"]*\/abort)"/.exec(loginForm.body)![1]!;
    const back = await browser.navigate(new URL(abort, loginForm.url).href);
    assert.ok(back.url.startsWith(`${depot.url}/auth/callback?error=access_denied`), back.url);
    assert.equal(back.status, 401);
    assert.match(JSON.parse(back.body).message, /did not sign you in/);
    assert.equal(browser.cookie('appSession'), undefined);
    for (const target of ['//attacker.example/', '/\\attacker.example/', 'https://attacker.example/']) {
      for (const path of ['/auth/login', '/auth/logout']) {
        assertErrorBody(await api(depot.url, 'GET', `${path}?return_to=${encodeURIComponent(target)}`), 400);
      }
    }
  });

  test('logout clears the cookie', async () => {
    const { browser } = await signIn('alice');
    const out = await browser.navigate(`${depot.url}/auth/logout`);
    const hop = browser.hops.find((h) => h.url === `${depot.url}/auth/logout`)!;
    assert.equal(hop.status, 302);
    const cleared = hop.setCookies.find((c) => c.startsWith('appSession=;'));
    assert.ok(
      cleared && /Max-Age=0/.test(cleared) && /Path=\/(;|$)/.test(cleared),
      `the cookie is cleared: ${hop.setCookies}`,
    );
    assert.equal(out.status, 200);
    assert.equal(browser.cookie('appSession'), undefined);
    assert.doesNotMatch(browser.cookieHeader(`${depot.url}/oscal/v1/catalog`), /appSession/);
  });

  test('the generated session secret is readable only by its owner', () => {
    assert.equal(statSync(join(depot.dataDir, 'session-secret')).mode & 0o777, 0o600);
  });
});

describe('bearer JWTs from the provider', () => {
  test('a client-credentials token works as a bearer token; local tokens keep working beside it', async () => {
    const token = await provider.clientCredentials(ROBOT.id, API);
    const created = await postCatalog('robot', { token });
    assert.equal(created.status, 201, `roles "reader writer": a writer: ${created.text}`);
    const id = created.json()['catalog-list'][0]['content-uuid'];
    assert.ok(listed(await listCatalogs({ token })).includes(id));
    assert.equal(
      (await api(depot.url, 'GET', `/oscal/v1/catalog/${id}/access`, { token })).json().owner,
      'oidc:depot-robot',
    );

    const { secret } = await makeToken(depot.dataDir, 'zoe', 'reader');
    assert.equal((await listCatalogs({ token: secret })).status, 200);
  });

  test('expired, not yet valid, wrongly signed, wrong-issuer, wrong-audience and malformed tokens are 401', async () => {
    const otherKey = await rsaSigningKey(KID);
    const base = goodClaims();
    assert.equal((await listCatalogs({ token: await jwt(base) })).status, 200, 'the control: well signed and claimed');
    assert.equal(
      (await listCatalogs({ token: await jwt({ ...base, exp: now() - 10 }) })).status,
      200,
      'within the 30 s clock skew',
    );
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(base)).toString('base64url')}.`;
    const bad: Record<string, [string, RegExp]> = {
      expired: [await jwt({ ...base, exp: now() - 120 }), /expired/],
      'not yet valid': [await jwt({ ...base, nbf: now() + 120 }), /"nbf"/],
      'without exp': [await jwt({ ...base, exp: undefined }), /"exp"/],
      'signed by another key with the same kid': [await jwt(base, otherKey), /not signed by/],
      'from another issuer': [await jwt({ ...base, iss: 'https://impostor.example' }), /"iss"/],
      'for another audience (forged)': [await jwt({ ...base, aud: OTHER_API }), /"aud"/],
      'for another audience (from the provider)': [await provider.clientCredentials(ROBOT.id, OTHER_API), /"aud"/],
      'unsigned (alg none)': [none, /malformed/],
      malformed: ['eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln', /malformed/],
    };
    for (const [what, [token, reason]] of Object.entries(bad)) {
      for (const res of [await listCatalogs({ token }), await postCatalog(what, { token })]) {
        assert.equal(res.status, 401, `${what}: ${res.text}`);
        assertErrorBody(res, 401, reason);
      }
    }
  });
});

describe('start and restart', () => {
  test('misconfiguration is refused at start', () => {
    // A configuration wrongly accepted would keep serving: the time limit ends that.
    const serve = (args: string[]) =>
      spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--data', newDataDir(), ...args], {
        encoding: 'utf8',
        timeout: 10_000,
      });
    const cases: [string[], RegExp][] = [
      [['--oidc-issuer', 'http://idp.example.com'], /needs --oidc-client-id/],
      [['--oidc-issuer', 'http://idp.example.com', '--oidc-client-id', 'x'], /must be an https URL/],
      [
        ['--oidc-issuer', provider.issuer, '--oidc-client-id', 'x', '--session-secret', 'short'],
        /at least 32 characters/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = serve(args);
      assert.ok(r.status !== 0 && r.signal === null, `${args.join(' ')}: ${r.status} ${r.signal}`);
      assert.match(r.stderr, message);
    }
  });

  test('sessions survive a restart; with the provider down, sessions and local tokens work and JWTs are 503', async () => {
    await provider.stop();
    await stopWithin(depot);
    depot = await TestServer.start({ dataDir: depot.dataDir, args: depotArgs, env: depotEnv });
    // Cookies belong to the host, not the port: the browser sends the same one to the new server.
    assert.ok(listed(await listCatalogs(withCookie(aliceSession))).includes(aliceDoc));
    assert.equal((await listCatalogs({ token: depot.adminToken() })).status, 200);
    assertErrorBody(await listCatalogs({ token: await jwt(goodClaims()) }), 503, /provider/);
  });
});
