/**
 * Attachments of the generic interface (generic-interface 2.4, 3 and 4.3; D8, D9) over real HTTP
 * against a real `oscal-depot serve` process: every rule of 4.3, every row of the state table,
 * binary round trips, file names, limits, revisions and what a document's deletion takes with it.
 * Expected values come from the spec and from the bytes the test sent, never from the server.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import * as contentDisposition from 'content-disposition';
import { assertErrorBody } from './support/error-body.js';
import { formBody, pdfDocument, pngImage, sha256 } from './support/files.js';
import { api, type ApiRequest, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog } from './support/marked-docs.js';
import { freshDatabase, SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { TestServer } from './support/server.js';
import { makeToken } from './support/tokens.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MB = 1024 * 1024;

type Resource = Record<string, any> & { uuid: string };

/** One server's view, with the token of the user who owns the documents it creates. */
class Client {
  constructor(
    readonly server: TestServer,
    readonly token: string,
  ) {}

  call(method: string, path: string, options: ApiRequest = {}): Promise<ApiResponse> {
    return api(this.server.url, method, `/oscal/v1/catalog${path}`, { token: this.token, ...options });
  }

  /** A fresh catalog (NIST's basic catalog, made unique), with these back-matter resources. */
  async catalog(label: string, resources?: Resource[]): Promise<string> {
    const res = await this.call('POST', '', { body: catalogBody(label, resources), contentType: 'application/json' });
    assert.equal(res.status, 201, res.text);
    return res.json()['catalog-list'][0]['content-uuid'];
  }

  /** POST (or PUT, given a resource) of a file as the raw body. */
  send(
    id: string,
    bytes: Buffer,
    options: { type?: string; filename?: string; disposition?: string; resource?: string } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    if (options.disposition ?? options.filename)
      headers['content-disposition'] = options.disposition ?? contentDisposition.create(options.filename!);
    return this.call(
      options.resource ? 'PUT' : 'POST',
      `/${id}/attachment${options.resource ? `/${options.resource}` : ''}`,
      {
        body: bytes,
        contentType: options.type ?? 'application/octet-stream',
        headers,
      },
    );
  }

  async attach(id: string, bytes: Buffer, options: { type?: string; filename?: string } = {}): Promise<Resource> {
    const res = await this.send(id, bytes, options);
    assert.equal(res.status, 201, res.text);
    return res.json();
  }

  async content(id: string): Promise<Record<string, any>> {
    const res = await this.call('GET', `/${id}`);
    assert.equal(res.status, 200, res.text);
    return res.json().catalog;
  }

  async list(id: string): Promise<Resource[]> {
    const res = await this.call('GET', `/${id}/attachment`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.json()), ['attachment-list']);
    return res.json()['attachment-list'];
  }

  async resource(id: string, resource: string): Promise<Resource> {
    const res = await this.call('GET', `/${id}/attachment/${resource}/resource`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    return res.json();
  }

  /** The registry's numbered versions of the document (D8), newest first. */
  async versions(id: string): Promise<number[]> {
    const res = await api(this.server.url, 'GET', `/api/v1/catalogs/${id}/versions`, { token: this.token });
    assert.equal(res.status, 200, res.text);
    return res.json().map((v: { version: number }) => v.version);
  }

  async version(id: string, n: number): Promise<Record<string, any>> {
    const res = await api(this.server.url, 'GET', `/api/v1/catalogs/${id}/versions/${n}`, { token: this.token });
    assert.equal(res.status, 200, res.text);
    return res.json().catalog;
  }
}

function catalogBody(label: string, resources?: Resource[]): string {
  const { content } = markedCatalog(label);
  if (resources) (content.catalog as Record<string, unknown>)['back-matter'] = { resources };
  return JSON.stringify(content);
}

/** What D9 says the created entry holds: the uuid, the title, one rlink to the file with its hash. */
function assertCreatedEntry(client: Client, id: string, entry: Resource, file: { bytes: Buffer; type: string }): void {
  assert.match(entry.uuid, UUID_V4, 'a generated v4 uuid');
  assert.deepEqual(entry.rlinks, [
    {
      href: `${client.server.url}/oscal/v1/catalog/${id}/attachment/${entry.uuid}`,
      'media-type': file.type,
      hashes: [{ algorithm: 'SHA-256', value: sha256(file.bytes) }],
    },
  ]);
  assert.equal(entry.base64, undefined);
}

/** The file of a resource: byte for byte, with the type and the name it was stored with. */
async function assertFile(
  client: Client,
  id: string,
  resource: string,
  expected: { bytes: Buffer; type: string; filename?: string },
): Promise<ApiResponse> {
  const res = await client.call('GET', `/${id}/attachment/${resource}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  assert.equal(res.headers['content-type'], expected.type);
  assert.equal(res.headers['content-encoding'], undefined, 'no coding the client did not ask for');
  assert.ok(
    res.body.equals(expected.bytes),
    `byte-identical (${res.body.length} bytes back, ${expected.bytes.length} sent)`,
  );
  assert.equal(res.headers.etag, `W/"${sha256(expected.bytes)}"`);
  if (expected.filename !== undefined)
    assert.equal(
      contentDisposition.parse(String(res.headers['content-disposition'])).parameters.filename,
      expected.filename,
    );
  return res;
}

/** The resources of a catalog's back-matter, as its JSON form holds them. */
const resourcesOf = (catalog: Record<string, any>): Resource[] => catalog['back-matter']?.resources ?? [];

let main: Client;
let admin: Client;

before(async () => {
  const server = await TestServer.start();
  main = new Client(server, (await makeToken(server.dataDir, 'wanda', 'writer')).secret);
  admin = new Client(server, server.adminToken());
});
after(async () => {
  await stopWithin(main?.server);
});

describe('the state table of section 3', () => {
  test('no attachment → POST attachment → a new resource entry with an rlink (rule 1)', async () => {
    const id = await main.catalog('post creates rlink');
    assert.deepEqual(await main.list(id), []);
    const png = { bytes: pngImage(), type: 'image/png', filename: 'diagram.png' };
    const res = await main.send(id, png.bytes, png);
    assert.equal(res.status, 201, res.text);
    const entry: Resource = res.json();
    assertCreatedEntry(main, id, entry, png);
    assert.equal(entry.title, 'diagram.png');
    assert.equal(res.headers.location, entry.rlinks[0].href);
    assert.deepEqual(resourcesOf(await main.content(id)), [entry], 'the entry is in the content, exactly as answered');
    await assertFile(main, id, entry.uuid, png);
  });

  test('base64 in the resource → PUT attachment → an rlink; the base64 field is removed (rule 3)', async () => {
    const logo = pngImage(4, 4);
    const external = { href: 'https://example.com/logo.png', 'media-type': 'image/png' };
    const original: Resource = {
      uuid: randomUUID(),
      title: 'Logo',
      rlinks: [external],
      base64: { filename: 'logo.png', 'media-type': 'image/png', value: logo.toString('base64') },
    };
    const id = await main.catalog('base64 then put', [original]);
    await assertFile(main, id, original.uuid, { bytes: logo, type: 'image/png', filename: 'logo.png' });

    const pdf = pdfDocument('replacement');
    const put = await main.send(id, pdf, { type: 'application/pdf', filename: 'logo.pdf', resource: original.uuid });
    assert.equal(put.status, 204, put.text);
    assert.equal(put.text, '');
    const entry = await main.resource(id, original.uuid);
    assert.equal(entry.base64, undefined, 'base64 is gone');
    assert.equal(entry.title, 'Logo', 'the title stays');
    assert.deepEqual(
      entry.rlinks,
      [
        {
          href: `${main.server.url}/oscal/v1/catalog/${id}/attachment/${original.uuid}`,
          'media-type': 'application/pdf',
          hashes: [{ algorithm: 'SHA-256', value: sha256(pdf) }],
        },
        external,
      ],
      'our rlink first; the other rlink kept',
    );
    await assertFile(main, id, original.uuid, { bytes: pdf, type: 'application/pdf', filename: 'logo.pdf' });
  });

  test('POST and PUT of content containing base64 → stored as received', async () => {
    const first = pngImage(3, 3);
    const resource: Resource = {
      uuid: randomUUID(),
      title: 'Embedded',
      base64: { filename: 'embedded.png', 'media-type': 'image/png', value: first.toString('base64') },
    };
    const id = await main.catalog('base64 content', [resource]);
    assert.deepEqual(resourcesOf(await main.content(id)), [resource]);
    const xml = await main.call('GET', `/${id}`, { accept: 'application/xml' });
    assert.ok(
      xml.text.includes(`<base64 filename="embedded.png" media-type="image/png">${first.toString('base64')}</base64>`),
      'the XML form carries it too',
    );

    // The list leaves base64 out (rule 5); .../resource gives the entry with it.
    assert.deepEqual(await main.list(id), [
      { 'content-uuid': id, 'resource-uuid': resource.uuid, uuid: resource.uuid, title: 'Embedded' },
    ]);
    assert.deepEqual(await main.resource(id, resource.uuid), resource);

    const second = pdfDocument('second');
    const replaced = {
      ...resource,
      base64: { filename: 'embedded.pdf', 'media-type': 'application/pdf', value: second.toString('base64') },
    };
    const catalog = await main.content(id);
    catalog['back-matter'].resources = [replaced];
    const put = await main.call('PUT', `/${id}`, {
      body: JSON.stringify({ catalog }),
      contentType: 'application/json',
    });
    assert.equal(put.status, 204, put.text);
    assert.deepEqual(resourcesOf(await main.content(id)), [replaced], 'base64 kept as sent, not turned into an rlink');
    await assertFile(main, id, resource.uuid, { bytes: second, type: 'application/pdf', filename: 'embedded.pdf' });
  });
});

describe('the rules of section 4.3', () => {
  test('PUT .../resource enriches the entry; the list shows it with content-uuid and resource-uuid (rules 1, 5, 6)', async () => {
    const id = await main.catalog('enrich');
    const bytes = randomBytes(1000);
    const entry = await main.attach(id, bytes, { filename: 'data.bin' });
    const enriched: Resource = {
      ...entry,
      title: 'Scan results',
      description: 'Raw output of the *quarterly* scan.',
      props: [{ name: 'type', value: 'raw-data' }],
      remarks: 'Kept for audit.',
    };
    const put = await main.call('PUT', `/${id}/attachment/${entry.uuid}/resource`, {
      body: JSON.stringify(enriched),
      contentType: 'application/json',
    });
    assert.equal(put.status, 204, put.text);
    assert.deepEqual(await main.resource(id, entry.uuid), enriched);
    assert.deepEqual(await main.list(id), [{ 'content-uuid': id, 'resource-uuid': entry.uuid, ...enriched }]);
    await assertFile(main, id, entry.uuid, { bytes, type: 'application/octet-stream', filename: 'data.bin' });
  });

  test('GET attachment: an rlink to our file wins over base64; older relative hrefs are recognised; no file at all is 404 (rule 2, D9)', async () => {
    const id = await main.catalog('rule 2');
    const held = randomBytes(500);
    const entry = await main.attach(id, held, { type: 'application/zip', filename: 'held.zip' });
    const other = randomBytes(100);
    for (const href of [
      `/${id}/attachment/${entry.uuid}`,
      `/oscal/v1/catalog/${id}/attachment/${entry.uuid}`,
      `/catalog/${id}/attachment/${entry.uuid}`,
    ]) {
      const both = {
        ...entry,
        rlinks: [{ href, 'media-type': 'application/zip' }],
        base64: { filename: 'other.bin', value: other.toString('base64') },
      };
      const put = await main.call('PUT', `/${id}/attachment/${entry.uuid}/resource`, {
        body: JSON.stringify(both),
        contentType: 'application/json',
      });
      assert.equal(put.status, 204, put.text);
      await assertFile(main, id, entry.uuid, { bytes: held, type: 'application/zip', filename: 'held.zip' });
    }
    const external = { uuid: entry.uuid, title: 'Elsewhere', rlinks: [{ href: 'https://example.com/held.zip' }] };
    const put = await main.call('PUT', `/${id}/attachment/${entry.uuid}/resource`, {
      body: JSON.stringify(external),
      contentType: 'application/json',
    });
    assert.equal(put.status, 204, put.text);
    assertErrorBody(await main.call('GET', `/${id}/attachment/${entry.uuid}`), 404, /no file/);
  });

  test('DELETE attachment removes the file and the entry; the last one takes the empty back-matter with it (rule 4)', async () => {
    const id = await main.catalog('delete');
    const [a, b] = [await main.attach(id, randomBytes(300)), await main.attach(id, randomBytes(300))];
    const del = await main.call('DELETE', `/${id}/attachment/${a.uuid}`);
    assert.equal(del.status, 204, del.text);
    assert.equal(del.text, '');
    assertErrorBody(await main.call('GET', `/${id}/attachment/${a.uuid}`), 404);
    assertErrorBody(await main.call('GET', `/${id}/attachment/${a.uuid}/resource`), 404);
    assertErrorBody(await main.call('DELETE', `/${id}/attachment/${a.uuid}`), 404);
    assert.deepEqual(
      resourcesOf(await main.content(id)).map((r) => r.uuid),
      [b.uuid],
    );
    assert.equal((await main.call('DELETE', `/${id}/attachment/${b.uuid}`)).status, 204);
    assert.equal((await main.content(id))['back-matter'], undefined, 'OSCAL has no empty resources array');
  });

  test('PUT .../resource: a uuid other than the path is 409; non-JSON 415; bad JSON 400; invalid OSCAL 422; nothing changes (rules 6, 7)', async () => {
    const id = await main.catalog('resource refusals');
    const entry = await main.attach(id, randomBytes(200), { filename: 'keep.bin' });
    const before = await main.versions(id);
    const path = `/${id}/attachment/${entry.uuid}/resource`;
    const cases: [ApiRequest, number, RegExp][] = [
      [{ body: JSON.stringify({ ...entry, uuid: randomUUID() }), contentType: 'application/json' }, 409, /uuid/],
      [{ body: `<resource uuid="${entry.uuid}"/>`, contentType: 'application/xml' }, 415, /JSON/],
      [{ body: JSON.stringify(entry), contentType: 'text/plain' }, 415, /JSON/],
      [{ body: JSON.stringify(entry) }, 415, /JSON/],
      [{ body: '{"uuid": ', contentType: 'application/json' }, 400, /JSON/],
      [{ body: JSON.stringify([entry]), contentType: 'application/json' }, 400, /object/],
      [
        { body: JSON.stringify({ ...entry, rlinks: 'not a list' }), contentType: 'application/json' },
        422,
        /valid OSCAL/,
      ],
    ];
    for (const [request, status, message] of cases)
      assertErrorBody(await main.call('PUT', path, request), status, message);
    assert.deepEqual(await main.resource(id, entry.uuid), entry);
    assert.deepEqual(await main.versions(id), before, 'no revision added');
    const absent = randomUUID();
    assertErrorBody(
      await main.call('PUT', `/${id}/attachment/${absent}/resource`, {
        body: JSON.stringify({ ...entry, uuid: absent }),
        contentType: 'application/json',
      }),
      404,
    );
  });

  test('POST and PUT of a file take multipart/form-data with the field "file", and refuse forms without it', async () => {
    const id = await main.catalog('multipart');
    const pdf = pdfDocument('form upload');
    const form = await formBody([{ field: 'file', bytes: pdf, filename: 'form upload.pdf', type: 'application/pdf' }]);
    const res = await main.call('POST', `/${id}/attachment`, form);
    assert.equal(res.status, 201, res.text);
    assertCreatedEntry(main, id, res.json(), { bytes: pdf, type: 'application/pdf' });
    await assertFile(main, id, res.json().uuid, { bytes: pdf, type: 'application/pdf', filename: 'form upload.pdf' });

    const png = pngImage();
    const replace = await formBody([{ field: 'file', bytes: png, filename: 'replaced.png', type: 'image/png' }]);
    assert.equal((await main.call('PUT', `/${id}/attachment/${res.json().uuid}`, replace)).status, 204);
    await assertFile(main, id, res.json().uuid, { bytes: png, type: 'image/png', filename: 'replaced.png' });

    const before = await main.versions(id);
    const misnamed = await formBody([{ field: 'upload', bytes: png, filename: 'x.png', type: 'image/png' }]);
    assertErrorBody(await main.call('POST', `/${id}/attachment`, misnamed), 400, /"file"/);
    assertErrorBody(await main.send(id, Buffer.alloc(0)), 400, /empty/);
    assertErrorBody(
      await main.call('POST', `/${id}/attachment`, { body: 'x', contentType: 'image png' }),
      400,
      /Content-Type/,
    );
    assert.deepEqual(await main.versions(id), before);
  });
});

describe('files: bytes, types, names, caching', () => {
  test('a PNG (raw body) and a PDF (form) round-trip byte-identical', async () => {
    const id = await main.catalog('binary');
    const png = { bytes: pngImage(64, 64), type: 'image/png', filename: 'pixels.png' };
    const pdf = { bytes: pdfDocument('a one page PDF'), type: 'application/pdf', filename: 'page.pdf' };
    const a = await main.attach(id, png.bytes, png);
    const b = await main.call('POST', `/${id}/attachment`, await formBody([{ field: 'file', ...pdf }]));
    assert.equal(b.status, 201, b.text);
    await assertFile(main, id, a.uuid, png);
    await assertFile(main, id, b.json().uuid, pdf);
  });

  test('the stored Content-Type comes back with its parameters; compressible files come gzip only when asked', async () => {
    const id = await main.catalog('content type');
    const csv = Buffer.from('name;city\n' + 'Zoë;Zürich\n'.repeat(2000), 'latin1');
    const type = 'text/csv; charset=iso-8859-1';
    const entry = await main.attach(id, csv, { type, filename: 'people.csv' });
    assert.equal(entry.rlinks[0]['media-type'], 'text/csv', 'the rlink names the media type alone');
    await assertFile(main, id, entry.uuid, { bytes: csv, type });
    const gz = await main.call('GET', `/${id}/attachment/${entry.uuid}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gz.body).equals(csv));
  });

  test('ETag, and 304 on If-None-Match until the file changes', async () => {
    const id = await main.catalog('etag');
    const first = randomBytes(2000);
    const entry = await main.attach(id, first);
    const etag = `W/"${sha256(first)}"`;
    const path = `/${id}/attachment/${entry.uuid}`;
    const cached = await main.call('GET', path, { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    assert.equal(cached.body.length, 0);
    assert.equal(cached.headers.etag, etag);
    assert.equal((await main.call('GET', path, { headers: { 'if-none-match': 'W/"something-else"' } })).status, 200);
    const second = randomBytes(2000);
    assert.equal((await main.send(id, second, { resource: entry.uuid })).status, 204);
    const changed = await main.call('GET', path, { headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200);
    assert.ok(changed.body.equals(second));
  });

  const NAMES = [
    'quarterly report "final" v2.pdf',
    '日本語 ファイル.png',
    'naïve café – résumé.txt',
    'notes_on *draft* [v2] <b> `x` #1.md',
  ];
  const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const WAYS: [string, (id: string, name: string, bytes: Buffer) => Promise<ApiResponse>][] = [
    ['raw, filename* (RFC 6266)', (id, name, bytes) => main.send(id, bytes, { filename: name })],
    [
      'raw, UTF-8 bytes in filename=""',
      (id, name, bytes) =>
        main.send(id, bytes, {
          disposition: `attachment; filename="${Buffer.from(name.replace(/["\\]/g, '\\$&'), 'utf8').toString('latin1')}"`,
        }),
    ],
    [
      'multipart/form-data',
      async (id, name, bytes) =>
        main.call(
          'POST',
          `/${id}/attachment`,
          await formBody([{ field: 'file', bytes, filename: name, type: 'application/octet-stream' }]),
        ),
    ],
  ];
  for (const [way, send] of WAYS) {
    test(`file names with spaces, quotes, non-ASCII and Markdown characters survive: ${way}`, async () => {
      const id = await main.catalog(`names ${way}`);
      const sent = new Map<string, string>();
      for (const name of NAMES) {
        const res = await send(id, name, randomBytes(64));
        assert.equal(res.status, 201, `${name}: ${res.text}`);
        sent.set(res.json().uuid, name);
      }
      const xml = (await main.call('GET', `/${id}`, { accept: 'application/xml' })).text;
      for (const [uuid, name] of sent) {
        const disposition = String(
          (await main.call('GET', `/${id}/attachment/${uuid}`)).headers['content-disposition'],
        );
        assert.equal(contentDisposition.parse(disposition).parameters.filename, name, disposition);
        assert.match(disposition, /^[\x20-\x7e]+$/, 'the header itself is ASCII (the name travels in filename*)');
        // The title is the name as text: no Markdown in it is taken as emphasis, links or code.
        assert.ok(
          xml.includes(`<resource uuid="${uuid}">\n      <title>${escapeXml(name)}</title>`),
          `title of ${name} in ${xml.slice(xml.indexOf(uuid) - 20, xml.indexOf(uuid) + 200)}`,
        );
      }
    });
  }

  test('a file name with a path keeps only its last part; "..", "/" and control characters never reach a header', async () => {
    const id = await main.catalog('paths in names');
    const cases: [string, string | undefined][] = [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\boot.ini', 'boot.ini'],
      ['a\u0007b\u001f.txt', 'ab.txt'],
      ['..', undefined],
      ['/', undefined],
    ];
    for (const [given, kept] of cases) {
      const entry = await main.attach(id, randomBytes(32), { filename: given });
      const disposition = contentDisposition.parse(
        String((await main.call('GET', `/${id}/attachment/${entry.uuid}`)).headers['content-disposition']),
      );
      assert.equal(
        disposition.parameters.filename,
        kept ?? entry.uuid,
        `${JSON.stringify(given)}: ${JSON.stringify(disposition)}`,
      );
    }
  });

  test('a file replaced without a name keeps the name it had', async () => {
    const id = await main.catalog('keeps name');
    const entry = await main.attach(id, randomBytes(100), { filename: 'evidence.bin' });
    const next = randomBytes(100);
    assert.equal((await main.send(id, next, { resource: entry.uuid })).status, 204);
    await assertFile(main, id, entry.uuid, { bytes: next, type: 'application/octet-stream', filename: 'evidence.bin' });
  });

  test('ids with path traversal or junk get 404 (or 400), never a file and never a change', async () => {
    const id = await main.catalog('junk ids');
    const entry = await main.attach(id, randomBytes(100));
    const files = readdirSync(main.server.dataDir).sort();
    const versions = await main.versions(id);
    const junk = [
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '..',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '....%2F%2F....%2F%2Fetc%2Fpasswd',
      '%00',
      '%C0%AE%C0%AE%2Fetc',
      'a'.repeat(65),
      `${entry.uuid}%00.png`,
      'not-a-uuid',
    ];
    const paths = [
      ...junk.map((j) => `/${id}/attachment/${j}`),
      ...junk.map((j) => `/${j}/attachment/${entry.uuid}`),
      ...junk.map((j) => `/${id}/attachment/${j}/resource`),
      `/${id}/attachment/../../../../../../etc/passwd`,
      `/${id}/attachment/${entry.uuid}/../../../../../etc/passwd`,
    ];
    for (const path of paths) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const body = path.endsWith('/resource')
          ? { body: JSON.stringify({ uuid: entry.uuid }), contentType: 'application/json' }
          : { body: randomBytes(10) };
        const res = await main.call(method, path, method === 'PUT' ? body : {});
        assert.ok(res.status === 404 || res.status === 400, `${method} ${path}: ${res.status} ${res.text}`);
        assertErrorBody(res, res.status);
        assert.ok(!/root:|\[boot loader\]/.test(res.text), `${method} ${path} served a file`);
      }
    }
    assert.deepEqual(readdirSync(main.server.dataDir).sort(), files, 'no file written to the data directory');
    assert.deepEqual(await main.versions(id), versions, 'no revision added');
    assert.deepEqual(
      (await main.list(id)).map((r) => r.uuid),
      [entry.uuid],
    );
  });
});

describe('revisions, legal hold, concurrency', () => {
  test('each attachment or resource change is the next numbered version, holding that change (D8)', async () => {
    const id = await main.catalog('revisions');
    assert.deepEqual(await main.versions(id), [1]);
    const first = randomBytes(400);
    const entry = await main.attach(id, first, { filename: 'v.bin' });
    assert.deepEqual(await main.versions(id), [2, 1]);
    const second = randomBytes(400);
    assert.equal((await main.send(id, second, { resource: entry.uuid })).status, 204);
    assert.deepEqual(await main.versions(id), [3, 2, 1]);
    const titled = { ...(await main.resource(id, entry.uuid)), title: 'Titled' };
    assert.equal(
      (
        await main.call('PUT', `/${id}/attachment/${entry.uuid}/resource`, {
          body: JSON.stringify(titled),
          contentType: 'application/json',
        })
      ).status,
      204,
    );
    assert.deepEqual(await main.versions(id), [4, 3, 2, 1]);
    assert.equal((await main.call('DELETE', `/${id}/attachment/${entry.uuid}`)).status, 204);
    assert.deepEqual(await main.versions(id), [5, 4, 3, 2, 1]);

    const hashIn = async (n: number) =>
      resourcesOf(await main.version(id, n)).map((r) => [r.title, r.rlinks[0].hashes[0].value]);
    assert.deepEqual(await hashIn(1), []);
    assert.deepEqual(await hashIn(2), [['v.bin', sha256(first)]]);
    assert.deepEqual(await hashIn(3), [['v.bin', sha256(second)]]);
    assert.deepEqual(await hashIn(4), [['Titled', sha256(second)]]);
    assert.deepEqual(await hashIn(5), []);
  });

  test('under a legal hold an attachment cannot be deleted or replaced (409); adding one still works', async () => {
    const id = await main.catalog('legal hold');
    const bytes = randomBytes(300);
    const entry = await main.attach(id, bytes, { filename: 'held.bin' });
    const hold = (on: boolean) =>
      admin.call('PUT', `/${id}/access`, {
        body: JSON.stringify({ 'legal-hold': on }),
        contentType: 'application/json',
      });
    assert.equal((await hold(true)).status, 200);
    assertErrorBody(await main.call('DELETE', `/${id}/attachment/${entry.uuid}`), 409, /legal hold/);
    assertErrorBody(await main.send(id, randomBytes(300), { resource: entry.uuid }), 409, /legal hold/);
    await assertFile(main, id, entry.uuid, { bytes, type: 'application/octet-stream', filename: 'held.bin' });
    assert.equal((await main.send(id, randomBytes(10))).status, 201);
    assert.equal((await hold(false)).status, 200);
    assert.equal((await main.call('DELETE', `/${id}/attachment/${entry.uuid}`)).status, 204);
  });

  test('concurrent POSTs to one document all survive', async () => {
    await assertConcurrentPostsSurvive([main], 12);
  });
});

/** N files posted at once (spread over the servers): every one answered 201, listed, and readable. */
async function assertConcurrentPostsSurvive(clients: Client[], n: number): Promise<void> {
  const id = await clients[0]!.catalog('concurrent');
  const files = Array.from({ length: n }, (_, i) => randomBytes(5000 + i));
  const results = await Promise.all(
    files.map((bytes, i) => clients[i % clients.length]!.send(id, bytes, { filename: `file ${i}.bin` })),
  );
  assert.deepEqual(
    results.map((r) => r.status),
    files.map(() => 201),
    results
      .filter((r) => r.status !== 201)
      .map((r) => r.text)
      .join('; '),
  );
  const uuids = results.map((r) => r.json().uuid as string);
  assert.deepEqual((await clients[0]!.list(id)).map((r) => r.uuid).sort(), [...uuids].sort());
  for (const [i, uuid] of uuids.entries())
    await assertFile(clients[i % clients.length]!, id, uuid, {
      bytes: files[i]!,
      type: 'application/octet-stream',
      filename: `file ${i}.bin`,
    });
  assert.equal((await clients[0]!.versions(id)).length, n + 1, 'one version per file');
}

describe('a server with --max-attachment 64KB', () => {
  let small: Client;
  before(async () => {
    const server = await TestServer.start({ args: ['--max-attachment', '64KB'] });
    small = new Client(server, server.adminToken());
  });
  after(async () => {
    await stopWithin(small?.server);
  });

  test('a file over the limit is 413 with the error object, raw or in a form, POST or PUT; nothing changes', async () => {
    const id = await small.catalog('limit');
    const atLimit = randomBytes(64 * 1024);
    const entry = await small.attach(id, atLimit);
    const over = randomBytes(64 * 1024 + 1);
    assertErrorBody(await small.send(id, over), 413, /larger/);
    assertErrorBody(
      await small.call(
        'POST',
        `/${id}/attachment`,
        await formBody([{ field: 'file', bytes: over, filename: 'big.bin', type: 'application/octet-stream' }]),
      ),
      413,
      /larger/,
    );
    assertErrorBody(await small.send(id, over, { resource: entry.uuid }), 413, /larger/);
    assert.deepEqual(await small.versions(id), [2, 1]);
    await assertFile(small, id, entry.uuid, { bytes: atLimit, type: 'application/octet-stream' });
  });

  test('deleting a document deletes its attachments and snapshots: 404 through the API, and their blobs gone from the SQLite file', async () => {
    const id = await small.catalog('deleted with its files');
    const kept = await small.catalog('kept');
    const files = [randomBytes(3000), randomBytes(3000)];
    const entries = [];
    for (const bytes of files) entries.push(await small.attach(id, bytes));
    await small.attach(kept, randomBytes(3000));
    const snapshot = await small.call('POST', `/${id}/snapshot`);
    assert.equal(snapshot.status, 201, snapshot.text);
    const snapshotId = snapshot.json()['snapshot-id'];
    const snapshotHash = /^W\/"([0-9a-f]{64})"$/.exec(
      String((await small.call('GET', `/${id}/snapshot/${snapshotId}`)).headers.etag),
    )?.[1];
    assert.ok(snapshotHash, 'the snapshot ETag names its stored hash');

    assert.equal((await small.call('DELETE', `/${id}`)).status, 204);
    for (const path of [
      `/${id}/attachment`,
      ...entries.map((e) => `/${id}/attachment/${e.uuid}`),
      ...entries.map((e) => `/${id}/attachment/${e.uuid}/resource`),
      `/${id}/snapshot`,
      `/${id}/snapshot/${snapshotId}`,
    ]) {
      assertErrorBody(await small.call('GET', path), 404);
    }
    assert.equal((await small.list(kept)).length, 1, 'another document keeps its file');

    assert.equal(await small.server.stop(), 0);
    const db = new Database(join(small.server.dataDir, 'oscal-depot.sqlite'), { readonly: true });
    try {
      const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
      assert.equal(count('SELECT COUNT(*) AS n FROM attachments WHERE document_id = ?', id), 0);
      assert.equal(count('SELECT COUNT(*) AS n FROM snapshots WHERE document_id = ?', id), 0);
      assert.equal(count('SELECT COUNT(*) AS n FROM revisions WHERE document_id = ?', id), 0);
      for (const hash of [...files.map(sha256), snapshotHash])
        assert.equal(count('SELECT COUNT(*) AS n FROM blobs WHERE hash = ?', hash), 0, `blob ${hash} is gone`);
      assert.equal(count('SELECT COUNT(*) AS n FROM attachments WHERE document_id = ?', kept), 1);
      assert.equal(
        count(`SELECT COUNT(*) AS n FROM blobs WHERE hash NOT IN (SELECT canonical_hash FROM revisions UNION SELECT original_hash FROM revisions
        UNION SELECT blob_hash FROM renditions UNION SELECT blob_hash FROM attachments UNION SELECT canonical_hash FROM snapshots)`),
        0,
        'no blob left that nothing refers to',
      );
    } finally {
      db.close();
    }
  });
});

describe('a 60 MB file', () => {
  test('round-trips byte-identical (SQLite)', async (t) => {
    await assertLargeRoundTrip(main, t.diagnostic.bind(t));
  });
});

/** A file of random bytes (which no compression shrinks) up and down again; the times are reported, not asserted. */
async function assertLargeRoundTrip(client: Client, report: (message: string) => void): Promise<void> {
  const id = await client.catalog('60 MB');
  const bytes = randomBytes(60 * MB);
  let started = performance.now();
  const entry = await client.attach(id, bytes, { filename: 'large.bin' });
  const up = performance.now() - started;
  started = performance.now();
  await assertFile(client, id, entry.uuid, { bytes, type: 'application/octet-stream', filename: 'large.bin' });
  report(`60 MB: upload ${Math.round(up)} ms, download ${Math.round(performance.now() - started)} ms`);
}

describe('PostgreSQL: two server processes on one database', { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE }, () => {
  let database: { url: string; drop: () => Promise<void> };
  let clients: Client[];
  before(async () => {
    database = await freshDatabase();
    const servers = await Promise.all([0, 1].map(() => TestServer.start({ args: ['--database-url', database.url] })));
    // Whichever process came first made the admin token.
    const token = servers
      .map((s) => {
        try {
          return s.adminToken();
        } catch {
          return undefined;
        }
      })
      .find(Boolean)!;
    clients = servers.map((s) => new Client(s, token));
  });
  after(async () => {
    for (const c of clients ?? []) await stopWithin(c.server);
    await database?.drop();
  });

  test('a 60 MB file round-trips byte-identical', async (t) => {
    await assertLargeRoundTrip(clients[0]!, t.diagnostic.bind(t));
  });

  test('concurrent POSTs to one document through both processes all survive', async () => {
    await assertConcurrentPostsSurvive(clients, 16);
  });
});
