/**
 * Scratch databases for the PostgreSQL store tests: each one fresh and empty, on the server of the
 * URL CI hands over, so tests neither see each other's rows nor what an earlier run left behind.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export class ScratchDatabases {
  private readonly admin: postgres.Sql;
  private readonly names: string[] = [];

  constructor(private readonly serverUrl: string) {
    this.admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  }

  /** Creates an empty database and returns its URL (the given one, another database name). */
  async create(): Promise<string> {
    const name = `oscal_depot_conf_${randomBytes(6).toString('hex')}`;
    await this.admin.unsafe(`CREATE DATABASE ${name}`);
    this.names.push(name);
    const url = new URL(this.serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  /** FORCE, because a test that failed may have left its store's connections open. */
  async dropAll(): Promise<void> {
    try {
      for (const name of this.names.splice(0)) await this.admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await this.admin.end();
    }
  }
}
