/**
 * An attachment's rlink carries the absolute URL of the server it was uploaded to (D9); the file
 * must still be served once the server answers under another public URL: a new host or port, a
 * proxy path, or a sibling server on a shared database.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { catalogJson } from './support/documents.js';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { newDataDir, TestServer } from './support/server.js';

const dataDir = newDataDir();
let server: TestServer | undefined;

after(async () => {
  await stopWithin(server);
  rmSync(dataDir, { recursive: true, force: true });
});

test('a file uploaded under one public URL is served under another', async () => {
  server = await TestServer.start({ dataDir, args: ['--public-url', 'https://old.example/depot'] });
  const token = server.adminToken();
  const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token,
    body: catalogJson(),
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
  const id = created.json()['catalog-list'][0]['content-uuid'] as string;
  const file = randomBytes(4096);
  const posted = await api(server.url, 'POST', `/oscal/v1/catalog/${id}/attachment`, {
    token,
    body: file,
    contentType: 'application/octet-stream',
    headers: { 'content-disposition': 'attachment; filename="data.bin"' },
  });
  assert.equal(posted.status, 201, posted.text);
  const resource = posted.json() as { uuid: string; rlinks: { href: string }[] };
  assert.equal(
    resource.rlinks[0]!.href,
    `https://old.example/depot/oscal/v1/catalog/${id}/attachment/${resource.uuid}`,
  );
  await stopWithin(server);

  server = await TestServer.start({ dataDir, args: ['--public-url', 'http://new.example:8080'] });
  const got = await api(server.url, 'GET', `/oscal/v1/catalog/${id}/attachment/${resource.uuid}`, { token });
  assert.equal(got.status, 200, got.text);
  assert.deepEqual(got.body, file);
});
