/**
 * Writing and sharing through the web interface in headless Chromium (issue 20), as a person does
 * it: upload a valid document with the file picker and an invalid one by drag-and-drop (its
 * problems shown with their line numbers), download each format and compare the bytes with the
 * API's, upload a new version and open the older one, attach a file, keep a snapshot, and share
 * the document with a second user who gains and loses access in a browser of their own.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { Browser, screenshot, type PageProblems } from './support/browser.js';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { ssp } from './support/draft-ssp.js';
import { markedCatalog } from './support/marked-docs.js';
import { createTokenFor, TestServer } from './support/server.js';

let server: TestServer;
let alice: Browser;
let bob: Browser;
let aliceToken: string;
let bobToken: string;

before(async () => {
  server = await TestServer.start();
  aliceToken = createTokenFor(server.dataDir, 'alice', 'writer');
  bobToken = createTokenFor(server.dataDir, 'bob', 'writer');
  [alice, bob] = await Promise.all([Browser.launch(), Browser.launch()]);
});

after(async () => {
  await Promise.all([alice?.close(), bob?.close()]);
  await stopWithin(server);
});

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${server.url}/`);
}

/** Chromium reports a page answered with an error status on the console; those the test asks for are expected. */
function assertNoProblems(problems: PageProblems, expectedStatuses: number[] = []): void {
  const expected = new RegExp(`status of (${expectedStatuses.join('|') || 'none'})`);
  assert.deepEqual(problems.cspViolations, [], 'no Content-Security-Policy violation');
  assert.deepEqual(
    problems.consoleErrors.filter((e) => !expected.test(e)),
    [],
    'no console error',
  );
}

test('upload, refusal, downloads, a new version, an attachment, a snapshot and sharing, in the browser', async () => {
  const { page, problems } = await alice.newPage();
  const { page: bobPage, problems: bobProblems } = await bob.newPage();
  await signIn(page, aliceToken);
  await signIn(bobPage, bobToken);

  // Upload with the file picker.
  const doc = markedCatalog('browser upload');
  await page.goto(`${server.url}/browse/catalog`);
  await page.getByRole('link', { name: 'Upload a document' }).click();
  await page.getByLabel('OSCAL file (JSON, XML or YAML)').setInputFiles({
    name: 'catalog.json',
    mimeType: 'application/json',
    buffer: Buffer.from(doc.body),
  });
  await screenshot(page, 'upload-form');
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.waitForURL(/\/documents\/catalog\/[0-9a-f-]{36}$/);
  const id = /([0-9a-f-]{36})$/.exec(page.url())![1]!;
  assert.equal((await page.getByRole('heading', { level: 1 }).textContent())?.trim(), doc.title);
  const documentUrl = page.url();

  // Download each format: the bytes the API gives for the same document.
  for (const format of ['json', 'xml', 'yaml'] as const) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: format.toUpperCase(), exact: true }).click(),
    ]);
    const bytes = readFileSync((await download.path())!);
    const fromApi = await api(server.url, 'GET', `/oscal/v1/catalog/${id}`, {
      token: aliceToken,
      accept: `application/${format}`,
    });
    assert.equal(fromApi.status, 200, `${format} from the API`);
    assert.ok(bytes.equals(fromApi.body), `the ${format} download is the API's bytes`);
    assert.equal(download.suggestedFilename(), `${id}.${format}`);
  }

  // An invalid document dropped on the form: its problem shown at its line.
  const invalid = structuredClone(doc.content) as Record<string, Record<string, unknown>>;
  invalid.catalog!['not-an-oscal-field'] = 'x';
  const invalidText = JSON.stringify(invalid, null, 2);
  const line = invalidText.split('\n').findIndex((l) => l.includes('not-an-oscal-field')) + 1;
  await page.goto(`${server.url}/upload/catalog`);
  await page.evaluate(
    `(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([${JSON.stringify(invalidText)}], 'dropped.json', { type: 'application/json' }));
      document.getElementById('drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    })()`,
  );
  assert.equal(await page.locator('#drop-hint').textContent(), 'Chosen: dropped.json');
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('heading', { name: 'dropped.json was not stored' }).waitFor();
  const problem = page.locator('td.problem');
  assert.match(
    (await problem.first().textContent()) ?? '',
    new RegExp(`Line ${line}(, column \\d+)?: .*not-an-oscal-field`),
  );
  assert.match((await page.locator('tr.offending pre').first().textContent()) ?? '', /"not-an-oscal-field": "x"/);
  await screenshot(page, 'upload-refused', { fullPage: true });

  // A new version, then the older one opened read-only.
  await page.goto(documentUrl);
  await page.getByRole('link', { name: 'Upload a new version' }).click();
  const next = structuredClone(doc.content);
  next.catalog.metadata.title = `${doc.title} v2`;
  await page.getByLabel('OSCAL file (JSON, XML or YAML)').setInputFiles({
    name: 'v2.yaml',
    mimeType: 'application/yaml',
    buffer: Buffer.from(JSON.stringify(next)),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.waitForURL(documentUrl);
  assert.equal((await page.getByRole('heading', { level: 1 }).textContent())?.trim(), `${doc.title} v2`);
  // What changed between the two versions: the title's words marked on either side.
  await page.getByRole('link', { name: 'What changed' }).click();
  await page.getByRole('heading', { name: 'Summary' }).waitFor();
  assert.match((await page.locator('.count-changed').textContent()) ?? '', /Changed: [1-9]/);
  assert.equal(await page.locator('table.diff-fields ins').filter({ hasText: 'v2' }).count(), 1);
  await screenshot(page, 'what-changed', { fullPage: true });

  await page.getByRole('link', { name: 'Versions' }).click();
  await screenshot(page, 'versions');
  await page.getByRole('link', { name: '1', exact: true }).click();
  assert.equal((await page.getByRole('heading', { level: 1 }).textContent())?.trim(), doc.title);
  assert.match((await page.getByRole('note').textContent()) ?? '', /Version 1, written by alice .*read-only/);
  await screenshot(page, 'version-1');

  // An attachment, listed and downloaded.
  await page.goto(`${documentUrl}/attachments`);
  const attached = Buffer.from('%PDF-1.4 a small test file\n');
  await page
    .getByLabel('File to attach')
    .setInputFiles({ name: 'evidence.pdf', mimeType: 'application/pdf', buffer: attached });
  await page.getByRole('button', { name: 'Attach', exact: true }).click();
  await page.getByRole('cell', { name: 'evidence.pdf', exact: true }).waitFor();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download' }).click(),
  ]);
  assert.ok(readFileSync((await file.path())!).equals(attached), 'the attachment comes back as uploaded');
  await screenshot(page, 'attachments');

  // A snapshot.
  await page.getByRole('link', { name: 'Snapshots' }).click();
  await page.getByLabel('Description').fill('Kept from the browser');
  await page.getByRole('button', { name: 'Keep a snapshot of the current version' }).click();
  await page.getByRole('cell', { name: 'Kept from the browser' }).waitFor();
  await screenshot(page, 'snapshots');

  // Sharing: bob cannot see the private document, gains access by a grant and by public visibility, and loses it.
  const bobSees = async () => (await bobPage.goto(documentUrl))!.status();
  assert.equal(await bobSees(), 404);
  await page.getByRole('link', { name: 'Sharing' }).click();
  await page.getByLabel('User or group').fill('user:bob');
  await page.getByRole('button', { name: 'Grant' }).click();
  await page.getByRole('cell', { name: 'user:bob', exact: true }).waitFor();
  await screenshot(page, 'sharing');
  assert.equal(await bobSees(), 200);
  assert.equal((await bobPage.getByRole('heading', { level: 1 }).textContent())?.trim(), `${doc.title} v2`);
  await page.getByRole('button', { name: 'Remove the grant to user:bob' }).click();
  await page.getByText('No grants.').waitFor();
  assert.equal(await bobSees(), 404);
  await page.getByLabel('Anyone, signed in or not (public)').check();
  await page.getByRole('button', { name: 'Save visibility' }).click();
  await page.waitForURL(`${documentUrl}/access`);
  assert.equal(await bobSees(), 200);
  await page.getByLabel('Only its owner, admins and the grants below (private)').check();
  await page.getByRole('button', { name: 'Save visibility' }).click();
  await page.waitForURL(`${documentUrl}/access`);
  assert.equal(await bobSees(), 404);

  assertNoProblems(problems, [422]);
  assertNoProblems(bobProblems, [404]);
});

test('a draft SSP with constraint findings: refused, then "Store anyway" stores it, marked on its pages', async () => {
  const { page, problems } = await alice.newPage();
  await signIn(page, aliceToken);
  const draft = ssp('findings');
  await page.goto(`${server.url}/upload/system-security-plan`);
  await page.getByLabel('OSCAL file (JSON, XML or YAML)').setInputFiles({
    name: 'draft-ssp.json',
    mimeType: 'application/json',
    buffer: Buffer.from(draft.body),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('heading', { name: 'draft-ssp.json was not stored' }).waitFor();
  await screenshot(page, 'upload-store-anyway');
  await page.getByRole('button', { name: 'Store anyway, with 2 findings' }).click();
  await page.waitForURL(`${server.url}/documents/system-security-plan/${draft.id}`);
  assert.equal((await page.getByRole('heading', { level: 1 }).textContent())?.trim(), draft.title);
  assert.equal(await page.locator('.draft-note .draft-badge').textContent(), 'draft with findings');

  const stored = await api(server.url, 'GET', `/oscal/v1/system-security-plan/${draft.id}/original`, {
    token: aliceToken,
  });
  assert.equal(stored.text, draft.body, 'the bytes stored are those of the file chosen');
  await page.getByRole('link', { name: 'Versions' }).click();
  await page.waitForURL(/\/versions$/);
  assert.equal(await page.locator('table .draft-badge').count(), 1);
  assertNoProblems(problems, [422]);
});
