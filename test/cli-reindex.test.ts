/**
 * `oscal-depot reindex` and the index after a restore (issue 22): a backup carries no search
 * index, so restore makes it again; reindex runs beside a server that keeps serving; `serve`
 * indexes in the background the documents an upgrade left without entries.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { markedCatalog } from './support/marked-docs.js';
import { CLI_BIN } from './support/serve-process.js';
import { newDataDir, TestServer } from './support/server.js';

const doc = markedCatalog('reindex');
const word = doc.marker.split('-')[1]!;
let server: TestServer;

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function found(on: TestServer): Promise<number> {
  const res = await api(on.url, 'GET', `/oscal/v1/search?q=${word}`, { token: on.adminToken() });
  assert.equal(res.status, 200, res.text);
  return res.json()['search-results'].length;
}

before(async () => {
  server = await TestServer.start();
  const created = await api(server.url, 'POST', '/oscal/v1/catalog', {
    token: server.adminToken(),
    body: doc.body,
    contentType: 'application/json',
  });
  assert.equal(created.status, 201, created.text);
});

after(async () => {
  await stopWithin(server);
});

test('reindex beside a running server: every document indexed, the server still finds them', async () => {
  const r = cli(['reindex', '--data', server.dataDir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^indexed 1 document for search in the store in /);
  assert.ok((await found(server)) > 0);
});

test('a restored store is indexed again: its documents are found', async () => {
  const file = join(newDataDir(), 'store.backup');
  assert.equal(cli(['backup', '--data', server.dataDir, file]).code, 0);
  const target = newDataDir();
  const restored = cli(['restore', '--data', target, file]);
  assert.equal(restored.code, 0, restored.stderr);
  assert.match(restored.stderr, /indexed 1 document for search/);
  // The admin token came with the backup; the restored server needs no first-start token.
  const second = await TestServer.start({ dataDir: target });
  try {
    const res = await api(second.url, 'GET', `/oscal/v1/search?q=${word}`, { token: server.adminToken() });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.json()['search-results'].length > 0);
  } finally {
    await stopWithin(second);
  }
});

test('serve indexes in the background the documents without entries (as migration 10 leaves a store)', async () => {
  const dataDir = newDataDir();
  const first = await TestServer.start({ dataDir });
  const docs = ['upgradedone', 'upgradedtwo'].map((m) => markedCatalog(m));
  try {
    for (const d of docs) {
      const res = await api(first.url, 'POST', '/oscal/v1/catalog', {
        token: first.adminToken(),
        body: d.body,
        contentType: 'application/json',
      });
      assert.equal(res.status, 201, res.text);
    }
  } finally {
    await stopWithin(first);
  }
  const db = new Database(join(dataDir, 'oscal-depot.sqlite'));
  // Migration 10 emptied the entries and made the FTS5 index anew: an index left holding the
  // deleted rows' words would find rows that are not there.
  db.exec("DELETE FROM search_entries; INSERT INTO search_fts (search_fts) VALUES ('delete-all')");
  db.close();
  // At info, so that the line saying what was indexed is written.
  const second = await TestServer.start({ dataDir, args: ['--log-level', 'info'] });
  try {
    const marker = (d: (typeof docs)[number]) => d.marker.split('-')[1]!;
    const count = async () => {
      let n = 0;
      for (const d of docs) {
        const res = await api(second.url, 'GET', `/oscal/v1/search?q=${marker(d)}`, { token: first.adminToken() });
        assert.equal(res.status, 200, res.text);
        n += res.json()['search-results'].length > 0 ? 1 : 0;
      }
      return n;
    };
    // The server answers before the indexing ends; it ends within moments for two documents.
    let indexed = await count();
    for (let tries = 0; indexed < docs.length && tries < 200; tries++) {
      await sleep(50);
      indexed = await count();
    }
    assert.equal(indexed, docs.length);
    assert.match(second.output, /indexed 2 documents for search/);
  } finally {
    await stopWithin(second);
  }
});
