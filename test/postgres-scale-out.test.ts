import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import postgres from 'postgres';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { api, type ApiResponse } from './support/http.js';
import { freshDatabase, SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { newDataDir, TestServer } from './support/server.js';
import { CONTENT, REV5_A849 } from './support/shared.js';

const SSP = join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json');
const WRITES = 200;

function sspTitled(title: string): string {
  const doc = parseOscal(readFileSync(SSP, 'utf8'), 'json');
  (doc.content['system-security-plan'] as { metadata: { title: string } }).metadata.title = title;
  return serializeOscal(doc, 'json');
}

describe(
  'PostgreSQL: several server processes on one database',
  { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE },
  () => {
    let database: { url: string; drop: () => Promise<void> };
    let servers: TestServer[];
    let store: PostgresStore;
    let token: string;

    before(async () => {
      database = await freshDatabase();
      // Every rendition becomes a job (inline limit 0), so the job queue is shared and contended.
      const args = ['--database-url', database.url, '--inline-renditions', '0', '--max-body', '100MB'];
      const dataDir = newDataDir();
      servers = await Promise.all([
        TestServer.start({ dataDir, args }),
        TestServer.start({ dataDir: newDataDir(), args }),
      ]);
      token = servers
        .map((s) => {
          try {
            return s.adminToken();
          } catch {
            return undefined;
          }
        })
        .find(Boolean)!;
      store = await PostgresStore.open(database.url, { max: 2 });
    });

    after(async () => {
      await Promise.all((servers ?? []).map((s) => s.stop()));
      await store?.close();
      await database?.drop();
    });

    test(`${WRITES} concurrent PUTs to one document over both processes: revisions 1..N, nothing lost, jobs run once`, async () => {
      const created = await api(`${servers[0]!.url}/oscal/v1`, 'POST', '/system-security-plan', {
        token,
        body: sspTitled('write 0'),
        contentType: 'application/json',
      });
      assert.equal(created.status, 201, created.text);
      const id = created.json()['system-security-plan-list'][0]['content-uuid'];
      const results = await Promise.all(
        Array.from({ length: WRITES }, (_, i) =>
          api(`${servers[i % 2]!.url}/oscal/v1`, 'PUT', `/system-security-plan/${id}`, {
            token,
            body: sspTitled(`write ${i + 1}`),
            contentType: 'application/json',
          }),
        ),
      );
      const acknowledged = results.flatMap((r, i) => (r.status === 204 ? [`write ${i + 1}`] : []));
      assert.equal(
        acknowledged.length,
        WRITES,
        `failed writes: ${results
          .filter((r) => r.status !== 204)
          .map((r) => `${r.status} ${r.text}`)
          .slice(0, 3)
          .join('; ')}`,
      );

      const revisions = await store.listRevisions(id);
      assert.deepEqual(
        revisions.map((r) => r.number),
        Array.from({ length: WRITES + 1 }, (_, i) => WRITES + 1 - i),
        'numbered 1..N with no gap or duplicate',
      );
      const titles = await Promise.all(
        revisions.map(
          async (r) =>
            JSON.parse(gunzipSync((await store.getBlob(r.canonicalHash))!).toString('utf8'))['system-security-plan']
              .metadata.title as string,
        ),
      );
      assert.deepEqual(
        new Set(titles),
        new Set(['write 0', ...acknowledged]),
        'every acknowledged write is a revision',
      );

      // Wait for the workers of both processes to drain the shared queue.
      const deadline = Date.now() + 120_000;
      while ((await store.countJobs('queued')) + (await store.countJobs('running')) > 0) {
        assert.ok(Date.now() < deadline, 'the rendition jobs did not finish');
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(await store.countJobs('failed'), 0);
      const jobs = await Promise.all(
        revisions.flatMap((r) => (['xml', 'yaml'] as const).map((f) => store.findJob(id, r.number, f))),
      );
      assert.equal(jobs.length, 2 * (WRITES + 1));
      assert.ok(
        jobs.every((j) => j?.status === 'done' && j.attempts === 1),
        'every rendition job ran exactly once',
      );

      for (const accept of ['application/json', 'application/xml', 'application/yaml']) {
        const [a, b] = await Promise.all(
          servers.map((s) => api(`${s.url}/oscal/v1`, 'GET', `/system-security-plan/${id}`, { token, accept })),
        );
        assert.equal(a!.status, 200);
        assert.ok(a!.body.equals(b!.body), `${accept} differs between the processes`);
        assert.equal(parseOscal(a!.text).content['system-security-plan'] !== undefined, true);
      }
    });

    test('a PUT whose document another process deletes while the PUT waits for its row gets 404', async () => {
      const created = await api(`${servers[0]!.url}/oscal/v1`, 'POST', '/system-security-plan', {
        token,
        body: sspTitled('doomed'),
        contentType: 'application/json',
      });
      assert.equal(created.status, 201, created.text);
      const id = created.json()['system-security-plan-list'][0]['content-uuid'];
      // A worker finishing a rendition of this document would wait for the row held below while
      // the delete waits for its job: a deadlock of the test's making. Let the renditions finish.
      for (const accept of ['application/xml', 'application/yaml']) {
        const deadline = Date.now() + 60_000;
        while (
          (await api(`${servers[0]!.url}/oscal/v1`, 'GET', `/system-security-plan/${id}`, { token, accept })).status !==
          200
        ) {
          assert.ok(Date.now() < deadline, `the ${accept} rendition was never made`);
          await sleep(50);
        }
      }
      // The test plays the other process: it holds the document's row, lets the PUT queue behind
      // it (past its read of the document and its rights), then deletes the document.
      const other = postgres(database.url, { max: 2, onnotice: () => {} });
      let put: Promise<ApiResponse> | undefined;
      try {
        await other.begin(async (tx) => {
          await tx`SELECT 1 FROM documents WHERE id = ${id} FOR UPDATE`;
          put = api(`${servers[1]!.url}/oscal/v1`, 'PUT', `/system-security-plan/${id}`, {
            token,
            body: sspTitled('too late'),
            contentType: 'application/json',
          });
          const deadline = Date.now() + 30_000;
          while (
            (
              await other`SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
            )[0]!.n === 0
          ) {
            assert.ok(Date.now() < deadline, 'the PUT never waited for the row');
            await sleep(20);
          }
          await tx`DELETE FROM documents WHERE id = ${id}`;
        });
      } finally {
        await other.end();
      }
      const answer = await put!;
      assert.equal(answer.status, 404, answer.text);
      assert.equal(answer.json().code, 'not-found');
    });

    test('a 50 MB document round-trips through PostgreSQL byte for byte', async () => {
      const catalog = JSON.parse(readFileSync(join(REV5_A849, 'json', 'NIST_SP-800-53_rev5_catalog.json'), 'utf8'));
      const groups = JSON.stringify(catalog.catalog.groups);
      for (let copy = 1; JSON.stringify(catalog).length < 50e6; copy++) {
        catalog.catalog.groups.push(...JSON.parse(groups.replace(/"id":"([^"]+)"/g, `"id":"$1-c${copy}"`)));
      }
      const body = Buffer.from(JSON.stringify(catalog));
      assert.ok(body.length >= 50e6);
      const created = await api(`${servers[1]!.url}/oscal/v1`, 'POST', '/catalog', {
        token,
        body,
        contentType: 'application/json',
      });
      assert.equal(created.status, 201, created.text.slice(0, 500));
      const id = created.json()['catalog-list'][0]['content-uuid'];
      const [revision] = await store.listRevisions(id);
      assert.ok(
        gunzipSync((await store.getBlob(revision!.originalHash))!).equals(body),
        'the bytes received come back unchanged',
      );
      const [a, b] = await Promise.all(
        servers.map((s) => api(`${s.url}/oscal/v1`, 'GET', `/catalog/${id}`, { token, accept: 'application/json' })),
      );
      assert.equal(a!.status, 200);
      assert.ok(a!.body.equals(b!.body));
      const expected = JSON.parse(body.toString('utf8'));
      expected.catalog.metadata['document-ids'] = [
        { scheme: 'http://oscal.io/oscal/identifier/contentuuid', identifier: id },
      ];
      assert.deepEqual(JSON.parse(a!.text), expected);
    });
  },
);
