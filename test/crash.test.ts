/**
 * Crash safety: a real server process under concurrent creates, PUTs, attachment uploads and
 * deletes is killed with SIGKILL at random moments and restarted, and after each restart everything
 * acknowledged must be there, whole and in order (test/support/crash/). `npm test` runs the short form, a few kills per
 * backend; `npm run test:crash` sets OSCAL_DEPOT_CRASH=long for many kills after longer loads.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { describeFigures, runCampaign, type CampaignOptions } from './support/crash/campaign.js';
import { OPERATIONS } from './support/crash/operations.js';
import { freshDatabase, SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';

const LOAD: Omit<CampaignOptions, 'databaseUrl'> =
  process.env.OSCAL_DEPOT_CRASH === 'long'
    ? { kills: 25, clients: 6, loadMs: [500, 4000], minAcks: 10 }
    : { kills: 3, clients: 6, loadMs: [300, 1500], minAcks: 10 };
const KILLS = LOAD.kills;

async function campaign(backend: string, options: CampaignOptions, diagnostic: (line: string) => void): Promise<void> {
  const figures = await runCampaign(options);
  for (const line of describeFigures(backend, figures)) diagnostic(line);
  assert.deepEqual(figures.losses, [], 'acknowledged writes and deletes survive every kill');
  assert.deepEqual(figures.problems, [], 'revision lists, contents and blobs are consistent');
  assert.equal(figures.restarts, KILLS, 'the server came back after every kill');
  for (const { kind } of OPERATIONS)
    assert.ok((figures.requests.acked[kind] ?? 0) > 0, `some ${kind} was acknowledged`);
  assert.ok(figures.uploadsVerified > 0, 'some uploaded file was read back after a restart');
  assert.ok(Object.keys(figures.requests.unknown).length > 0, 'the kills caught requests in flight');
}

describe('crash safety: SQLite', () => {
  test(`kill -9 under concurrent writes, ${KILLS} times: nothing acknowledged is lost`, async (t) => {
    await campaign('SQLite', LOAD, (line) => t.diagnostic(line));
  });
});

describe('crash safety: PostgreSQL', { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE }, () => {
  let database: { url: string; drop: () => Promise<void> };
  before(async () => {
    database = await freshDatabase();
  });
  after(async () => {
    await database?.drop();
  });

  test(`kill -9 under concurrent writes, ${KILLS} times: nothing acknowledged is lost`, async (t) => {
    await campaign('PostgreSQL', { ...LOAD, databaseUrl: database.url }, (line) => t.diagnostic(line));
  });
});
