import type { Format } from '../oscal/formats/index.js';
import type {
  AliasRecord,
  AliasSource,
  AttachmentRecord,
  AuditRecord,
  ConstraintSetRecord,
  DocumentFields,
  DocumentRecord,
  JobRecord,
  JobStatus,
  RevisionInput,
  RevisionRecord,
  Role,
  SnapshotKind,
  SnapshotRecord,
  TokenRecord,
} from './types.js';

/** A row as either backend returns it (SQLite: 0/1 for booleans; PostgreSQL: bigint as text). */
export type Row = Record<string, unknown>;

export function documentOf(row: Row): DocumentRecord {
  const doc: DocumentRecord = {
    id: row.id as string,
    model: row.model as string,
    owner: row.owner as string,
    visibility: row.visibility as DocumentRecord['visibility'],
    legalHold: booleanOf(row.legal_hold),
    revision: row.revision as number,
    valid: booleanOf(row.valid),
    title: row.title as string,
    version: row.version as string,
    oscalVersion: row.oscal_version as string,
    lastModified: row.last_modified as string,
    documentIds: JSON.parse(row.document_ids as string),
    markings: JSON.parse(row.markings as string),
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
  if (row.published !== null) doc.published = row.published as string;
  if (row.remarks !== null) doc.remarks = row.remarks as string;
  return doc;
}

export function jobOf(row: Row): JobRecord {
  const job: JobRecord = {
    id: row.id as string,
    documentId: row.document_id as string,
    revision: row.revision as number,
    format: row.format as Format,
    status: row.status as JobStatus,
    attempts: row.attempts as number,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
  if (row.error !== null) job.error = row.error as string;
  return job;
}

export function tokenOf(row: Row): TokenRecord {
  const token: TokenRecord = {
    id: row.id as string,
    userId: row.user_id as string,
    userName: row.user_name as string,
    role: row.role as Role,
    createdAt: row.created_at as string,
  };
  if (row.expires_at !== null) token.expiresAt = row.expires_at as string;
  if (row.revoked_at !== null) token.revokedAt = row.revoked_at as string;
  if (row.last_used_at !== null) token.lastUsedAt = row.last_used_at as string;
  return token;
}

export function revisionOf(row: Row): RevisionRecord {
  return {
    documentId: row.document_id as string,
    number: row.number as number,
    recordId: Number(row.record_id),
    fields: JSON.parse(row.fields as string),
    size: Number(row.size),
    canonicalHash: row.canonical_hash as string,
    originalHash: row.original_hash as string,
    originalFormat: row.original_format as Format,
    author: row.author as string,
    createdAt: row.created_at as string,
    findings: row.findings ? JSON.parse(row.findings as string) : [],
    valid: booleanOf(row.valid),
  };
}

/** SQLite keeps booleans as 0/1, PostgreSQL as true/false. */
function booleanOf(value: unknown): boolean {
  return value === 1 || value === true;
}

/** A constraint set's list entry: everything but its text. */
export function constraintSetEntryOf(row: Row): Omit<ConstraintSetRecord, 'text'> {
  return {
    name: row.name as string,
    hash: row.hash as string,
    size: Number(row.size),
    createdBy: row.created_by as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

export function constraintSetOf(row: Row): ConstraintSetRecord {
  return { ...constraintSetEntryOf(row), text: row.text as string };
}

/** Findings as the revisions table keeps them: JSON text, or NULL for none. */
export function findingsColumn(revision: RevisionInput): string | null {
  return revision.findings?.length ? JSON.stringify(revision.findings) : null;
}

/** Whether a revision is written as valid: unless its input says it is not. */
export const validOf = (revision: RevisionInput): boolean => revision.valid !== false;

export function auditOf(row: Row): AuditRecord {
  const entry: AuditRecord = {
    id: Number(row.id),
    at: row.at as string,
    actor: row.actor as string,
    action: row.action as string,
  };
  if (row.document_id !== null) entry.documentId = row.document_id as string;
  if (row.detail !== null) entry.detail = JSON.parse(row.detail as string);
  return entry;
}

/** The same bytes stored again: a gzip copy replaces a plain one, as content readers need gzip. */
/** A document's aliases, as both backends list them. */
export const ALIASES_OF = (id: string) =>
  `SELECT source, alias, lookup_key FROM document_aliases WHERE document_id = ${id} ORDER BY source, alias, lookup_key`;

export const BLOB_MERGE = `br = COALESCE(blobs.br, excluded.br),
  gzip = CASE WHEN blobs.plain AND NOT excluded.plain THEN excluded.gzip ELSE blobs.gzip END, plain = blobs.plain AND excluded.plain`;

/** Every blob a document refers to, for collection once it is deleted. */
export const DOCUMENT_BLOBS = (
  id: string,
) => `SELECT canonical_hash AS h FROM revisions WHERE document_id = ${id} UNION SELECT original_hash FROM revisions WHERE document_id = ${id}
  UNION SELECT blob_hash FROM renditions WHERE document_id = ${id} UNION SELECT blob_hash FROM attachments WHERE document_id = ${id}
  UNION SELECT canonical_hash FROM snapshots WHERE document_id = ${id}`;

/** The condition that nothing refers to the blob `hash` (an SQL expression). */
export const UNREFERENCED = (
  hash: string,
) => `NOT EXISTS (SELECT 1 FROM revisions WHERE canonical_hash = ${hash} OR original_hash = ${hash})
  AND NOT EXISTS (SELECT 1 FROM renditions WHERE blob_hash = ${hash}) AND NOT EXISTS (SELECT 1 FROM attachments WHERE blob_hash = ${hash})
  AND NOT EXISTS (SELECT 1 FROM snapshots WHERE canonical_hash = ${hash})`;

/** The documents table's list-field columns for a revision's fields. */
export function fieldColumns(f: DocumentFields) {
  return {
    title: f.title,
    title_lower: f.title.toLowerCase(),
    version: f.version,
    oscal_version: f.oscalVersion,
    published: f.published ?? null,
    last_modified: f.lastModified,
    document_ids: JSON.stringify(f.documentIds),
    markings: JSON.stringify(f.markings),
    remarks: f.remarks ?? null,
  };
}

export function aliasOf(row: Row): AliasRecord {
  return { source: row.source as AliasSource, alias: row.alias as string, key: row.lookup_key as string };
}

export function attachmentOf(row: Row): AttachmentRecord {
  return {
    resourceUuid: row.resource_uuid as string,
    hash: row.blob_hash as string,
    size: Number(row.size),
    mediaType: row.media_type as string,
    filename: row.filename as string,
    createdAt: row.created_at as string,
  };
}

export function snapshotOf(row: Row): SnapshotRecord {
  const snapshot: SnapshotRecord = {
    id: row.id as string,
    documentId: row.document_id as string,
    kind: row.kind as SnapshotKind,
    revision: row.revision as number,
    canonicalHash: row.canonical_hash as string,
    labels: JSON.parse(row.labels as string),
    types: JSON.parse(row.types as string),
    author: row.author as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
  if (row.description !== null) snapshot.description = row.description as string;
  if (row.warnings !== null) snapshot.warnings = JSON.parse(row.warnings as string);
  return snapshot;
}

export function snapshotColumns(s: Omit<SnapshotRecord, 'updatedAt'>) {
  return {
    id: s.id,
    document_id: s.documentId,
    kind: s.kind,
    revision: s.revision,
    canonical_hash: s.canonicalHash,
    description: s.description ?? null,
    labels: JSON.stringify(s.labels),
    types: JSON.stringify(s.types),
    warnings: s.warnings ? JSON.stringify(s.warnings) : null,
    author: s.author,
    created_at: s.createdAt,
  };
}
