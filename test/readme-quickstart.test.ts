/**
 * The README's quick start runs as written: its first shell block, against a server started as
 * `npm start` starts one (here on a free port, with a fresh data directory), from the project's
 * folder with ../shared beside it. Every curl is -f, and the block sets -euo pipefail, so any
 * command that fails fails the test; the answers it prints are checked for what they say.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { TestServer } from './support/server.js';
import { PROJECT_ROOT } from './support/shared.js';

function quickStart(): string {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Quick start\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the quick start has a shell block');
  return block[1]!;
}

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.stop());

test("the README's quick start runs as written and leaves nothing behind in the project", () => {
  const script = quickStart();
  assert.match(script, /^set -euo pipefail$/m);
  const run = spawnSync('bash', ['-c', script], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      OSCAL_DEPOT_DATA: server.dataDir,
      SERVER: server.url,
      PATH: `${join(PROJECT_ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
    },
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: 240_000,
  });
  assert.equal(run.status, 0, `the quick start failed (${run.status}):\n${run.stderr}\n${run.stdout.slice(-3000)}`);
  assert.match(run.stdout, /"interface":"generic OSCAL REST interface"/);
  assert.match(run.stdout, /"types":\["resolved-profile"\]/, 'the LOW baseline resolved against the stored catalog');
  assert.match(run.stdout, /"constraint-sets":\["common-rules"\]/);
  assert.match(run.stdout, /2 valid, 0 invalid/);
  assert.match(run.stdout, /6 files: 2 created, 0 updated, 4 unchanged, 0 skipped, 0 refused/);
  assert.match(run.stdout + run.stderr, /token [0-9a-f-]{36} for alice \(writer/);
  for (const left of [
    'catalog.json',
    'catalog.original.xml',
    'low-resolved.xml',
    'low.yaml',
    'low-resolved.json',
    'ssp.sarif',
    'export',
  ]) {
    assert.equal(existsSync(join(PROJECT_ROOT, left)), false, `${left} is cleaned up`);
  }
});
