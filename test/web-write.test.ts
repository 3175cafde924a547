/**
 * The web interface's writing and sharing pages over real HTTP, without a browser (issue 20):
 * uploads of documents and versions in each format, refusals shown beside the uploaded lines,
 * snapshots, attachments, visibility and grants, and a profile's resolved catalog. Forms are sent
 * as a browser sends them, signed in by the web cookie.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { ssp } from './support/draft-ssp.js';
import { markedCatalog } from './support/marked-docs.js';
import { createTokenFor, TestServer } from './support/server.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let server: TestServer;
const cookie = {} as Record<'alice' | 'bob' | 'rita', string>;

before(async () => {
  server = await TestServer.start({ args: ['--token-cache', '0'] });
  cookie.alice = `depotToken=${createTokenFor(server.dataDir, 'alice', 'writer')}`;
  cookie.bob = `depotToken=${createTokenFor(server.dataDir, 'bob', 'writer')}`;
  cookie.rita = `depotToken=${createTokenFor(server.dataDir, 'rita', 'reader')}`;
});

after(async () => {
  await stopWithin(server);
});

const tokenOf = (who: keyof typeof cookie) => cookie[who].slice('depotToken='.length);

function get(path: string, who?: keyof typeof cookie): Promise<ApiResponse> {
  return api(server.url, 'GET', path, { accept: HTML, headers: who ? { cookie: cookie[who] } : {} });
}

/** A form with one file, as a browser's file picker sends it. */
async function postFile(path: string, who: keyof typeof cookie, name: string, bytes: string, type = '') {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie: cookie[who], accept: HTML },
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers };
}

function postForm(path: string, who: keyof typeof cookie, fields: Record<string, string>, headers = {}) {
  return api(server.url, 'POST', path, {
    body: new URLSearchParams(fields).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers: { cookie: cookie[who], ...headers },
  });
}

/** The id a 303 after an upload points at. */
function storedId(location: string | null, model: string): string {
  const match = new RegExp(`^/documents/${model}/([0-9a-f-]{36})$`).exec(location ?? '');
  assert.ok(match, `no document page in Location ${location}`);
  return match[1]!;
}

async function upload(who: keyof typeof cookie, name: string, text: string): Promise<string> {
  const res = await postFile('/upload/catalog', who, name, text);
  assert.equal(res.status, 303, res.text);
  return storedId(res.location, 'catalog');
}

describe('upload', () => {
  test('a JSON, an XML and a YAML file each become a document; the page of each shows its title', async () => {
    const json = markedCatalog('web upload json');
    const yaml = markedCatalog('web upload yaml');
    const jsonId = await upload('alice', 'catalog.json', json.body);
    const yamlId = await upload('alice', 'catalog.yml', toYaml(yaml.content));
    const xmlRes = await api(server.url, 'GET', `/oscal/v1/catalog/${jsonId}`, {
      accept: 'application/xml',
      token: tokenOf('alice'),
    });
    assert.equal(xmlRes.status, 200, xmlRes.text);
    // The XML of a stored catalog, under a new content uuid: its document-ids are taken out so it is a new document.
    const xml = xmlRes.text
      .replace(/<document-id [^>]*>[^<]*<\/document-id>/, '')
      .replace(json.title, 'Uploaded as XML');
    const xmlId = await upload('alice', 'no-extension', xml);
    for (const [id, title] of [
      [jsonId, json.title],
      [yamlId, yaml.title],
      [xmlId, 'Uploaded as XML'],
    ] as const) {
      const page = await get(`/documents/catalog/${id}`, 'alice');
      assert.equal(page.status, 200);
      assert.ok(page.text.includes(`<h1>${title}</h1>`) || page.text.includes(title), `${title} on its page`);
    }
    assert.equal(new Set([jsonId, yamlId, xmlId]).size, 3);
  });

  test('an invalid document: 422, nothing stored, each problem beside its line of the uploaded text', async () => {
    const doc = markedCatalog('web upload invalid');
    (doc.content.catalog as Record<string, unknown>)['unknown-field'] = true;
    const text = JSON.stringify(doc.content, null, 2);
    const unknownLine = text.split('\n').findIndex((l) => l.includes('"unknown-field"')) + 1;
    assert.ok(unknownLine > 1);

    const res = await postFile('/upload/catalog', 'alice', 'bad.json', text);
    assert.equal(res.status, 422, res.text);
    assert.match(res.text, /bad\.json was not stored/);
    // The API's own refusal of the same bytes: the page shows each of its located problems at its line.
    const refusal = await api(server.url, 'POST', '/oscal/v1/catalog', {
      body: text,
      contentType: 'application/json',
      token: tokenOf('alice'),
    });
    assert.equal(refusal.status, 422);
    const located = (refusal.json().errors as { line?: number; message: string }[]).filter((e) => e.line);
    assert.deepEqual(
      located.map((e) => e.line),
      [unknownLine],
      'the API locates the problem at the line of the unknown field',
    );
    for (const e of located) {
      assert.match(
        res.text,
        new RegExp(`<tr class="offending">\\s*<th scope="row" class="line-number">${e.line}</th>`),
      );
      assert.match(res.text, new RegExp(`<td class="problem">\\s*Line ${e.line}(, column \\d+)?: `));
    }
    assert.ok(res.text.includes('&quot;unknown-field&quot;: true'), 'the offending line is shown, escaped');
    const list = await api(server.url, 'GET', `/oscal/v1/catalog?q=${encodeURIComponent(doc.title)}`, {
      token: tokenOf('alice'),
    });
    assert.equal(list.json()['catalog-list'].length, 0, 'nothing stored');
  });

  test('malformed JSON: 400 with the line of the syntax error; an empty form: 400', async () => {
    const res = await postFile('/upload/catalog', 'alice', 'broken.json', '{\n  "catalog": {\n    "uuid": ,\n  }\n}\n');
    assert.equal(res.status, 400, res.text);
    assert.match(res.text, /<td class="problem">\s*Line 3/);
    const empty = await postFile('/upload/catalog', 'alice', 'empty.json', '');
    assert.equal(empty.status, 400);
    assert.match(empty.text, /choose a file to upload/);
  });

  test('who may upload: signed out, the sign-in form (401); a reader, 403; from another site, refused', async () => {
    const signedOut = await get('/upload/catalog');
    assert.equal(signedOut.status, 401);
    assert.match(signedOut.text, /name="token"/);
    assert.equal((await get('/upload/catalog', 'rita')).status, 403);
    const form = await get('/upload/catalog', 'alice');
    assert.equal(form.status, 200);
    assert.match(form.text, /enctype="multipart\/form-data"/);
    assert.match(form.text, /<script src="\/assets\/upload-drop.js" defer><\/script>/);
    const foreign = await api(server.url, 'POST', '/upload/catalog', {
      body: 'x',
      contentType: 'text/plain',
      headers: { cookie: cookie.alice, origin: 'https://elsewhere.example' },
    });
    assert.equal(foreign.status, 403);
  });

  test("a new version: the document's page shows it and its history has both; another writer may not", async () => {
    const doc = markedCatalog('web version');
    const id = await upload('alice', 'v1.json', doc.body);
    const next = structuredClone(doc.content);
    next.catalog.metadata.title = `${doc.title} second`;
    const res = await postFile(`/documents/catalog/${id}/upload`, 'alice', 'v2.json', JSON.stringify(next));
    assert.equal(res.status, 303, res.text);
    assert.equal(storedId(res.location, 'catalog'), id);
    assert.ok((await get(`/documents/catalog/${id}`, 'alice')).text.includes(`${doc.title} second`));
    const versions = await get(`/documents/catalog/${id}/versions`, 'alice');
    assert.match(versions.text, /href="\/documents\/catalog\/[^"]+\/versions\/2"/);
    assert.match(versions.text, /href="\/documents\/catalog\/[^"]+\/versions\/1"/);
    // What changed: the default compares the previous version with the current one.
    const diff = await get(`/documents/catalog/${id}/diff`, 'alice');
    assert.equal(diff.status, 200, diff.text);
    assert.match(diff.text, /Changed: 1/);
    assert.match(diff.text, /<td class="after">[^<]*<ins>[^<]*second<\/ins>/);
    const reversed = await get(`/documents/catalog/${id}/diff?from=2&to=1`, 'alice');
    assert.match(reversed.text, /<td class="before">[^<]*<del>[^<]*second<\/del>/);
    assert.equal((await get(`/documents/catalog/${id}/diff?from=nine`, 'alice')).status, 400);
    assert.equal((await get(`/documents/catalog/${id}/diff?from=7`, 'alice')).status, 404);
    // Alice's documents are private by default here: bob cannot even find it.
    const bob = await postFile(`/documents/catalog/${id}/upload`, 'bob', 'v3.json', JSON.stringify(next));
    assert.equal(bob.status, 404);
  });
});

/** The hidden fields and the button of the page's "Store anyway" form, as a browser would send them. */
function storeAnywayForm(page: string): { action: string; fields: Record<string, string>; button: string } | undefined {
  const form =
    /<form method="post" action="([^"]+)" enctype="multipart\/form-data" class="store-anyway">([\s\S]*?)<\/form>/.exec(
      page,
    );
  if (!form) return undefined;
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)" \/>/g))
    fields[input[1]!] = input[2]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const button = /<button type="submit">([^<]+)<\/button>/.exec(form[2]!)?.[1] ?? '';
  return { action: form[1]!.replace(/&amp;/g, '&'), fields, button };
}

async function postFields(path: string, who: keyof typeof cookie, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie: cookie[who], accept: HTML },
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

describe('drafts with constraint findings', () => {
  test('refused with a "Store anyway" button that stores the same bytes, marked as a draft on its pages; a corrected version clears the mark', async () => {
    // CRLF line ends: the bytes stored must be those uploaded, which a text field would have changed.
    const draft = ssp('findings');
    const bytes = draft.body.replace(/\n/g, '\r\n');
    const refused = await postFile('/upload/system-security-plan', 'alice', 'draft-ssp.json', bytes);
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.text, /draft-ssp\.json was not stored/);
    assert.doesNotMatch(refused.text, /\?keep-findings=true/, 'the page offers its button, not the query parameter');
    const form = storeAnywayForm(refused.text);
    assert.ok(form, 'a store-anyway form');
    assert.equal(form.action, '/upload/system-security-plan');
    assert.equal(form.button, 'Store anyway, with 2 findings');
    assert.equal(form.fields['keep-findings'], 'true');
    assert.equal(form.fields.filename, 'draft-ssp.json');
    const page = (id: string, path = '') => get(`/documents/system-security-plan/${id}${path}`, 'alice');
    assert.equal((await page(draft.id)).status, 404, 'nothing stored by the refusal');

    // A reader may not, whatever the form says.
    assert.equal((await postFields(form.action, 'rita', form.fields)).status, 403);
    const stored = await postFields(form.action, 'alice', form.fields);
    assert.equal(stored.status, 303, stored.text);
    assert.equal(storedId(stored.location, 'system-security-plan'), draft.id);
    const original = await api(server.url, 'GET', `/oscal/v1/system-security-plan/${draft.id}/original`, {
      token: tokenOf('alice'),
    });
    assert.equal(original.status, 200);
    assert.ok(original.body.equals(Buffer.from(bytes)), 'the bytes kept are those uploaded, CRLF and all');

    const documentPage = await page(draft.id);
    assert.match(documentPage.text, /<span class="badge draft-badge"[^>]*>draft with findings<\/span>/);
    const versions = await page(draft.id, '/versions');
    assert.equal((versions.text.match(/>draft with findings</g) ?? []).length, 1);
    const browse = await get('/browse/system-security-plan', 'alice');
    assert.match(browse.text, new RegExp(`${draft.title}</a>\\s*<span class="badge draft-badge"`));

    // A new version with the findings: refused with its own button, which adds the version.
    const again = await postFile(`/documents/system-security-plan/${draft.id}/upload`, 'alice', 'v2.json', draft.body);
    assert.equal(again.status, 422);
    const versionForm = storeAnywayForm(again.text);
    assert.equal(versionForm?.action, `/documents/system-security-plan/${draft.id}/upload`);
    assert.equal((await postFields(versionForm!.action, 'alice', versionForm!.fields)).status, 303);
    // A corrected version clears the mark on the document; the history keeps it on the drafts.
    const fixed = ssp('valid', draft.id, draft.title);
    const corrected = await postFile(
      `/documents/system-security-plan/${draft.id}/upload`,
      'alice',
      'v3.json',
      fixed.body,
    );
    assert.equal(corrected.status, 303, corrected.text);
    assert.doesNotMatch((await page(draft.id)).text, /draft with findings/);
    assert.equal(((await page(draft.id, '/versions')).text.match(/>draft with findings</g) ?? []).length, 2);
  });

  test('schema errors get no button: keeping findings cannot store them', async () => {
    const broken = ssp('schema-invalid');
    const refused = await postFile('/upload/system-security-plan', 'alice', 'broken.json', broken.body);
    assert.equal(refused.status, 422);
    assert.equal(storeAnywayForm(refused.text), undefined);
    const forced = await postFields('/upload/system-security-plan', 'alice', {
      'keep-findings': 'true',
      filename: 'broken.json',
      content: Buffer.from(broken.body).toString('base64'),
    });
    assert.equal(forced.status, 422, 'the form field does not relax the schema');
  });
});

describe('snapshots, attachments and sharing', () => {
  let id: string;
  let title: string;

  before(async () => {
    const doc = markedCatalog('web sharing');
    title = doc.title;
    id = await upload('alice', 'sharing.json', doc.body);
  });

  test('a snapshot is made from the form, listed with its description and opened read-only', async () => {
    const made = await postForm(`/documents/catalog/${id}/snapshots`, 'alice', { description: 'Before the audit' });
    assert.equal(made.status, 303, made.text);
    const list = await get(`/documents/catalog/${id}/snapshots`, 'alice');
    assert.match(list.text, /Before the audit/);
    const link = /href="(\/documents\/catalog\/[^"]+\/snapshots\/[0-9a-f-]{36})"/.exec(list.text);
    assert.ok(link, 'a link to the snapshot');
    const opened = await get(link[1]!, 'alice');
    assert.equal(opened.status, 200);
    assert.ok(opened.text.includes(title));
    assert.match(opened.text, /read-only/);
    const listed = await api(server.url, 'GET', `/oscal/v1/catalog/${id}/snapshot`, { token: tokenOf('alice') });
    assert.equal(listed.json()['catalog-snapshot-list'][0].description, 'Before the audit');
  });

  test('an attachment is uploaded, listed, and downloaded with its bytes, sandboxed', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>parent.pwned=1</script></svg>';
    const res = await postFile(`/documents/catalog/${id}/attachments`, 'alice', 'diagram.svg', svg, 'image/svg+xml');
    assert.equal(res.status, 303, res.text);
    const list = await get(`/documents/catalog/${id}/attachments`, 'alice');
    assert.match(list.text, /diagram/);
    const link = /href="(\/documents\/catalog\/[^"]+\/attachments\/[0-9a-f-]{36})"/.exec(list.text);
    assert.ok(link, 'a download link');
    const file = await fetch(`${server.url}${link[1]}`, { headers: { cookie: cookie.alice } });
    assert.equal(file.status, 200);
    assert.equal(await file.text(), svg);
    assert.match(file.headers.get('content-disposition') ?? '', /^attachment; filename="?diagram\.svg"?$/);
    assert.equal(file.headers.get('content-security-policy'), 'sandbox');
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
  });

  test('the owner makes it public, grants and removes a grant; bob gains and loses access by each', async () => {
    const page = `/documents/catalog/${id}`;
    assert.equal((await get(page, 'bob')).status, 404);
    assert.equal((await get(`${page}/access`, 'alice')).status, 200);

    assert.equal(
      (await postForm(`${page}/access`, 'alice', { action: 'visibility', visibility: 'public' })).status,
      303,
    );
    assert.equal((await get(page, 'bob')).status, 200);
    assert.equal((await get(page)).status, 200, 'public: signed-out readers too');
    assert.equal(
      (await postForm(`${page}/access`, 'alice', { action: 'visibility', visibility: 'private' })).status,
      303,
    );
    assert.equal((await get(page, 'bob')).status, 404);

    const grant = { action: 'add-grant', principal: 'user:bob', permission: 'read' };
    assert.equal((await postForm(`${page}/access`, 'alice', grant)).status, 303);
    assert.equal((await get(page, 'bob')).status, 200);
    assert.match((await get(`${page}/access`, 'alice')).text, /<td>user:bob<\/td>\s*<td>read<\/td>/);
    // A read grant lets bob read, not manage.
    assert.equal((await get(`${page}/access`, 'bob')).status, 403);
    const removed = await postForm(`${page}/access`, 'alice', { action: 'remove-grant', principal: 'user:bob' });
    assert.equal(removed.status, 303);
    assert.equal((await get(page, 'bob')).status, 404);
  });

  test('a bad grant is shown on the page (400) and changes nothing; a foreign form is refused', async () => {
    const page = `/documents/catalog/${id}/access`;
    const before = (await get(page, 'alice')).text;
    const bad = await postForm(page, 'alice', { action: 'add-grant', principal: 'bob', permission: 'read' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /role="alert">each grant needs a principal/);
    const foreign = await postForm(
      page,
      'alice',
      { action: 'visibility', visibility: 'public' },
      { origin: 'https://elsewhere.example' },
    );
    assert.equal(foreign.status, 403);
    assert.equal((await get(page, 'alice')).text, before);
  });
});

describe("a profile's resolved catalog", () => {
  test('the profile page links to its resolution, which shows the selected controls in the catalog view', async () => {
    const catalogId = await upload('alice', 'base.json', markedCatalog('web resolve base').body);
    const profile = {
      profile: {
        uuid: crypto.randomUUID(),
        metadata: {
          title: 'Web resolve profile',
          'last-modified': '2024-01-01T00:00:00Z',
          version: '1',
          'oscal-version': '1.1.2',
        },
        imports: [{ href: `../catalog/${catalogId}`, 'include-controls': [{ 'with-ids': ['s1.1.1'] }] }],
      },
    };
    const created = await api(server.url, 'POST', '/oscal/v1/profile', {
      body: JSON.stringify(profile),
      contentType: 'application/json',
      token: tokenOf('alice'),
    });
    assert.equal(created.status, 201, created.text);
    const id = created.json()['profile-list'][0]['content-uuid'];
    const page = await get(`/documents/profile/${id}`, 'alice');
    assert.ok(page.text.includes(`href="/documents/profile/${id}/resolved"`));
    const resolved = await get(`/documents/profile/${id}/resolved`, 'alice');
    assert.equal(resolved.status, 200, resolved.text);
    assert.match(resolved.text, /id="catalog-filter"/);
    assert.match(resolved.text, /data-control="s1.1.1"/);
    assert.doesNotMatch(resolved.text, /data-control="s1.1.2"/);
  });
});
