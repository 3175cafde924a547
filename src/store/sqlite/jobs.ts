import { jobOf, type Row } from '../rows.js';
import type { JobStore } from '../types.js';
import { now, type SqliteConnection } from './connection.js';

export function sqliteJobs(c: SqliteConnection): JobStore {
  return {
    async findJob(id, revision, format) {
      const row = c
        .stmt(
          'SELECT * FROM jobs WHERE document_id = ? AND revision = ? AND format = ? ORDER BY created_at DESC LIMIT 1',
        )
        .get(id, revision, format) as Row | undefined;
      return row && jobOf(row);
    },

    async claimJob(worker) {
      const row = c
        .stmt(
          `UPDATE jobs SET status = 'running', claimed_by = @worker, updated_at = @at, attempts = attempts + 1
        WHERE id = (SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at, id LIMIT 1) RETURNING *`,
        )
        .get({ worker, at: now() }) as Row | undefined;
      return row && jobOf(row);
    },

    async finishJob(id, result) {
      c.transaction(() => {
        const job = c.stmt('SELECT * FROM jobs WHERE id = ?').get(id) as Row | undefined;
        if (!job) return; // the document was deleted meanwhile
        if ('error' in result) {
          c.stmt("UPDATE jobs SET status = 'failed', error = ?, updated_at = ? WHERE id = ?").run(
            result.error,
            now(),
            id,
          );
          return;
        }
        c.putBlob(result.rendition);
        c.stmt(
          'INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        ).run(job.document_id, job.revision, job.format, result.rendition.hash);
        c.stmt("UPDATE jobs SET status = 'done', updated_at = ? WHERE id = ?").run(now(), id);
      });
    },

    async getJob(id) {
      const row = c.stmt('SELECT * FROM jobs WHERE id = ?').get(id) as Row | undefined;
      return row && jobOf(row);
    },

    async countJobs(status) {
      return (c.stmt('SELECT COUNT(*) AS n FROM jobs WHERE status = ?').get(status) as { n: number }).n;
    },

    /** Jobs here carry no lease (PostgreSQL's do): at a server's start, every job still running is taken as left by a process that stopped. */
    async requeueRunningJobs() {
      c.stmt("UPDATE jobs SET status = 'queued', claimed_by = NULL WHERE status = 'running'").run();
    },
  };
}
