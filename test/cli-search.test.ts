/**
 * `oscal-depot search` against a real server (issue 22): hits printed with the object found and
 * the matched words marked, --json, the token deciding what is found, and a server that is not there.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog } from './support/marked-docs.js';
import { CLI_BIN } from './support/serve-process.js';
import { createTokenFor, TestServer } from './support/server.js';

let server: TestServer;
let alice: string;
const doc = markedCatalog('cli search');

before(async () => {
  server = await TestServer.start();
  alice = createTokenFor(server.dataDir, 'alice', 'writer');
  const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token: alice,
    body: doc.body,
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
});

after(async () => {
  await stopWithin(server);
});

function run(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI_BIN, 'search', '--server', server.url, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('hits with the object and the matched words; the token decides what is found', () => {
  const marker = doc.marker.split('-')[1]!;
  const found = run([marker], { OSCAL_DEPOT_TOKEN: alice });
  assert.equal(found.code, 0, found.stderr);
  assert.ok(found.stdout.startsWith(`${doc.title} (catalog `), found.stdout);
  assert.ok(found.stdout.includes(`[${marker}]`), found.stdout);
  // Private to alice: without her token, nothing.
  const anonymous = run([marker]);
  assert.equal(anonymous.code, 0, anonymous.stderr);
  assert.equal(anonymous.stdout, 'nothing found among public documents (no token: --token or OSCAL_DEPOT_TOKEN)\n');
  // With a token, nothing is nothing.
  const absent = run([`${marker}absent`], { OSCAL_DEPOT_TOKEN: alice });
  assert.equal(absent.stdout, 'nothing found\n');
  const json = run([marker, '--json'], { OSCAL_DEPOT_TOKEN: alice });
  const results = JSON.parse(json.stdout)['search-results'] as { title: string }[];
  assert.equal(results[0]!.title, doc.title);
});

test('refusals and an absent server are errors with exit 1', () => {
  const nothing = run([]);
  assert.equal(nothing.code, 1);
  assert.match(nothing.stderr, /give q, control-id or both/);
  const r = spawnSync(process.execPath, [CLI_BIN, 'search', '--server', 'http://127.0.0.1:9', 'x'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /cannot reach/);
});
