/**
 * Windows between two store calls that no table lock can separate: a write and the read of its
 * record back (both touch the same table, and only a lock that stops the write stops a plain
 * read), or a file's record and its bytes (both read the blobs table). Another request, or another
 * process on the same database, may commit a change in that instant; the answer must then be what
 * a request made a moment later would get (404, or the file current now), never a 500. The test
 * plays the change from inside the store, right after the first call returns, so the timing is
 * certain; SQLite serves, as the services do not depend on the store's kind.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { plainBytes } from '../src/service/attachments.js';
import { ServiceError } from '../src/errors.js';
import { createServices } from '../src/service/services.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/types.js';
import { newDataDir } from './support/server.js';
import { SERVICE_ADMIN as admin, SERVICE_SETTINGS } from './support/services.js';

const audit = { actor: 'other', action: 'other' };

function catalog(id = randomUUID()): Buffer {
  const metadata = {
    title: 'Raced',
    'last-modified': '2024-01-01T00:00:00Z',
    version: '1',
    'oscal-version': '1.1.2',
    remarks: randomUUID(),
  };
  return Buffer.from(JSON.stringify({ catalog: { uuid: id, metadata } }));
}

/** A real SQLite file, as a server keeps; each test its own. */
function fileStore(): SqliteStore {
  return new SqliteStore(join(newDataDir(), 'depot.sqlite'));
}

/** The store, with `meanwhile` committed right after the first call of `method` returns. */
function interrupted(store: Store, method: keyof Store, meanwhile: () => Promise<unknown>): Store {
  let done = false;
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (name !== method) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        if (!done) {
          done = true;
          await meanwhile();
        }
        return result;
      };
    },
  });
}

/** The services a server builds, over `store`. */
function services(store: Store) {
  return createServices(store, SERVICE_SETTINGS);
}

async function rejectsNotFound(answer: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(answer, (e: unknown) => {
    assert.ok(e instanceof ServiceError, `a ServiceError, not ${String(e)}`);
    assert.equal(e.status, 404);
    assert.match(e.message, message);
    return true;
  });
}

describe('a change committed between two store calls', () => {
  test('generic POST, the new document deleted before it is read back: 404', async () => {
    const store = fileStore();
    const { documents } = services(
      interrupted(store, 'createDocument', async () => {
        const [doc] = await store.listDocuments({ model: 'catalog', limit: 1, sort: 'title', descending: false });
        await store.deleteDocument(doc!.id, audit);
      }),
    );
    await rejectsNotFound(documents.create(admin, 'catalog', catalog(), 'application/json'), /no such document/);
  });

  test('registry upload of a new version, the document deleted before it is read back: 404', async () => {
    const store = fileStore();
    const id = randomUUID();
    await services(store).registry.upload(admin, catalog(id));
    const { registry } = services(interrupted(store, 'replaceDocument', () => store.deleteDocument(id, audit)));
    await rejectsNotFound(registry.upload(admin, catalog(id)), /no such document/);
  });

  test('snapshot POST, the snapshot deleted before it is read back: 404', async () => {
    const store = fileStore();
    const { record } = await services(store).documents.create(admin, 'catalog', catalog(), 'application/json');
    const { snapshots } = services(
      interrupted(store, 'createSnapshot', async () => {
        const [snapshot] = await store.listSnapshots(record.id, 'content');
        await store.deleteSnapshot(record.id, 'content', snapshot!.id, audit);
      }),
    );
    await rejectsNotFound(
      snapshots.create(admin, 'catalog', record.id, Buffer.alloc(0), undefined),
      /no such snapshot/,
    );
  });

  test('snapshot PUT, the document deleted before the snapshot is read back: 404', async () => {
    const store = fileStore();
    const plain = services(store);
    const { record } = await plain.documents.create(admin, 'catalog', catalog(), 'application/json');
    const snapshot = await plain.snapshots.create(admin, 'catalog', record.id, Buffer.alloc(0), undefined);
    const { snapshots } = services(interrupted(store, 'updateSnapshot', () => store.deleteDocument(record.id, audit)));
    const notes = Buffer.from(JSON.stringify({ snapshot: { labels: ['raced'] } }));
    await rejectsNotFound(
      snapshots.annotate(admin, 'catalog', record.id, 'content', snapshot.id, notes, 'application/json'),
      /no such snapshot/,
    );
  });

  describe("GET of an attachment, between the file's record and its bytes", () => {
    async function attached(store: Store): Promise<{ id: string; resource: string }> {
      const plain = services(store);
      const { record } = await plain.documents.create(admin, 'catalog', catalog(), 'application/json');
      const entry = await plain.attachments.add(admin, 'catalog', record.id, {
        bytes: randomBytes(2000),
        mediaType: 'application/octet-stream',
        filename: 'f.bin',
      });
      return { id: record.id, resource: String(entry.uuid) };
    }

    test('the file replaced: the new file', async () => {
      const store = fileStore();
      const { id, resource } = await attached(store);
      const replacement = randomBytes(3000);
      const { attachments } = services(
        interrupted(store, 'getAttachment', () =>
          services(store).attachments.replace(admin, 'catalog', id, resource, {
            bytes: replacement,
            mediaType: 'application/octet-stream',
          }),
        ),
      );
      assert.deepEqual(plainBytes(await attachments.read(admin, 'catalog', id, resource)), replacement);
    });

    test('the document deleted: 404 naming the document', async () => {
      const store = fileStore();
      const { id, resource } = await attached(store);
      const { attachments } = services(interrupted(store, 'getAttachment', () => store.deleteDocument(id, audit)));
      await rejectsNotFound(attachments.read(admin, 'catalog', id, resource), /no such document/);
    });
  });
});
