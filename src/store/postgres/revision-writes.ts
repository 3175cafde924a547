/**
 * What writing a revision stores besides the document's row, for documents.ts and revisions.ts to
 * run with their own transaction's handle: a revision and everything it brings (blobs, renditions,
 * attachments, aliases, jobs) commit together or not at all, whichever parts of the store they
 * belong to.
 */
import { randomUUID } from 'node:crypto';
import { findingsColumn, validOf } from '../rows.js';
import type { AliasEntry, AliasSource, DocumentFields, RevisionInput } from '../types.js';
import { dropUnreferenced, lockBlobs, type Sql } from './connection.js';
import { storedEntry, type DocumentScope } from '../search-query.js';
import type { PendingEntries } from './pending-entries.js';
import type { SearchRowsThread } from './search-rows-thread.js';
import { insertSearchRows, scopeColumns, writeSearchEntries } from './search.js';

export async function writeRevision(
  tx: Sql,
  id: string,
  number: number,
  revision: RevisionInput,
  at: string,
  pending: PendingEntries,
  rowsThread: SearchRowsThread,
): Promise<string[]> {
  // Files of resources the revision no longer has go with them, except under a legal hold. The
  // scope is what the search entries carry.
  const [doc] = await tx`SELECT legal_hold, ${scopeColumns(tx, id)} FROM documents WHERE id = ${id}`;
  const kept = revision.resources && !doc!.legal_hold ? revision.resources : undefined;
  // The search entries are written beside the rest: postgres.js sends their statements without
  // waiting for the results of those before them (it pipelines the transaction's connection), so
  // the server takes each as soon as it is done with the last. Revision numbers are never given
  // twice: the first is the document's creation, with no entries yet, whose rows (the costly part
  // of indexing in this process) are made on their own thread while the server writes the blobs.
  const scope = doc as unknown as DocumentScope;
  const search = revision.search;
  const indexing =
    search === undefined
      ? Promise.resolve()
      : number === 1
        ? rowsThread.rows(search.map(storedEntry), scope).then((rows) => insertSearchRows(tx, id, rows, pending))
        : writeSearchEntries(tx, id, search, scope, pending, rowsThread);
  const rest = async () => {
    const replaced = (revision.attachments ?? []).map((a) => a.resourceUuid);
    // The document's row lock keeps its attachment rows as they are read here until they change below.
    const released = (
      await tx`SELECT blob_hash AS h FROM attachments WHERE document_id = ${id} AND (resource_uuid = ANY(${tx.array(replaced)}::text[])
      OR (${kept !== undefined} AND NOT (resource_uuid = ANY(${tx.array(kept ?? [])}::text[]))))`
    ).map((r) => r.h as string);
    await lockBlobs(
      tx,
      [
        revision.canonical,
        revision.original,
        ...revision.renditions.map((r) => r.blob),
        ...(revision.attachments ?? []).map((a) => a.blob),
      ],
      released,
    );
    await tx`INSERT INTO revisions (document_id, number, canonical_hash, original_hash, original_format, author, created_at, fields, findings, valid)
      VALUES (${id}, ${number}, ${revision.canonical.hash}, ${revision.original.hash}, ${revision.originalFormat}, ${revision.author}, ${at}, ${JSON.stringify(revision.fields)}, ${findingsColumn(revision)}, ${validOf(revision)})`;
    for (const r of revision.renditions) {
      await tx`INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (${id}, ${number}, ${r.format}, ${r.blob.hash})`;
    }
    if (kept)
      await tx`DELETE FROM attachments WHERE document_id = ${id} AND NOT (resource_uuid = ANY(${tx.array(kept)}::text[]))`;
    for (const a of revision.attachments ?? []) {
      await tx`INSERT INTO attachments (document_id, resource_uuid, blob_hash, media_type, filename, created_at) VALUES (${id}, ${a.resourceUuid}, ${a.blob.hash}, ${a.mediaType}, ${a.filename}, ${at})
        ON CONFLICT (document_id, resource_uuid) DO UPDATE SET blob_hash = excluded.blob_hash, media_type = excluded.media_type, filename = excluded.filename, created_at = excluded.created_at`;
    }
    await dropUnreferenced(tx, released);
    await writeMetadataAliases(tx, id, revision.fields);
    const jobs: string[] = [];
    for (const format of revision.pendingFormats) {
      const jobId = randomUUID();
      await tx`INSERT INTO jobs (id, document_id, revision, format, status, created_at, updated_at) VALUES (${jobId}, ${id}, ${number}, ${format}, 'queued', ${at}, ${at})`;
      jobs.push(jobId);
    }
    return jobs;
  };
  const [jobs] = await both(rest(), indexing);
  return jobs;
}

/**
 * Both results, once both have settled: a statement sent after the transaction's end would run on
 * its connection outside it. Where one failed, the other's statements after it failed as the
 * transaction was aborted (25P02); sql.begin throws the first failure in place of such an error.
 */
async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}

/** The aliases of the revision now current: the document's metadata aliases follow it. */
export async function writeMetadataAliases(tx: Sql, id: string, fields: DocumentFields): Promise<void> {
  await writeAliases(tx, id, 'metadata', fields.aliases ?? []);
}

/** Replaces the document's aliases of one source. */
export async function writeAliases(tx: Sql, id: string, source: AliasSource, entries: AliasEntry[]): Promise<void> {
  await tx`DELETE FROM document_aliases WHERE document_id = ${id} AND source = ${source}`;
  for (const e of entries) {
    await tx`INSERT INTO document_aliases (document_id, source, alias, lookup_key) VALUES (${id}, ${source}, ${e.alias}, ${e.key}) ON CONFLICT DO NOTHING`;
  }
}
