import type { Format } from '../oscal/formats/index.js';
import type { AuditRecord, DocumentFields, DocumentRecord, JobRecord, JobStatus, RevisionRecord, Role, TokenRecord } from './types.js';

/** A row as either backend returns it (SQLite: 0/1 for booleans; PostgreSQL: bigint as text). */
export type Row = Record<string, unknown>;

export function documentOf(row: Row): DocumentRecord {
  const doc: DocumentRecord = {
    id: row.id as string,
    model: row.model as string,
    owner: row.owner as string,
    visibility: row.visibility as DocumentRecord['visibility'],
    legalHold: row.legal_hold === 1 || row.legal_hold === true,
    revision: row.revision as number,
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
  const token: TokenRecord = { id: row.id as string, userId: row.user_id as string, userName: row.user_name as string, role: row.role as Role, createdAt: row.created_at as string };
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
  };
}

export function auditOf(row: Row): AuditRecord {
  const entry: AuditRecord = { id: Number(row.id), at: row.at as string, actor: row.actor as string, action: row.action as string };
  if (row.document_id !== null) entry.documentId = row.document_id as string;
  if (row.detail !== null) entry.detail = JSON.parse(row.detail as string);
  return entry;
}

/** The documents table's list-field columns for a revision's fields. */
export function fieldColumns(f: DocumentFields) {
  return {
    title: f.title, title_lower: f.title.toLowerCase(), version: f.version, oscal_version: f.oscalVersion,
    published: f.published ?? null, last_modified: f.lastModified, document_ids: JSON.stringify(f.documentIds),
    markings: JSON.stringify(f.markings), remarks: f.remarks ?? null,
  };
}
