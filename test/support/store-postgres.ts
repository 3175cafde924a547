/**
 * Scratch databases for the PostgreSQL store tests: each one fresh, on the server of the URL CI
 * hands over, so tests neither see each other's rows nor what an earlier run left behind. Each is
 * a copy of the migrated template (support/postgres-template.ts): the schema the store would
 * create on opening it, and no row.
 *
 * Making a database is most of a store test's time, and it is the server's disk, not this
 * process, that is busy then: so the databases the suite is known to need are made a few ahead,
 * while earlier tests run. Each is still used by one test only.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { createFromTemplate } from './postgres-template.js';

/** How many databases are made ahead of the tests that will use them. */
const AHEAD = 2;

export class ScratchDatabases {
  private readonly admin: postgres.Sql;
  private readonly names: string[] = [];
  private readonly ahead: Promise<string>[] = [];
  /** Databases the suite's tests are known to ask for and have not yet. */
  private owed = 0;

  constructor(private readonly serverUrl: string) {
    this.admin = postgres(serverUrl, { max: AHEAD + 1, onnotice: () => {} });
  }

  /** Tells that a test of the suite will ask for one database, so that it can be made ahead. */
  expectOne(): void {
    this.owed++;
  }

  /** Starts making the first databases the suite will ask for, while the tests before it run. */
  prepare(): void {
    this.topUp();
  }

  /** A database of the migrated schema and no row, used by nobody else: its URL (the given one, another database name). */
  async create(): Promise<string> {
    const made = this.ahead.shift() ?? this.make();
    this.owed = Math.max(0, this.owed - 1);
    this.topUp();
    return made;
  }

  /** FORCE, because a test that failed may have left its store's connections open. */
  async dropAll(): Promise<void> {
    try {
      await Promise.allSettled(this.ahead.splice(0));
      await Promise.all(
        this.names.splice(0).map((name) => this.admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
      );
    } finally {
      await this.admin.end();
    }
  }

  private topUp(): void {
    while (this.ahead.length < Math.min(AHEAD, this.owed)) {
      const next = this.make();
      // Its failure is the failure of the test that takes it; until then it is not unhandled.
      next.catch(() => {});
      this.ahead.push(next);
    }
  }

  private async make(): Promise<string> {
    const name = `oscal_depot_conf_${randomBytes(6).toString('hex')}`;
    // Listed before it exists, so that dropAll drops it whatever happens to its creation.
    this.names.push(name);
    await createFromTemplate(this.admin, this.serverUrl, name);
    const url = new URL(this.serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }
}
