/**
 * A migrated template on the test server, so that a test's database is a copy (CREATE DATABASE
 * ... TEMPLATE) instead of an empty database the store migrates on opening: the copy takes a
 * fraction of the migration's time, and most tests open many stores.
 *
 * The template's name carries a hash of the PostgreSQL migrations, so it is built once per schema
 * and kept on the server between runs, like a build cache; a change to any migration gives a new
 * name. It is built by the store itself (PostgresStore.open migrates it), so every schema the
 * tests use was made by the code under test. Tests that need the migration to happen in front of
 * them (an empty database, processes racing to migrate it) keep using empty databases.
 */
import { createHash } from 'node:crypto';
import postgres from 'postgres';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';

const PREFIX = 'oscal_depot_tmpl_';

/** Templates of other schemas are dropped once this old: another checkout may still be using them. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Taken on the server's maintenance database while a template is looked for or built. */
const BUILD_LOCK = 0x05ca1e;

const schemaHash = createHash('sha256')
  .update(JSON.stringify(MIGRATIONS.map((m) => [m.version, m.postgres])))
  .digest('hex')
  .slice(0, 16);

export const TEMPLATE_NAME = `${PREFIX}${schemaHash}`;

const built = new Map<string, Promise<string>>();

/** The template's name on the server of `serverUrl`, built there first if it is not yet. */
export function migratedTemplate(serverUrl: string): Promise<string> {
  let name = built.get(serverUrl);
  if (!name) {
    name = ensureTemplate(serverUrl);
    built.set(serverUrl, name);
    // A failed build is tried again by the next caller instead of failing every later test.
    name.catch(() => built.delete(serverUrl));
  }
  return name;
}

/** CREATE DATABASE `name` as a copy of the template; a template dropped meanwhile is rebuilt once. */
export async function createFromTemplate(admin: postgres.Sql, serverUrl: string, name: string): Promise<void> {
  try {
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(serverUrl)}`);
  } catch (e) {
    // invalid_catalog_name: another checkout's run found it stale and dropped it.
    if ((e as { code?: string }).code !== '3D000') throw e;
    built.delete(serverUrl);
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(serverUrl)}`);
  }
}

/**
 * Under a session advisory lock, so that two test processes (node --test runs two files at once)
 * do not both build it; it is built under another name and renamed when complete, so a template
 * of the final name is always whole, whichever process crashed where.
 */
async function ensureTemplate(serverUrl: string): Promise<string> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin`SELECT pg_advisory_lock(${BUILD_LOCK})`;
    const [existing] = await admin`SELECT 1 FROM pg_database WHERE datname = ${TEMPLATE_NAME}`;
    if (!existing) await build(admin, serverUrl);
    await dropStale(admin);
    return TEMPLATE_NAME;
  } finally {
    // Closing the session releases the lock, also when the build failed.
    await admin.end();
  }
}

async function build(admin: postgres.Sql, serverUrl: string): Promise<void> {
  const building = `${TEMPLATE_NAME}_building`;
  // A build that crashed left it; the lock says nobody is building it now.
  await admin.unsafe(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${building}`);
  const url = new URL(serverUrl);
  url.pathname = `/${building}`;
  const store = await PostgresStore.open(url.toString(), { max: 1 });
  await store.close();
  await admin.unsafe(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE_NAME}`);
  // No connections: a copy fails while anyone is connected to its template.
  await admin.unsafe(`ALTER DATABASE ${TEMPLATE_NAME} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  await admin.unsafe(`COMMENT ON DATABASE ${TEMPLATE_NAME} IS '${new Date().toISOString()}'`);
}

/** Templates of other schemas, built more than a day ago. */
async function dropStale(admin: postgres.Sql): Promise<void> {
  const rows = await admin<{ datname: string; builtAt: string | null }[]>`
    SELECT datname, shobj_description(oid, 'pg_database') AS "builtAt" FROM pg_database
    WHERE datname LIKE ${`${PREFIX}%`} AND datname <> ${TEMPLATE_NAME} AND datname NOT LIKE ${'%_building'}`;
  for (const { datname, builtAt } of rows) {
    const at = Date.parse(builtAt ?? '');
    if (Number.isNaN(at) || Date.now() - at < STALE_AFTER_MS) continue;
    await admin.unsafe(`ALTER DATABASE ${datname} WITH IS_TEMPLATE false`);
    await admin.unsafe(`DROP DATABASE IF EXISTS ${datname}`);
  }
}
