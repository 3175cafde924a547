/**
 * The PostgreSQL server the tests use: the one OSCAL_DEPOT_TEST_DATABASE_URL names, or else the
 * local one at postgres://postgres@127.0.0.1:5432/postgres when it answers. Tests work in
 * databases of their own (freshDatabase), created there and dropped afterwards. With no server,
 * the PostgreSQL half is skipped, loudly.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** The local server a developer's machine or CI has (user postgres, trust authentication). */
export const LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Whether a PostgreSQL server answers at `url`: one connection with a short timeout, closed
 * before this returns. No server there (refused, unreachable, silent) is `false`; a server that
 * answers but will not let us in is an error, so that a misconfigured one fails the tests
 * instead of skipping them.
 */
async function answers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, idle_timeout: 1, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    return true;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (
      code &&
      [
        'ECONNREFUSED',
        'ECONNRESET',
        'ETIMEDOUT',
        'CONNECT_TIMEOUT',
        'EHOSTUNREACH',
        'ENETUNREACH',
        'EADDRNOTAVAIL',
        'ENOTFOUND',
      ].includes(code)
    )
      return false;
    throw new Error(
      `a PostgreSQL server answers at ${url}, but the tests cannot use it (${(e as Error).message}); ` +
        'set OSCAL_DEPOT_TEST_DATABASE_URL to a server and a user that may create databases',
      { cause: e },
    );
  } finally {
    await sql.end({ timeout: 0 });
  }
}

/**
 * The server's URL, or undefined when the PostgreSQL half is skipped. Decided once per process
 * (node:test runs each test file in a process of its own) when this module is first imported.
 */
export const TEST_DATABASE_URL: string | undefined =
  process.env.OSCAL_DEPOT_TEST_DATABASE_URL || ((await answers(LOCAL_DATABASE_URL)) ? LOCAL_DATABASE_URL : undefined);

export const SKIP_MESSAGE =
  `PostgreSQL half SKIPPED: no PostgreSQL server answers at ${LOCAL_DATABASE_URL}; start one ` +
  '(user postgres, trust authentication), or set OSCAL_DEPOT_TEST_DATABASE_URL=postgres://user@host:port/db to a server where that user may create databases';

if (!TEST_DATABASE_URL) console.warn(`\n*** ${SKIP_MESSAGE} ***\n`);

/** A new, empty database on the test server, and how to drop it. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(TEST_DATABASE_URL!);
  const name = `oscal_depot_t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await sql.end();
    },
  };
}
