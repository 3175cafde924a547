/**
 * The web interface's OpenID Connect sign-in in headless Chromium (issue 20), with real parts only:
 * the test OpenID provider process, an `oscal-depot serve` process in OIDC mode, Debian's Chromium.
 * A person signs in at the provider's own login and consent forms, comes back to the web home,
 * reads what they may, is told "Not found" for what they may not, and signs out. No console error
 * and no CSP violation on this server's pages; screenshots are left in test-results/ui/.
 * (Signing in with a local token is web-browser.test.ts.)
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { Browser, screenshot, type PageProblems } from './support/browser.js';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog } from './support/marked-docs.js';
import { rsaSigningKey, TestProvider, type ProviderClient } from './support/oidc-provider.js';
import { TestServer } from './support/server.js';

const API = 'https://depot.test/api';
const WEB: ProviderClient = { id: 'depot-web', secret: randomBytes(24).toString('base64url'), web: true };

let provider: TestProvider;
let depot: TestServer;
let browser: Browser;
let readable: { id: string; title: string };
let hidden: { id: string; title: string };

/** Stored by the admin (a local token, beside OIDC): private, and shared with a group or not at all. */
async function storeCatalog(label: string, readers: string[]): Promise<{ id: string; title: string }> {
  const doc = markedCatalog(label);
  const token = depot.adminToken();
  const created = await api(depot.url, 'POST', '/oscal/v1/catalog', {
    token,
    body: doc.body,
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
  const id: string = created.json()['catalog-list'][0]['content-uuid'];
  const access = await api(depot.url, 'PUT', `/oscal/v1/catalog/${id}/access`, {
    token,
    body: JSON.stringify({
      visibility: 'private',
      grants: readers.map((principal) => ({ principal, permission: 'read' })),
    }),
    contentType: 'application/json',
  });
  assert.equal(access.status, 200, access.text);
  return { id, title: doc.title };
}

before(async () => {
  // The provider and the server each need the other's address: the issuer first, the callback after.
  provider = await TestProvider.listen({
    signingKey: await rsaSigningKey('provider-key-1'),
    users: { alice: { roles: ['writer'], groups: ['auditors'] } },
    resources: [API],
    clients: [WEB],
  });
  depot = await TestServer.start({
    args: provider.depotArgs(WEB, API, 'openid profile roles groups'),
    env: { OSCAL_DEPOT_OIDC_CLIENT_SECRET: WEB.secret },
  });
  await provider.serve([`${depot.url}/auth/callback`]);
  readable = await storeCatalog('for the auditors', ['group:auditors']);
  hidden = await storeCatalog('for nobody else', []);
  browser = await Browser.launch();
});

after(async () => {
  await browser?.close();
  await stopWithin(depot);
  await provider?.stop();
});

function assertNoProblems(problems: PageProblems, where: string): void {
  assert.deepEqual(problems.cspViolations, [], `no Content-Security-Policy violation (${where})`);
  assert.deepEqual(problems.consoleErrors, [], `no console error (${where})`);
}

/**
 * What the provider's pages did is not this server's to answer for, and they do misbehave: its
 * development forms import a web font from fonts.googleapis.com, which is blocked here. A page's
 * problems are all recorded by its load event (the failed import included), so dropping them then
 * leaves only what happens after the form is submitted, which ends on this server's pages.
 */
async function forgetProviderPage(page: Page, problems: PageProblems): Promise<void> {
  assert.ok(page.url().startsWith(`${provider.issuer}/`), `on the provider's page: ${page.url()}`);
  await page.waitForLoadState('load');
  problems.consoleErrors.length = 0;
  problems.cspViolations.length = 0;
}

/** Chromium reports every 404 on the console; a page that is meant to be a 404 is not a fault. */
function forgetNotFound(problems: PageProblems, url: string): void {
  problems.consoleErrors = problems.consoleErrors.filter((e) => !(/status of 404/.test(e) && e.includes(url)));
}

test('sign in at the provider, read what one may, not what one may not, and sign out', async () => {
  const { page, problems } = await browser.newPage();
  // Nothing beyond the two loopback servers: the provider's forms would fetch a font from the Internet.
  const local = [depot.url, provider.issuer].map((origin) => new URL(origin).origin);
  await page.route(
    (url) => !local.includes(url.origin),
    (route) => route.abort(),
  );
  const account = page.getByRole('banner').locator('.account');

  await page.goto(`${depot.url}/`);
  assert.equal(await page.title(), 'Home · OSCAL Depot');
  await screenshot(page, 'oidc-home-signed-out', { fullPage: true });
  assertNoProblems(problems, 'the home page, signed out');

  await account.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === new URL(provider.issuer).origin);
  await forgetProviderPage(page, problems);
  await page.locator('input[name="login"]').fill('alice');
  await page.locator('input[name="password"]').fill('whatever the provider accepts');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // A fresh browser has granted this client nothing yet, so the provider asks; a provider that
  // remembered the grant would send it straight back.
  const consent = page.getByRole('button', { name: 'Continue' });
  await consent.or(account).waitFor();
  if (await consent.isVisible()) {
    await forgetProviderPage(page, problems);
    await consent.click();
  }

  await page.waitForURL(`${depot.url}/`);
  assert.match((await account.textContent()) ?? '', /Signed in as oidc:alice \(writer\)/);
  const cookies = await page.context().cookies(depot.url);
  assert.ok(
    cookies.some((c) => c.name === 'appSession' && c.httpOnly && c.sameSite === 'Lax' && c.path === '/'),
    JSON.stringify(cookies.map((c) => c.name)),
  );
  assert.doesNotMatch(
    String(await page.evaluate('document.cookie')),
    /appSession/,
    'page script never sees the session cookie',
  );
  await screenshot(page, 'oidc-home-signed-in', { fullPage: true });

  const readableUrl = `${depot.url}/documents/catalog/${readable.id}`;
  const shown = await page.goto(readableUrl);
  assert.equal(shown?.status(), 200, 'shared with group auditors, which the provider says alice is in');
  assert.equal((await page.getByRole('heading', { level: 1 }).textContent())?.trim(), readable.title);
  assert.match((await account.textContent()) ?? '', /oidc:alice/);
  await screenshot(page, 'oidc-document-readable');

  const hiddenUrl = `${depot.url}/documents/catalog/${hidden.id}`;
  const refused = await page.goto(hiddenUrl);
  assert.equal(refused?.status(), 404, 'private and shared with no one: as if absent');
  assert.equal((await page.getByRole('heading', { level: 1 }).textContent())?.trim(), 'Not found');
  assert.equal(await page.getByText(hidden.title).count(), 0, 'nothing of the document shows');
  assert.match((await account.textContent()) ?? '', /oidc:alice/, 'still signed in');
  await screenshot(page, 'oidc-document-not-found', { fullPage: true });
  forgetNotFound(problems, hiddenUrl);

  await page.goto(`${depot.url}/`);
  await account.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${depot.url}/`);
  assert.equal(await account.getByRole('link', { name: 'Sign in' }).count(), 1);
  assert.doesNotMatch((await account.textContent()) ?? '', /oidc:alice/);
  assert.ok(!(await page.context().cookies(depot.url)).some((c) => c.name === 'appSession'), 'the cookie is gone');
  await screenshot(page, 'oidc-home-signed-out-again', { fullPage: true });

  const signedOut = await page.goto(readableUrl);
  assert.equal(signedOut?.status(), 404, 'signed out, the shared document is hidden again');
  forgetNotFound(problems, readableUrl);

  assertNoProblems(problems, "this server's pages");
});
