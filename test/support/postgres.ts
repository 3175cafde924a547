import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** The PostgreSQL server the tests may use: set by .ci/run, or by a developer who has one. */
export const TEST_DATABASE_URL = process.env.OSCAL_DEPOT_TEST_DATABASE_URL;

export const SKIP_MESSAGE =
  'PostgreSQL half SKIPPED: set OSCAL_DEPOT_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<empty db> to run it';

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
