/**
 * What someone meets first, over real HTTP against real `oscal-depot serve` processes: a port
 * already taken (issue 18), the 401 that tells how to authenticate on this server (sign-in only
 * where it is configured), and the entry points /, /oscal/v1 and /api/v1 instead of 404s.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { assertErrorBody } from './support/error-body.js';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { freePort, newDataDir, TestServer } from './support/server.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

const GENERIC_MODELS = [
  'catalog',
  'profile',
  'component-definition',
  'system-security-plan',
  'assessment-plan',
  'assessment-results',
  'plan-of-action-and-milestones',
  'mapping-collection',
];
/** registry-api 2.1, and the mapping collections this server also holds. */
const REGISTRY_SEGMENTS: Record<string, string> = {
  catalogs: 'catalog',
  profiles: 'profile',
  'component-definitions': 'component-definition',
  'system-security-plans': 'system-security-plan',
  'assessment-plans': 'assessment-plan',
  'assessment-results': 'assessment-results',
  'plans-of-action-and-milestones': 'plan-of-action-and-milestones',
  'mapping-collections': 'mapping-collection',
};

/** Runs `serve` to its end (or kills it after `ms`): exit code, signal and what it wrote. */
function serveUntilExit(
  args: string[],
  ms = 15_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('serve on a port it cannot listen on', () => {
  test('a port in use: exit code 1 and one line on stderr naming the address, instead of running on', async () => {
    const port = await freePort();
    const taken = await listenOn(port);
    try {
      const r = await serveUntilExit([
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--data',
        newDataDir(),
        '--log-level',
        'info',
      ]);
      assert.equal(r.signal, null, `the server exited by itself rather than running on until killed: ${r.stderr}`);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, `oscal-depot: cannot listen on 127.0.0.1:${port}: address already in use\n`);
      assert.doesNotMatch(r.stdout, /EADDRINUSE/, 'no log of the failure beside the line');
    } finally {
      taken.close();
    }
  });

  test('an address this machine does not have: exit code 1 and one line', async () => {
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of a machine.
    const r = await serveUntilExit([
      '--port',
      String(await freePort()),
      '--host',
      '192.0.2.1',
      '--data',
      newDataDir(),
      '--log-level',
      'warn',
    ]);
    assert.equal(r.signal, null, `the server exited by itself: ${r.stderr}`);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^oscal-depot: cannot listen on 192\.0\.2\.1:\d+: [^\n]+\n$/);
  });
});

describe('401 messages in local-token mode', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(async () => {
    await stopWithin(server);
  });

  test('say to send a bearer token, and do not send anyone to a sign-in page this server does not have', async () => {
    const login = await api(server.url, 'GET', '/auth/login');
    assertErrorBody(login, 404);
    const cases = [
      await api(server.url, 'POST', '/oscal/v1/catalog', { body: '{}', contentType: 'application/json' }),
      await api(server.url, 'PUT', '/api/v1/catalogs/8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1', {
        body: '{}',
        contentType: 'application/json',
      }),
      await api(server.url, 'GET', '/oscal/v1/constraint-set'),
      await api(server.url, 'POST', '/api/upload', { body: '{}', contentType: 'application/json' }),
    ];
    for (const res of cases) {
      const body = assertErrorBody(res, 401, /authentication is required/);
      assert.match(body.message, /Authorization: Bearer/);
      assert.doesNotMatch(body.message, /auth\/login|sign in/i);
    }
  });
});

describe('401 messages where web sign-in is configured', () => {
  let server: TestServer;
  before(async () => {
    // The provider is discovered on first need, and a request without credentials never needs it.
    const issuer = `http://127.0.0.1:${await freePort()}`;
    server = await TestServer.start({ args: ['--oidc-issuer', issuer, '--oidc-client-id', 'depot-web'] });
  });
  after(async () => {
    await stopWithin(server);
  });

  test('name both a bearer token and /auth/login', async () => {
    for (const res of [
      await api(server.url, 'POST', '/oscal/v1/catalog', { body: '{}', contentType: 'application/json' }),
      await api(server.url, 'DELETE', '/api/v1/catalogs/8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1'),
    ]) {
      const body = assertErrorBody(res, 401, /authentication is required/);
      assert.match(body.message, /Bearer/);
      assert.match(body.message, /\/auth\/login/);
    }
  });

  test('the home page links to the sign-in', async () => {
    const res = await api(server.url, 'GET', '/');
    assert.equal(res.status, 200);
    assert.ok(res.text.includes(`href="${server.url}/auth/login"`), res.text);
  });
});

describe('entry points', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(async () => {
    await stopWithin(server);
  });

  test('GET /oscal/v1: every model with the URL of its list, and links to the documentation and the OpenAPI description', async () => {
    for (const path of ['/oscal/v1', '/oscal/v1/']) {
      const res = await api(server.url, 'GET', path);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.match(String(res.headers['content-type']), /^application\/json\b/);
      const body = res.json();
      assert.deepEqual(
        body.models,
        GENERIC_MODELS.map((model) => ({ model, list: `${server.url}/oscal/v1/${model}` })),
      );
      assert.equal(body.links.docs, `${server.url}/docs`);
      assert.equal(body.links['openapi'], `${server.url}/openapi.json`);
    }
  });

  test('each list URL of /oscal/v1 answers its list', async () => {
    const body = (await api(server.url, 'GET', '/oscal/v1')).json();
    for (const { model, list } of body.models as { model: string; list: string }[]) {
      const res = await api(server.url, 'GET', new URL(list).pathname);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.json()), [`${model}-list`]);
    }
  });

  test('GET /api/v1: every plural segment with its model and list URL, and the links', async () => {
    const res = await api(server.url, 'GET', '/api/v1');
    assert.equal(res.status, 200, res.text);
    const body = res.json();
    assert.deepEqual(
      body.models,
      Object.entries(REGISTRY_SEGMENTS).map(([segment, model]) => ({
        model,
        segment,
        list: `${server.url}/api/v1/${segment}`,
      })),
    );
    assert.equal(body.links.docs, `${server.url}/docs`);
    assert.equal(body.links['openapi'], `${server.url}/openapi.json`);
    assert.equal(body.links.upload, `${server.url}/api/upload`);
    for (const { list } of body.models as { list: string }[]) {
      const page = await api(server.url, 'GET', new URL(list).pathname);
      assert.equal(page.status, 200, page.text);
      assert.ok(Array.isArray(page.json()));
    }
  });

  test('the index URLs named in the links answer', async () => {
    const body = (await api(server.url, 'GET', '/oscal/v1')).json();
    for (const link of [body.links.docs, body.links['openapi'], body.links.registry]) {
      const res = await api(server.url, 'GET', new URL(link).pathname);
      assert.ok(res.status === 200 || res.status === 302, `${link}: ${res.status}`);
    }
  });

  test('GET /: an HTML page linking to /docs, under a Content-Security-Policy that allows no script', async () => {
    const res = await api(server.url, 'GET', '/');
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8$/);
    assert.match(res.text, /^<!doctype html>/i);
    assert.ok(res.text.includes(`href="${server.url}/docs"`), res.text);
    assert.ok(res.text.includes(`href="${server.url}/oscal/v1"`));
    assert.ok(res.text.includes(`href="${server.url}/api/v1"`));
    assert.doesNotMatch(res.text, /<script|\son\w+=|javascript:/i, 'no script of any kind');
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src|unsafe-inline|unsafe-eval/);
    assert.doesNotMatch(res.text, /auth\/login/, 'no sign-in link where there is no sign-in');
  });

  test('the entry points are in the OpenAPI description; the page is not', async () => {
    const paths = Object.keys((await api(server.url, 'GET', '/openapi.json')).json().paths);
    assert.ok(paths.includes('/oscal/v1/') || paths.includes('/oscal/v1'), paths.join(' '));
    assert.ok(paths.includes('/api/v1/') || paths.includes('/api/v1'), paths.join(' '));
    assert.ok(!paths.includes('/'));
  });
});
