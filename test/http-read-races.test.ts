/**
 * Reads that take a document's record first and its stored content after, in separate store
 * calls: another process on the same PostgreSQL database may delete the document, or the version
 * just read, in between. The answer is then what the full path would give a moment later (404,
 * or the version current now), never a 500. The test plays the other process, so the timing is
 * certain (support/races.ts).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { assertErrorBody } from './support/error-body.js';
import type { ApiRequest, ApiResponse } from './support/http.js';
import { SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import {
  deleteCurrentVersion,
  deleteDocument,
  holdTable,
  holdWrites,
  serverOnOwnDatabase,
  whileWaiting,
  type Tx,
} from './support/races.js';

type Hold = (tx: Tx) => Promise<unknown>;

describe('PostgreSQL: reads racing another process', { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE }, () => {
  const depot = serverOnOwnDatabase();

  const call = depot.call;
  const race = (hold: Hold, request: () => Promise<ApiResponse>, change: (tx: Tx) => Promise<unknown>) =>
    whileWaiting(depot.databaseUrl, hold, request, change);
  const gone = (id: string) => (tx: Tx) => deleteDocument(tx, id);
  const secondGone = (id: string) => (tx: Tx) => deleteCurrentVersion(tx, id, 2, 1);

  /** Remarks of a random uuid tell versions apart. */
  function body(model: string, remarks: string, extra: Record<string, unknown> = {}): ApiRequest {
    const metadata = {
      title: `Raced ${model}`,
      'last-modified': '2024-01-01T00:00:00Z',
      version: '1',
      'oscal-version': '1.1.2',
      remarks,
    };
    return {
      body: JSON.stringify({ [model]: { uuid: randomUUID(), metadata, ...extra } }),
      contentType: 'application/json',
    };
  }

  async function create(model = 'catalog', extra: Record<string, unknown> = {}): Promise<string> {
    const created = await call('POST', `/oscal/v1/${model}`, body(model, randomUUID(), extra));
    assert.equal(created.status, 201, created.text);
    return created.json()[`${model}-list`][0]['content-uuid'];
  }

  /** A catalog with two versions, and the remarks of the first. */
  async function twoVersions(): Promise<{ id: string; first: string }> {
    const first = randomUUID();
    const created = await call('POST', '/oscal/v1/catalog', body('catalog', first));
    assert.equal(created.status, 201, created.text);
    const id = created.json()['catalog-list'][0]['content-uuid'];
    const replaced = await call('PUT', `/oscal/v1/catalog/${id}`, body('catalog', randomUUID()));
    assert.equal(replaced.status, 204, replaced.text);
    return { id, first };
  }

  function assertFirstVersion(answer: ApiResponse, first: string): void {
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json().catalog.metadata.remarks, first, 'the version current now');
  }

  describe('generic GET of a document', () => {
    /**
     * Where the request waits. Its rendition's record joins the blob, so for a wait between it and
     * the bytes the record must come from the server's memory: a GET answered 304 puts it there
     * without reading the bytes.
     */
    const holds: [string, Hold, (id: string) => Promise<unknown>][] = [
      ['its record and its rendition', holdTable('renditions'), async () => {}],
      [
        'its rendition and the bytes',
        holdTable('blobs'),
        async (id) =>
          assert.equal(
            (await call('GET', `/oscal/v1/catalog/${id}`, { headers: { 'if-none-match': '*' } })).status,
            304,
          ),
      ],
    ];
    // A query string keeps the request off the fast path, which hands anything it cannot answer to the full path.
    for (const [path, query] of [
      ['full path', '?full'],
      ['fast path', ''],
    ] as const) {
      for (const [between, hold, prepare] of holds) {
        test(`${path}: the document deleted between ${between}: 404 with the error object`, async () => {
          const id = await create();
          await prepare(id);
          const answer = await race(hold, () => call('GET', `/oscal/v1/catalog/${id}${query}`), gone(id));
          assert.equal(assertErrorBody(answer, 404).code, 'not-found');
        });

        test(`${path}: its current version deleted between ${between}: the version current now`, async () => {
          const { id, first } = await twoVersions();
          await prepare(id);
          assertFirstVersion(
            await race(hold, () => call('GET', `/oscal/v1/catalog/${id}${query}`), secondGone(id)),
            first,
          );
        });
      }
    }
  });

  describe('registry GET of the latest version', () => {
    test('the document deleted between its record and its version: 404 with the error object', async () => {
      const id = await create();
      const answer = await race(holdTable('revisions'), () => call('GET', `/api/v1/catalogs/${id}`), gone(id));
      assert.equal(assertErrorBody(answer, 404).code, 'not-found');
    });

    test('that version deleted between the record and its read: the version current now', async () => {
      const { id, first } = await twoVersions();
      assertFirstVersion(
        await race(holdTable('revisions'), () => call('GET', `/api/v1/catalogs/${id}`), secondGone(id)),
        first,
      );
    });
  });

  describe('snapshots', () => {
    async function snapshotOf(id: string): Promise<string> {
      const made = await call('POST', `/oscal/v1/catalog/${id}/snapshot`);
      assert.equal(made.status, 201, made.text);
      return made.json()['snapshot-id'];
    }

    test('POST, the document deleted between its record and its version: 404 with the error object', async () => {
      const id = await create();
      const answer = await race(
        holdTable('revisions'),
        () => call('POST', `/oscal/v1/catalog/${id}/snapshot`),
        gone(id),
      );
      assert.equal(assertErrorBody(answer, 404).code, 'not-found');
    });

    test('POST, its current version deleted between the record and its read: a snapshot of the version current now', async () => {
      const { id, first } = await twoVersions();
      const answer = await race(
        holdTable('revisions'),
        () => call('POST', `/oscal/v1/catalog/${id}/snapshot`),
        secondGone(id),
      );
      assert.equal(answer.status, 201, answer.text);
      assert.equal(answer.json().revision, 1);
      const copy = await call('GET', `/oscal/v1/catalog/${id}/snapshot/${answer.json()['snapshot-id']}`);
      assert.equal(copy.json().catalog.metadata.remarks, first);
    });

    test("POST, the document deleted between the read of its version and the snapshot's insert: 404 naming the document", async () => {
      const id = await create();
      const answer = await race(
        holdWrites('documents'),
        () => call('POST', `/oscal/v1/catalog/${id}/snapshot`),
        gone(id),
      );
      assertErrorBody(answer, 404, /no such document/);
    });

    for (const accept of ['application/json', 'application/xml']) {
      test(`GET as ${accept}, the document deleted between the snapshot's record and its bytes: 404 with the error object`, async () => {
        const id = await create();
        const snapshot = await snapshotOf(id);
        const answer = await race(
          holdTable('blobs'),
          () => call('GET', `/oscal/v1/catalog/${id}/snapshot/${snapshot}`, { accept }),
          gone(id),
        );
        assert.equal(assertErrorBody(answer, 404).code, 'not-found');
      });
    }

    test("PUT, the document deleted between the snapshot's record and its bytes: 404 with the error object", async () => {
      const id = await create();
      const snapshot = await snapshotOf(id);
      const notes = { body: JSON.stringify({ snapshot: { labels: ['raced'] } }), contentType: 'application/json' };
      const answer = await race(
        holdTable('blobs'),
        () => call('PUT', `/oscal/v1/catalog/${id}/snapshot/${snapshot}`, notes),
        gone(id),
      );
      assert.equal(assertErrorBody(answer, 404).code, 'not-found');
    });
  });

  describe('profile resolution', () => {
    async function profile(): Promise<string> {
      const catalog = await create();
      return create('profile', { imports: [{ href: `${depot.url}/oscal/v1/catalog/${catalog}`, 'include-all': {} }] });
    }

    test('resolved-catalog, the profile deleted between its record and its version: 404 with the error object', async () => {
      const id = await profile();
      const answer = await race(
        holdTable('revisions'),
        () => call('GET', `/oscal/v1/profile/${id}/resolved-catalog`),
        gone(id),
      );
      assert.equal(assertErrorBody(answer, 404).code, 'not-found');
    });

    test('resolved-snapshot POST, the profile deleted between its record and its version: 404 with the error object', async () => {
      const id = await profile();
      const answer = await race(
        holdTable('revisions'),
        () => call('POST', `/oscal/v1/profile/${id}/resolved-snapshot`),
        gone(id),
      );
      assert.equal(assertErrorBody(answer, 404).code, 'not-found');
    });

    test("resolved-snapshot POST, the profile deleted between its resolution and the snapshot's insert: 404 naming the document", async () => {
      const id = await profile();
      const answer = await race(
        holdWrites('documents'),
        () => call('POST', `/oscal/v1/profile/${id}/resolved-snapshot`),
        gone(id),
      );
      assertErrorBody(answer, 404, /no such document/);
    });
  });

  test('access PUT, the document deleted between the reads of its access and the change: 404 with the error object', async () => {
    const id = await create();
    const change = { body: JSON.stringify({ visibility: 'public' }), contentType: 'application/json' };
    const answer = await race(
      holdTable('grants'),
      () => call('PUT', `/oscal/v1/catalog/${id}/access`, change),
      gone(id),
    );
    assert.equal(assertErrorBody(answer, 404).code, 'not-found');
  });
});
