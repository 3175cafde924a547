/**
 * The server's protections, each on a real server process: security headers, CORS (off unless
 * configured), the limit on failed authentication, request and header timeouts, body limits per
 * route, and markup that cannot be given as XML (406, never a 500).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { catalogJson } from './support/documents.js';
import { assertErrorBody } from './support/error-body.js';
import { api } from './support/http.js';
import { cli, createTokenFor, newDataDir, TestServer } from './support/server.js';

const servers: TestServer[] = [];
async function start(args: string[]): Promise<TestServer> {
  const server = await TestServer.start({ args: ['--workers', '0', ...args] });
  servers.push(server);
  return server;
}
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

describe('security headers', () => {
  let server: TestServer;
  before(async () => {
    server = await start([]);
  });

  test('every answer carries them: success, refusal, unknown route, ops endpoint', async () => {
    for (const [path, status] of [
      ['/oscal/v1/catalog', 200],
      ['/oscal/v1/audit', 401],
      ['/no/such/route', 404],
      ['/healthz', 200],
    ] as const) {
      const res = await api(server.url, 'GET', path);
      assert.equal(res.status, status, path);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(res.headers['x-frame-options'], 'DENY', path);
      assert.equal(res.headers['referrer-policy'], 'no-referrer', path);
      assert.equal(res.headers['content-security-policy'], API_POLICY, path);
      assert.equal(res.headers['cross-origin-resource-policy'], 'same-origin', path);
      assert.equal(res.headers['strict-transport-security'], undefined, `${path}: no HSTS over plain HTTP`);
    }
  });

  test('the API documentation page may load its own scripts and styles, and still not be framed', async () => {
    const res = await api(server.url, 'GET', '/docs');
    assert.equal(res.status, 200);
    const policy = String(res.headers['content-security-policy']);
    assert.match(policy, /default-src 'self'/);
    assert.match(policy, /frame-ancestors 'none'/);
  });
});

describe('CORS', () => {
  let off: TestServer;
  let listed: TestServer;
  let any: TestServer;
  before(async () => {
    [off, listed, any] = await Promise.all([
      start([]),
      start(['--cors-origins', 'https://app.example, http://localhost:3000']),
      start(['--cors-origins', '*']),
    ]);
  });

  const preflight = (server: TestServer, origin: string) =>
    api(server.url, 'OPTIONS', '/oscal/v1/catalog', {
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  test('off by default: no CORS headers, and a preflight finds no route', async () => {
    const res = await api(off.url, 'GET', '/oscal/v1/catalog', { headers: { origin: 'https://app.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assertErrorBody(await preflight(off, 'https://app.example'), 404);
  });

  test('a configured origin is allowed, told which headers it may read, and answered per origin (Vary)', async () => {
    const res = await api(listed.url, 'GET', '/oscal/v1/catalog', { headers: { origin: 'https://app.example' } });
    assert.equal(res.headers['access-control-allow-origin'], 'https://app.example');
    assert.match(String(res.headers['access-control-expose-headers']), /Location.*Link.*ETag/);
    assert.match(String(res.headers.vary), /Origin/);
    assert.equal(res.headers['access-control-allow-credentials'], undefined, 'cookies are never sent cross-origin');
    const pre = await preflight(listed, 'http://localhost:3000');
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], 'http://localhost:3000');
    assert.match(String(pre.headers['access-control-allow-methods']), /PUT/);
    assert.match(String(pre.headers['access-control-allow-headers']), /Authorization/);
  });

  test('another origin gets no CORS headers', async () => {
    const res = await api(listed.url, 'GET', '/oscal/v1/catalog', { headers: { origin: 'https://evil.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assertErrorBody(await preflight(listed, 'https://evil.example'), 404);
  });

  test('* allows any origin, without credentials', async () => {
    const res = await api(any.url, 'GET', '/oscal/v1/catalog', { headers: { origin: 'https://whoever.example' } });
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal((await preflight(any, 'https://whoever.example')).status, 204);
  });

  test('an origin with a path is refused at start', () => {
    const r = cli(['serve', '--port', '0', '--data', newDataDir(), '--cors-origins', 'https://app.example/path']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /not an origin/);
  });
});

describe('failed authentication is limited per client address', () => {
  let server: TestServer;
  let admin: string;
  // Through a trusted proxy, so that one test can speak for several client addresses.
  const from = (address: string, token?: string) => ({
    headers: { 'x-forwarded-for': address, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  before(async () => {
    server = await start(['--auth-failure-limit', '3', '--auth-failure-window', '3s', '--trust-proxy', '127.0.0.1']);
    admin = server.adminToken();
  });

  test('past the limit an address gets 429 with Retry-After, even with a good token, until the window ends', async () => {
    const client = '203.0.113.7';
    for (let i = 0; i < 3; i++)
      assertErrorBody(await api(server.url, 'GET', '/oscal/v1/catalog', from(client, 'odt_wrong')), 401);
    const limited = await api(server.url, 'GET', '/oscal/v1/catalog', from(client, 'odt_wrong'));
    assertErrorBody(limited, 429, /too many failed authentication attempts/);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 3, `Retry-After ${limited.headers['retry-after']}`);
    assertErrorBody(await api(server.url, 'GET', '/oscal/v1/audit', from(client, admin)), 429);
    assert.equal(
      (await api(server.url, 'GET', '/oscal/v1/catalog', from(client))).status,
      200,
      'requests without credentials are not held back',
    );
    assert.equal(
      (await api(server.url, 'GET', '/oscal/v1/audit', from('203.0.113.8', admin))).status,
      200,
      'other addresses are not affected',
    );
    await sleep(retryAfter * 1000 + 200);
    assert.equal(
      (await api(server.url, 'GET', '/oscal/v1/audit', from(client, admin))).status,
      200,
      'after the window the address may try again',
    );
  });

  test('the addresses of one IPv6 /64 count together; another /64 does not', async () => {
    for (const address of ['2001:db8:1:1::1', '2001:db8:1:1::2', '2001:db8:1:1:ffff::3'])
      assertErrorBody(await api(server.url, 'GET', '/oscal/v1/catalog', from(address, 'odt_wrong')), 401);
    assertErrorBody(await api(server.url, 'GET', '/oscal/v1/audit', from('2001:db8:1:1::99', admin)), 429);
    assert.equal((await api(server.url, 'GET', '/oscal/v1/audit', from('2001:db8:1:2::1', admin))).status, 200);
  });

  test('successful authentication does not count', async () => {
    for (let i = 0; i < 5; i++)
      assert.equal((await api(server.url, 'GET', '/oscal/v1/audit', from('203.0.113.9', admin))).status, 200);
  });
});

/** The first response on a raw connection that sends `chunks` a piece at a time, and whether the server closed it. */
async function trickle(
  server: TestServer,
  chunks: string[],
  gapMs: number,
): Promise<{ head: string; body: string; ms: number }> {
  const socket = connect(server.port, '127.0.0.1');
  let data = '';
  socket.on('data', (d) => (data += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const started = Date.now();
  for (const chunk of chunks) {
    if (socket.destroyed) break;
    socket.write(chunk);
    await Promise.race([sleep(gapMs), closed]);
  }
  await closed;
  const [head = '', body = ''] = data.split('\r\n\r\n');
  return { head, body, ms: Date.now() - started };
}

describe('request and header timeouts', () => {
  let server: TestServer;
  before(async () => {
    server = await start(['--headers-timeout', '1s', '--request-timeout', '3s']);
  });

  test('headers that trickle past --headers-timeout: 408 with the error object, connection closed', async () => {
    const { head, body, ms } = await trickle(
      server,
      [...'GET /oscal/v1/catalog HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
      100,
    );
    assert.match(head, /^HTTP\/1\.1 408 /);
    assert.deepEqual(JSON.parse(body), {
      'status-code': 408,
      code: 'timeout',
      message: 'the request did not arrive in time: headers and body must be sent without stalling',
    });
    assert.ok(ms >= 1000 && ms < 3500, `refused after ${ms} ms`);
  });

  test('a body that trickles past --request-timeout: 408', async () => {
    const token = server.adminToken();
    const start = `POST /oscal/v1/catalog HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const { head, ms } = await trickle(server, [start, ...'{"catalog":{"uuid":"slow","metadata":{}}}'], 200);
    assert.match(head, /^HTTP\/1\.1 408 /);
    assert.ok(ms >= 3000 && ms < 6000, `refused after ${ms} ms`);
  });
});

describe('body limits per route', () => {
  let server: TestServer;
  let admin: string;
  let id: string;
  before(async () => {
    server = await start(['--max-body', '2MB']);
    admin = server.adminToken();
    const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
      token: admin,
      body: catalogJson(),
      contentType: 'application/json',
    });
    assert.equal(created.status, 201, created.text);
    id = String(created.headers.location).split('/').pop()!;
  });
  const oneMegabyte = `{"visibility":"${'x'.repeat(1024 * 1024)}"}`;

  test('content takes up to --max-body: a 1 MB body is read (and found wanting), 3 MB is 413', async () => {
    assertErrorBody(
      await api(server.url, 'POST', '/oscal/v1/catalog', {
        token: admin,
        body: oneMegabyte,
        contentType: 'application/json',
      }),
      422,
    );
    assertErrorBody(
      await api(server.url, 'POST', '/oscal/v1/catalog', {
        token: admin,
        body: 'x'.repeat(3 * 1024 * 1024),
        contentType: 'application/json',
      }),
      413,
    );
  });

  test('the access settings take 256 KB at most', async () => {
    assertErrorBody(
      await api(server.url, 'PUT', `/oscal/v1/catalog/${id}/access`, {
        token: admin,
        body: oneMegabyte,
        contentType: 'application/json',
      }),
      413,
    );
    assertErrorBody(
      await api(server.url, 'PUT', `/oscal/v1/catalog/${id}/access`, {
        token: admin,
        body: '{"visibility":"secret"}',
        contentType: 'application/json',
      }),
      400,
    );
  });

  test('a DELETE with a body of 1 MB is refused, and deletes nothing', async () => {
    assertErrorBody(
      await api(server.url, 'DELETE', `/oscal/v1/catalog/${id}`, {
        token: admin,
        body: oneMegabyte,
        contentType: 'application/json',
      }),
      413,
    );
    assert.equal((await api(server.url, 'GET', `/oscal/v1/catalog/${id}`, { token: admin })).status, 200);
  });
});

describe('markup with no XML equivalent', () => {
  const TABLE_IN_LIST = '- | a | b |\n  |---|---|\n  | 1 | 2 |';
  const withRemarks = (padding: number) =>
    catalogJson(`,\n      "remarks": ${JSON.stringify(`${TABLE_IN_LIST}\n\n${'p'.repeat(padding)}`)}`);

  test('in a small document: 422 at the write, naming where', async () => {
    const server = await start([]);
    const res = await api(server.url, 'POST', '/oscal/v1/catalog', {
      token: server.adminToken(),
      body: withRemarks(0),
      contentType: 'application/json',
    });
    const body = assertErrorBody(res, 422, /<table> is not allowed inside <li>/);
    assert.equal(body.errors?.[0]?.path, '/catalog/metadata/remarks');
  });

  test('in a large document converted after its write: its XML is 406, its JSON is served', async () => {
    const server = await TestServer.start({ args: ['--inline-renditions', '1KB', '--workers', '1'] });
    servers.push(server);
    const admin = server.adminToken();
    const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
      token: admin,
      body: withRemarks(4096),
      contentType: 'application/json',
    });
    assert.equal(created.status, 201, created.text);
    const path = new URL(String(created.headers.location)).pathname;
    let xml = await api(server.url, 'GET', path, { token: admin, accept: 'application/xml' });
    for (let i = 0; xml.status === 202 && i < 100; i++) {
      await sleep(100);
      xml = await api(server.url, 'GET', path, { token: admin, accept: 'application/xml' });
    }
    assertErrorBody(xml, 406, /cannot be given as XML.*application\/json/);
    assert.equal((await api(server.url, 'GET', path, { token: admin, accept: 'application/json' })).status, 200);
  });
});

describe('options', () => {
  test('a non-numeric --auth-failure-limit is refused at start', () => {
    const r = cli(['serve', '--port', '0', '--data', newDataDir(), '--auth-failure-limit', 'many']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--auth-failure-limit <n>.*'many' is invalid.*whole number/);
  });

  test('a reader token still works on a server with every protection on', async () => {
    const server = await start([
      '--cors-origins',
      'https://app.example',
      '--auth-failure-limit',
      '1',
      '--headers-timeout',
      '5s',
    ]);
    const reader = createTokenFor(server.dataDir, 'rita', 'reader');
    assert.equal((await api(server.url, 'GET', '/oscal/v1/catalog', { token: reader })).status, 200);
  });
});
