/**
 * The web interface in headless Chromium (issue 20): sign in with the admin token, browse the
 * catalogs, open NIST's SP 800-53 catalog; no console error and no CSP violation on any page.
 * Screenshots are left in test-results/ui/ for a person to look at.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Browser, screenshot, type PageProblems } from './support/browser.js';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { TestServer } from './support/server.js';
import { REV5_A849 } from './support/shared.js';

const CATALOG_TITLE =
  'NIST Special Publication 800-53 Revision 5: Security and Privacy Controls for Federal Information Systems and Organizations';

let server: TestServer;
let browser: Browser;
let catalogId: string;

before(async () => {
  server = await TestServer.start();
  const body = readFileSync(join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json'));
  const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token: server.adminToken(),
    body,
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
  catalogId = created.json()['catalog-list'][0]['content-uuid'];
  browser = await Browser.launch();
});

after(async () => {
  await browser?.close();
  await stopWithin(server);
});

function assertNoProblems(problems: PageProblems): void {
  assert.deepEqual(problems.cspViolations, [], 'no Content-Security-Policy violation');
  assert.deepEqual(problems.consoleErrors, [], 'no console error');
}

test('sign in with the admin token, browse the catalogs and open the stored catalog', async () => {
  const { page, problems } = await browser.newPage();

  await page.goto(`${server.url}/`);
  assert.equal(await page.title(), 'Home · OSCAL Depot');
  await screenshot(page, 'home-signed-out', { fullPage: true });

  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('API token').fill('odt_wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  assert.match((await page.getByRole('alert').textContent()) ?? '', /unknown, expired or revoked/);
  await screenshot(page, 'sign-in-refused', { fullPage: true });
  // A refused sign-in is a 401 page, which Chromium also reports on the console: that one is expected.
  problems.consoleErrors = problems.consoleErrors.filter((e) => !/status of 401/.test(e));

  await page.getByLabel('API token').fill(server.adminToken());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${server.url}/`);
  assert.match((await page.locator('.identity').textContent()) ?? '', /Signed in as admin \(admin\)/);
  const cookies = await page.context().cookies(server.url);
  assert.ok(cookies.some((c) => c.name === 'depotToken' && c.httpOnly && c.sameSite === 'Lax'));
  assert.equal(await page.evaluate('document.cookie'), '', 'page script never sees the sign-in cookie');
  await screenshot(page, 'home-signed-in', { fullPage: true });

  await page.getByRole('navigation', { name: 'Models' }).getByRole('link', { name: 'Catalogs' }).click();
  await page.waitForURL(`${server.url}/browse/catalog`);
  const row = page.getByRole('row').filter({ hasText: CATALOG_TITLE });
  assert.equal(await row.count(), 1);
  await screenshot(page, 'browse-catalogs', { fullPage: true });

  await page.getByRole('searchbox', { name: 'Title contains' }).fill('no such title');
  await page.getByRole('button', { name: 'Search' }).click();
  assert.equal(await page.getByRole('row').filter({ hasText: CATALOG_TITLE }).count(), 0);
  await page.goBack();

  await page.getByRole('link', { name: CATALOG_TITLE }).click();
  await page.waitForURL(`${server.url}/documents/catalog/${catalogId}`);
  const headings = page.getByRole('heading', { level: 1 });
  assert.equal(await headings.count(), 1, 'one h1: the view has the title');
  assert.equal((await headings.textContent())?.trim(), CATALOG_TITLE);
  for (const format of ['JSON', 'XML', 'YAML']) assert.equal(await page.getByRole('link', { name: format }).count(), 1);
  await screenshot(page, 'catalog-800-53');

  // A parameter shown where AC-1's statement inserts it: its label, since the catalog sets no value.
  const inserted = page.locator('article[data-control="ac-1"] .param[data-param="ac-1_prm_1"]').first();
  assert.match((await inserted.textContent()) ?? '', /organization-defined personnel or roles/);

  // The filter finds a control by its id in any of the usual spellings, and by a word.
  const filter = page.getByLabel('Filter controls');
  const shown = (control: string) => page.locator(`article[data-control="${control}"]`).isVisible();
  await filter.fill('AC-2(1)');
  await page
    .getByRole('status')
    .filter({ hasText: /^1 of \d+ controls shown$/ })
    .waitFor();
  assert.ok(await shown('ac-2.1'));
  assert.equal(await shown('ac-2'), false);
  await filter.fill('ac-2');
  await page
    .getByRole('status')
    .filter({ hasText: /controls shown/ })
    .waitFor();
  assert.ok((await shown('ac-2')) && (await shown('ac-2.13')));
  assert.equal(await shown('ac-3'), false);
  await filter.fill('cryptographic');
  await page
    .getByRole('status')
    .filter({ hasText: /controls shown/ })
    .waitFor();
  assert.ok(await shown('sc-13'));
  assert.equal(await shown('ac-2'), false);
  await screenshot(page, 'catalog-800-53-filtered');
  await filter.fill('');

  // The search box of every page: across documents, a hit opens its control in the catalog.
  await page.getByRole('searchbox', { name: 'Search every document' }).fill('"account management"');
  await page.getByRole('searchbox', { name: 'Search every document' }).press('Enter');
  await page.waitForURL(/\/search\?q=/);
  const hit = page.locator('li.hit').filter({ has: page.locator('code', { hasText: /^ac-2$/ }) });
  assert.equal(await hit.count(), 1);
  assert.match((await hit.locator('mark').first().textContent()) ?? '', /account/i);
  await screenshot(page, 'search');
  await hit.getByRole('link').click();
  await page.waitForURL(`${server.url}/documents/catalog/${catalogId}#control-ac-2`);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${server.url}/`);
  assert.equal(await page.getByRole('link', { name: 'Sign in' }).count(), 1);

  assertNoProblems(problems);
});

test("a profile's page shows its resolved catalog at the press of a link", async () => {
  const profile = {
    profile: {
      uuid: crypto.randomUUID(),
      metadata: {
        title: 'Two controls of 800-53',
        'last-modified': '2024-01-01T00:00:00Z',
        version: '1',
        'oscal-version': '1.1.2',
      },
      imports: [{ href: `../catalog/${catalogId}`, 'include-controls': [{ 'with-ids': ['ac-1', 'ac-2'] }] }],
    },
  };
  const created = await api(server.url, 'POST', '/oscal/v1/profile', {
    token: server.adminToken(),
    body: JSON.stringify(profile),
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
  const id = created.json()['profile-list'][0]['content-uuid'];
  const { page, problems } = await browser.newPage();
  await page.context().addCookies([{ name: 'depotToken', value: server.adminToken(), url: server.url }]);
  await page.goto(`${server.url}/documents/profile/${id}`);
  await screenshot(page, 'profile');
  await page.getByRole('link', { name: 'Resolved catalog' }).click();
  await page.waitForURL(`${server.url}/documents/profile/${id}/resolved`);
  assert.ok(await page.locator('article[data-control="ac-2"]').isVisible());
  assert.equal(await page.locator('article[data-control]').count(), 2, 'the two selected controls, nothing else');
  await screenshot(page, 'profile-resolved');
  assertNoProblems(problems);
});
