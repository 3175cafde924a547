/**
 * Store conformance: every test of test/store/ runs unchanged against every Store backend, so the
 * service behaves the same whichever database holds its documents. Every expected value is
 * written out by hand from the interfaces' contract (src/store/interfaces/), never read back from
 * a backend.
 *
 * Each test opens a fresh, empty store: counts, the job queue, tokens and the audit log are
 * store-wide, and a test must not see another's rows. A SQLite store is a new file in a
 * directory of this test file's own; a PostgreSQL store is a new database on the test server, a
 * copy of the migrated template (support/postgres-template.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { SKIP_MESSAGE, TEST_DATABASE_URL } from '../support/postgres.js';
import { ScratchDatabases } from '../support/store-postgres.js';

/** What a file's tests get: a fresh store of the backend under test, as is or closed after `body`. */
export interface Backend {
  open: () => Promise<Store>;
  withStore: (body: (store: Store) => Promise<void>) => () => Promise<void>;
}

/** Through the factory the server uses, checking it built the backend under test. */
export async function openThrough(
  config: { dataDir: string; databaseUrl?: string },
  kind: Store['kind'],
): Promise<Store> {
  const store = await openStore(config);
  if (store.kind !== kind) {
    await store.close();
    throw new Error(`openStore gave a ${store.kind} store where a ${kind} one was configured`);
  }
  return store;
}

function suite(
  name: string,
  open: () => Promise<Store>,
  cleanup: () => Promise<void>,
  tests: (backend: Backend) => void,
  expectStore: () => void = () => {},
): void {
  describe(name, () => {
    after(cleanup);

    const withStore = (body: (store: Store) => Promise<void>) => {
      // Registered now, run later: the backend may prepare the store's database meanwhile.
      expectStore();
      return async () => {
        const store = await open();
        try {
          await body(store);
        } finally {
          await store.close();
        }
      };
    };

    tests({ open, withStore });
  });
}

/** Registers `tests` (one concern's) once per backend: SQLite, and PostgreSQL when a server answers. */
export function conformance(concern: string, tests: (backend: Backend) => void): void {
  {
    const dir = mkdtempSync(join(tmpdir(), 'oscal-depot-sqlite-'));
    let opened = 0;
    suite(
      `store conformance, ${concern}: SQLite`,
      () => openThrough({ dataDir: join(dir, `store-${++opened}`) }, 'sqlite'),
      async () => rmSync(dir, { recursive: true, force: true }),
      tests,
    );
  }

  const databaseUrl = TEST_DATABASE_URL;
  if (databaseUrl) {
    const databases = new ScratchDatabases(databaseUrl);
    // A PostgreSQL store keeps nothing in the data directory, but the configuration names one.
    const dataDir = mkdtempSync(join(tmpdir(), 'oscal-depot-pg-'));
    suite(
      `store conformance, ${concern}: PostgreSQL`,
      async () => openThrough({ dataDir, databaseUrl: await databases.create() }, 'postgres'),
      async () => rmSync(dataDir, { recursive: true, force: true }),
      tests,
      () => databases.expectOne(),
    );
    // Made while the SQLite half runs; dropped when the file ends, whichever of its tests ran.
    databases.prepare();
    after(() => databases.dropAll());
  } else {
    // support/postgres.js has said so on the console.
    test(`store conformance, ${concern}: ${SKIP_MESSAGE}`, { skip: true }, () => {});
  }
}
