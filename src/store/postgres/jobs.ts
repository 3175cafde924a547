import type postgres from 'postgres';
import { jobOf } from '../rows.js';
import type { JobStore } from '../types.js';
import { holdDocument, now, putBlob } from './connection.js';

/** A job still "running" this long after its last claim belongs to a process that died. */
const JOB_LEASE_MS = 10 * 60_000;

export function postgresJobs(sql: postgres.Sql): JobStore {
  return {
    async findJob(id, revision, format) {
      const [row] =
        await sql`SELECT * FROM jobs WHERE document_id = ${id} AND revision = ${revision} AND format = ${format} ORDER BY created_at DESC LIMIT 1`;
      return row && jobOf(row);
    },

    async claimJob(worker) {
      const at = now();
      const expired = new Date(Date.now() - JOB_LEASE_MS).toISOString();
      const [row] =
        await sql`UPDATE jobs SET status = 'running', claimed_by = ${worker}, updated_at = ${at}, attempts = attempts + 1
        WHERE id = (SELECT id FROM jobs WHERE status = 'queued' OR (status = 'running' AND updated_at < ${expired})
                    ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING *`;
      return row && jobOf(row);
    },

    async finishJob(id, result) {
      await sql.begin(async (tx) => {
        // Locks are taken document first, then job, then blobs, the order a delete takes them in,
        // so a worker finishing a job and a delete of its document cannot deadlock.
        const [owner] = await tx`SELECT document_id FROM jobs WHERE id = ${id}`;
        if (!owner || !(await holdDocument(tx, owner.document_id as string))) return; // the document was deleted meanwhile
        const [job] = await tx`SELECT * FROM jobs WHERE id = ${id} FOR UPDATE`;
        if (!job) return;
        if ('error' in result) {
          await tx`UPDATE jobs SET status = 'failed', error = ${result.error}, updated_at = ${now()} WHERE id = ${id}`;
          return;
        }
        await putBlob(tx, result.rendition);
        await tx`INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (${job.document_id}, ${job.revision}, ${job.format}, ${result.rendition.hash}) ON CONFLICT DO NOTHING`;
        await tx`UPDATE jobs SET status = 'done', updated_at = ${now()} WHERE id = ${id}`;
      });
    },

    async getJob(id) {
      const [row] = await sql`SELECT * FROM jobs WHERE id = ${id}`;
      return row && jobOf(row);
    },

    async countJobs(status) {
      const [row] = await sql`SELECT COUNT(*) AS n FROM jobs WHERE status = ${status}`;
      return Number(row!.n);
    },

    /**
     * Nothing to do: other servers on the database may be running the jobs marked running, and a
     * dead process's jobs are claimed again once their lease (JOB_LEASE_MS) has run out.
     */
    async requeueRunningJobs() {},
  };
}
