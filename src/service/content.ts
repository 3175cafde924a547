import type { Identity } from '../auth/identity.js';
import { OscalError } from '../oscal/errors.js';
import { parseOscal, type Format, type ParsedDocument } from '../oscal/formats/index.js';
import type {
  BlobStore,
  DocumentStore,
  JobRecord,
  JobStore,
  RenditionStore,
  RevisionRecord,
  RevisionStore,
} from '../store/types.js';
import { gunzip } from './blobs.js';
import { notFound, refuse } from '../errors.js';
import type { DocumentService } from './documents.js';
import { renditionBlob } from './renditions.js';

export type Rendition = { state: 'ready'; hash: string; size: number } | { state: 'pending'; job: JobRecord };

/**
 * Stored content that was there when its record was read is gone: a delete committed in between,
 * in this process or another. The caller reads the record again, or fails.
 */
export class ContentGone extends Error {}

/**
 * A read of a document's current content starts over at most this many times when deletes keep
 * getting in between; once is the most a single delete can cause.
 */
const READ_ATTEMPTS = 5;

/**
 * Runs `read`, which reads a document's record and then what it names, again from the record
 * when a delete took the content in between (ContentGone): that is 404 once the document is gone,
 * and otherwise reads the revision current now, as a request made a moment later would.
 */
export async function retryWhenGone<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof ContentGone)) throw e;
      if (attempt === READ_ATTEMPTS)
        throw refuse('conflict', 'the document kept changing while it was read; try again');
    }
  }
}

async function storedBytes(store: BlobStore, canonicalHash: string): Promise<Buffer> {
  const gzip = await store.getBlob(canonicalHash);
  if (!gzip) throw new ContentGone(`blob ${canonicalHash} is gone`);
  return gunzip(gzip);
}

async function storedText(store: BlobStore, canonicalHash: string): Promise<string> {
  return (await storedBytes(store, canonicalHash)).toString('utf8');
}

/** A stored JSON form, read back, with the bytes it was stored as. */
async function readStoredWithBytes(
  store: BlobStore,
  canonicalHash: string,
): Promise<{ doc: ParsedDocument; canonical: Buffer }> {
  const canonical = await storedBytes(store, canonicalHash);
  return { doc: parseOscal(canonical.toString('utf8'), 'json'), canonical };
}

/** A stored JSON form, read back. */
export async function readStored(store: BlobStore, canonicalHash: string): Promise<ParsedDocument> {
  return (await readStoredWithBytes(store, canonicalHash)).doc;
}

export async function revisionRecord(
  store: RevisionStore,
  documentId: string,
  revision: number,
): Promise<RevisionRecord> {
  const rev = await store.getRevision(documentId, revision);
  if (!rev) throw new ContentGone(`revision ${revision} of ${documentId} is gone`);
  return rev;
}

export async function readRevision(
  store: RevisionStore & BlobStore,
  documentId: string,
  revision: number,
): Promise<ParsedDocument> {
  return readStored(store, (await revisionRecord(store, documentId, revision)).canonicalHash);
}

/** A revision's content, and its stored JSON form's bytes: for a thread that parses them again. */
export async function readRevisionWithBytes(
  store: RevisionStore & BlobStore,
  documentId: string,
  revision: number,
): Promise<{ doc: ParsedDocument; canonical: Buffer }> {
  return readStoredWithBytes(store, (await revisionRecord(store, documentId, revision)).canonicalHash);
}

/** A revision's stored JSON form as plain JSON: it is typed by the model already, which is all some readers need. */
export async function revisionJson(
  store: RevisionStore & BlobStore,
  documentId: string,
  revision: number,
): Promise<Record<string, unknown>> {
  return JSON.parse(await storedText(store, (await revisionRecord(store, documentId, revision)).canonicalHash));
}

/** Makes a rendition from the stored JSON form: in workers, and on request when no job will. */
export async function renderRevision(
  store: RevisionStore & BlobStore,
  documentId: string,
  revision: number,
  format: Format,
) {
  return renditionBlob(await readRevision(store, documentId, revision), format);
}

/** Renditions found, by document, creation time, revision and format: a made rendition never changes. */
const READY_LIMIT = 10_000;

export class ContentService {
  /**
   * The creation time is in the key because a deleted document's id may be taken again, with
   * revision numbers starting over; a revision number is never reused within one document.
   */
  private readonly ready = new Map<string, { hash: string; size: number }>();

  constructor(
    private readonly store: DocumentStore & RevisionStore & BlobStore & RenditionStore & JobStore,
    private readonly documents: DocumentService,
  ) {}

  /**
   * The current revision in the asked format, or the job that is still making it (D5); ContentGone
   * when a delete takes the revision meanwhile (the caller reads again, retryWhenGone).
   */
  async rendition(identity: Identity, model: string, id: string, format: Format): Promise<Rendition> {
    const { doc } = await this.documents.readable(identity, model, id);
    const key = `${id} ${doc.createdAt} ${doc.revision} ${format}`;
    const known = this.ready.get(key);
    if (known) return { state: 'ready', ...known };
    const ready = await this.store.getRendition(id, doc.revision, format);
    if (ready) {
      if (this.ready.size >= READY_LIMIT) this.ready.delete(this.ready.keys().next().value!);
      this.ready.set(key, ready);
      return { state: 'ready', ...ready };
    }
    const job = await this.store.findJob(id, doc.revision, format);
    if (job && (job.status === 'queued' || job.status === 'running')) return { state: 'pending', job };
    // No worker will make it (a failed job, or a rendition lost): make it now.
    const blob = await renderRevision(this.store, id, doc.revision, format).catch((e: unknown) => {
      // Large documents are converted after their write, so markup with no XML equivalent shows only here.
      if (e instanceof OscalError)
        throw refuse(
          'not-representable',
          `this document cannot be given as ${format.toUpperCase()}: ${e.message}; ask for application/json`,
        );
      throw e;
    });
    await this.store.putRendition(id, doc.revision, format, blob);
    return { state: 'ready', hash: blob.hash, size: blob.size };
  }

  async job(identity: Identity, jobId: string): Promise<{ job: JobRecord; model: string }> {
    const job = await this.store.getJob(jobId);
    if (!job) throw notFound('job');
    const doc = await this.store.getDocument(job.documentId);
    if (!doc) throw notFound('job');
    await this.documents.readable(identity, doc.model, doc.id).catch(() => {
      throw notFound('job');
    });
    return { job, model: doc.model };
  }
}
