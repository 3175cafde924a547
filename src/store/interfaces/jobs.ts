import type { Format } from '../../oscal/formats/index.js';
import type { BlobInput, JobRecord, JobStatus } from '../types.js';

/** The queue of renditions to make in the background; jobs are queued by the revision writes. */
export interface JobStore {
  /** The newest job making this rendition, if any. */
  findJob(id: string, revision: number, format: Format): Promise<JobRecord | undefined>;
  claimJob(worker: string): Promise<JobRecord | undefined>;
  finishJob(id: string, result: { rendition: BlobInput } | { error: string }): Promise<void>;
  getJob(id: string): Promise<JobRecord | undefined>;
  countJobs(status: JobStatus): Promise<number>;
  /**
   * Called as a server starts: jobs a stopped process left running go back to the queue, as far
   * as the backend can tell them from jobs that live processes are running.
   */
  requeueRunningJobs(): Promise<void>;
}
