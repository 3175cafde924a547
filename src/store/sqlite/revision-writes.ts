/**
 * What writing a revision stores besides its row, for documents.ts and revisions.ts to run inside
 * their own transactions: a revision and everything it brings (blobs, renditions, attachments,
 * aliases, jobs) commit together or not at all, whichever parts of the store they belong to.
 */
import { randomUUID } from 'node:crypto';
import { findingsColumn, validOf } from '../rows.js';
import type { AliasEntry, AliasSource, DocumentFields, RevisionInput } from '../types.js';
import type { SqliteConnection } from './connection.js';
import { writeSearchEntries } from './search.js';

/** Stores a revision's blobs, its row, its ready renditions, its search entries and the jobs for the others. */
export function writeRevision(
  c: SqliteConnection,
  id: string,
  number: number,
  revision: RevisionInput,
  at: string,
): string[] {
  c.putBlob(revision.canonical);
  c.putBlob(revision.original);
  const recordId = c.stmt('INSERT INTO revision_ids DEFAULT VALUES').run().lastInsertRowid;
  c.stmt(
    'INSERT INTO revisions (document_id, number, canonical_hash, original_hash, original_format, author, created_at, fields, record_id, findings, valid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    id,
    number,
    revision.canonical.hash,
    revision.original.hash,
    revision.originalFormat,
    revision.author,
    at,
    JSON.stringify(revision.fields),
    recordId,
    findingsColumn(revision),
    validOf(revision) ? 1 : 0,
  );
  for (const r of revision.renditions) {
    c.putBlob(r.blob);
    c.stmt('INSERT INTO renditions (document_id, revision, format, blob_hash) VALUES (?, ?, ?, ?)').run(
      id,
      number,
      r.format,
      r.blob.hash,
    );
  }
  writeAttachments(c, id, revision, at);
  writeMetadataAliases(c, id, revision.fields);
  if (revision.search) writeSearchEntries(c, id, revision.search);
  return revision.pendingFormats.map((format) => {
    const jobId = randomUUID();
    c.stmt(
      "INSERT INTO jobs (id, document_id, revision, format, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)",
    ).run(jobId, id, number, format, at, at);
    return jobId;
  });
}

/** The aliases of the revision now current: the document's metadata aliases follow it. */
export function writeMetadataAliases(c: SqliteConnection, id: string, fields: DocumentFields): void {
  writeAliases(c, id, 'metadata', fields.aliases ?? []);
}

/** Replaces the document's aliases of one source. */
export function writeAliases(c: SqliteConnection, id: string, source: AliasSource, entries: AliasEntry[]): void {
  c.stmt('DELETE FROM document_aliases WHERE document_id = ? AND source = ?').run(id, source);
  const insert = c.stmt(
    'INSERT OR IGNORE INTO document_aliases (document_id, source, alias, lookup_key) VALUES (?, ?, ?, ?)',
  );
  for (const e of entries) insert.run(id, source, e.alias, e.key);
}

/** The revision's new and replaced files; files of resources it no longer has go, except under a legal hold. */
function writeAttachments(c: SqliteConnection, id: string, revision: RevisionInput, at: string): void {
  const hashes: string[] = [];
  const held = c.stmt('SELECT legal_hold FROM documents WHERE id = ?').get(id) as { legal_hold: number };
  if (revision.resources && held.legal_hold !== 1) {
    const gone = c
      .stmt(
        'SELECT resource_uuid AS r, blob_hash AS h FROM attachments WHERE document_id = ? AND resource_uuid NOT IN (SELECT value FROM json_each(?))',
      )
      .all(id, JSON.stringify(revision.resources)) as { r: string; h: string }[];
    for (const { r, h } of gone) {
      c.stmt('DELETE FROM attachments WHERE document_id = ? AND resource_uuid = ?').run(id, r);
      hashes.push(h);
    }
  }
  for (const a of revision.attachments ?? []) {
    const old = c
      .stmt('SELECT blob_hash AS h FROM attachments WHERE document_id = ? AND resource_uuid = ?')
      .get(id, a.resourceUuid) as { h: string } | undefined;
    if (old) hashes.push(old.h);
    c.putBlob(a.blob);
    c.stmt(
      `INSERT INTO attachments (document_id, resource_uuid, blob_hash, media_type, filename, created_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (document_id, resource_uuid) DO UPDATE SET blob_hash = excluded.blob_hash, media_type = excluded.media_type, filename = excluded.filename, created_at = excluded.created_at`,
    ).run(id, a.resourceUuid, a.blob.hash, a.mediaType, a.filename, at);
  }
  c.dropUnreferenced(hashes);
}
