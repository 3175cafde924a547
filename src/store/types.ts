/**
 * The store's narrow interface: each operation is one transaction, shaped by what the service
 * layer needs, so each backend (SQLite now, PostgreSQL later) implements it natively.
 */
import type { Format } from '../oscal/formats/index.js';

export type Visibility = 'public' | 'private';
export type Role = 'admin' | 'writer' | 'reader';
export type Permission = 'read' | 'write';

/** Bytes kept content-addressed: sha-256 of the uncompressed bytes, stored compressed. */
export interface BlobInput {
  hash: string;
  size: number;
  /** The bytes gzip-compressed, or as they are when `plain` (files that do not compress). */
  gzip: Buffer;
  plain?: boolean;
  /** Brotli copy, kept for renditions that are served to clients accepting br. */
  br?: Buffer;
}

/** The list fields of a document, taken from its current revision. */
export interface DocumentFields {
  title: string;
  version: string;
  oscalVersion: string;
  published?: string;
  lastModified: string;
  documentIds: unknown[];
  markings: string[];
  remarks?: string;
  /** The aliases the metadata gives (canonical and alternate links, document-ids); kept with each revision. */
  aliases?: AliasEntry[];
}

/** A name a document is known by, and the key that finds it (see src/service/aliases.ts). */
export interface AliasEntry {
  alias: string;
  key: string;
}

/** Given: a file name, ?alias=, PUT .../aliases. Metadata: from the current revision's metadata. */
export type AliasSource = 'given' | 'metadata';

export interface AliasRecord extends AliasEntry {
  source: AliasSource;
}

export interface DocumentRecord extends DocumentFields {
  id: string;
  model: string;
  owner: string;
  visibility: Visibility;
  legalHold: boolean;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** A constraint finding kept with the revision it was found on (below the level that refuses a write). */
export interface StoredFinding {
  code: string;
  level: string;
  message: string;
  path: string;
  constraintId?: string;
  metapath?: string;
  line?: number;
  column?: number;
  source?: string;
}

export interface RevisionInput {
  canonical: BlobInput;
  original: BlobInput;
  originalFormat: Format;
  author: string;
  fields: DocumentFields;
  /** Renditions produced within the request; the others become jobs. */
  renditions: { format: Format; blob: BlobInput }[];
  pendingFormats: Format[];
  /** Attachment files this revision adds or replaces. */
  attachments?: AttachmentInput[];
  /**
   * The back-matter resource uuids of this revision: the files of other resources go with it,
   * except under a legal hold, which keeps every file. Absent: every file stays.
   */
  resources?: string[];
  /** What constraint validation found on this content. */
  findings?: StoredFinding[];
}

/** A file behind a back-matter resource (D9). */
export interface AttachmentInput {
  resourceUuid: string;
  blob: BlobInput;
  mediaType: string;
  filename: string;
}

export interface AttachmentRecord {
  resourceUuid: string;
  hash: string;
  size: number;
  mediaType: string;
  filename: string;
  createdAt: string;
}

export type SnapshotKind = 'content' | 'resolved';

/** The editable part of a snapshot (D8). */
export interface SnapshotNotes {
  description?: string;
  labels: string[];
  types: string[];
}

export interface SnapshotRecord extends SnapshotNotes {
  id: string;
  documentId: string;
  kind: SnapshotKind;
  /** The document revision the snapshot copies (content snapshots) or resolved (profiles). */
  revision: number;
  canonicalHash: string;
  /** What the resolution reported (resolved snapshots). */
  warnings?: unknown[];
  author: string;
  createdAt: string;
  updatedAt: string;
}

export interface RevisionRecord {
  documentId: string;
  number: number;
  /** A number unique across all revisions of the store. */
  recordId: number;
  /** The list fields as this revision had them. */
  fields: DocumentFields;
  /** Bytes of the JSON form. */
  size: number;
  canonicalHash: string;
  originalHash: string;
  originalFormat: Format;
  author: string;
  createdAt: string;
  /** What constraint validation found when it was written (none for revisions written before it existed). */
  findings: StoredFinding[];
}

/** An external constraint set registered by name. */
export interface ConstraintSetRecord {
  name: string;
  /** The set's XML. */
  text: string;
  /** sha-256 of the XML's bytes. */
  hash: string;
  size: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface Grant {
  principal: string;
  permission: Permission;
}

export interface AccessRecord {
  owner: string;
  visibility: Visibility;
  legalHold: boolean;
  grants: Grant[];
}

export type SortKey = 'title' | 'last-modified' | 'created';

export interface ListQuery {
  model: string;
  /** Whose view: undefined for admins (everything), else what this principal set may read. */
  readableBy?: { userId?: string; principals: string[] };
  q?: string;
  sort: SortKey;
  descending: boolean;
  limit: number;
  after?: { key: string; id: string };
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobRecord {
  id: string;
  documentId: string;
  revision: number;
  format: Format;
  status: JobStatus;
  /** How many times the job was claimed; more than one means a worker died holding it. */
  attempts: number;
  error?: string;
  createdAt: string;
  updatedAt: string;
}

export interface UserRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface TokenRecord {
  id: string;
  userId: string;
  userName: string;
  role: Role;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
  lastUsedAt?: string;
}

export interface AuditEntry {
  actor: string;
  action: string;
  documentId?: string;
  detail?: Record<string, unknown>;
}

export interface AuditRecord extends AuditEntry {
  id: number;
  at: string;
}

/** Which audit entries to list; every condition given must hold. */
export interface AuditFilter {
  /** Entries older than this one (paging, newest first). */
  before?: number;
  /** ISO 8601 UTC instants, as entries record them: since inclusive, until exclusive. */
  since?: string;
  until?: string;
  actor?: string;
  action?: string;
  documentId?: string;
}

export class StoreConflictError extends Error {
  constructor(readonly reason: 'exists' | 'legal-hold' | 'not-found' | 'last-version' | 'stale', message: string) {
    super(message);
    this.name = 'StoreConflictError';
  }
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  close(): Promise<void>;
  ping(): Promise<boolean>;

  createDocument(doc: { id: string; model: string; owner: string; visibility: Visibility }, revision: RevisionInput, audit: AuditEntry): Promise<{ jobs: string[] }>;
  /**
   * Adds the next revision; numbering is gapless. With `ifRevision`, refuses ('stale') unless
   * that is still the current revision: read-modify-write callers lose no concurrent change.
   */
  replaceDocument(id: string, revision: RevisionInput, audit: AuditEntry, ifRevision?: number): Promise<{ revision: number; jobs: string[] }>;
  getDocument(id: string): Promise<DocumentRecord | undefined>;
  listDocuments(query: ListQuery): Promise<DocumentRecord[]>;
  /** Removes the document and everything hanging off it; refuses under a legal hold. */
  deleteDocument(id: string, audit: AuditEntry): Promise<void>;
  /** Newest first. */
  listRevisions(id: string): Promise<RevisionRecord[]>;
  /** Removes one revision (never the only one); the newest remaining becomes current. */
  deleteRevision(id: string, number: number, audit: AuditEntry): Promise<void>;
  getRevision(id: string, number: number): Promise<RevisionRecord | undefined>;

  getBlob(hash: string): Promise<Buffer | undefined>;
  getBlobEncoded(hash: string, encoding: 'gzip' | 'br'): Promise<Buffer | undefined>;
  getRendition(id: string, revision: number, format: Format): Promise<{ hash: string; size: number } | undefined>;

  getAttachment(id: string, resourceUuid: string): Promise<AttachmentRecord | undefined>;
  /** An attachment's bytes as kept: gzip, or plain when compression gained nothing. */
  getAttachmentBytes(hash: string): Promise<{ data: Buffer; plain: boolean } | undefined>;

  createSnapshot(snapshot: Omit<SnapshotRecord, 'updatedAt' | 'canonicalHash'>, blob: BlobInput, audit: AuditEntry): Promise<void>;
  /** Oldest first. */
  listSnapshots(id: string, kind: SnapshotKind): Promise<SnapshotRecord[]>;
  getSnapshot(id: string, kind: SnapshotKind, snapshotId: string): Promise<SnapshotRecord | undefined>;
  updateSnapshot(id: string, kind: SnapshotKind, snapshotId: string, notes: SnapshotNotes, blob: BlobInput, audit: AuditEntry): Promise<void>;
  /** Refuses under the document's legal hold. */
  deleteSnapshot(id: string, kind: SnapshotKind, snapshotId: string, audit: AuditEntry): Promise<void>;

  getAccess(id: string): Promise<AccessRecord | undefined>;
  setAccess(id: string, access: Partial<Pick<AccessRecord, 'visibility' | 'legalHold' | 'grants'>>, audit: AuditEntry): Promise<void>;
  /** The grants on a document held by any of these principals. */
  grantsFor(id: string, principals: string[]): Promise<Grant[]>;

  /** Does nothing when the document is gone (deleted while the rendition was made). */
  putRendition(id: string, revision: number, format: Format, blob: BlobInput): Promise<void>;
  /** The newest job making this rendition, if any. */
  findJob(id: string, revision: number, format: Format): Promise<JobRecord | undefined>;
  claimJob(worker: string): Promise<JobRecord | undefined>;
  finishJob(id: string, result: { rendition: BlobInput } | { error: string }): Promise<void>;
  getJob(id: string): Promise<JobRecord | undefined>;
  countJobs(status: JobStatus): Promise<number>;
  countDocuments(): Promise<number>;

  ensureUser(name: string): Promise<UserRecord>;
  createToken(token: { id: string; userId: string; hash: string; role: Role; expiresAt?: string }, audit: AuditEntry): Promise<void>;
  /** The live token with this hash (not revoked, not expired); records its use. */
  findToken(hash: string, now: string): Promise<TokenRecord | undefined>;
  listTokens(): Promise<TokenRecord[]>;
  /** False when there is no live token with this id (nothing is audited then). */
  revokeToken(id: string, audit: AuditEntry): Promise<boolean>;
  countTokens(): Promise<number>;

  /** Newest first. */
  listAudit(limit: number, filter?: AuditFilter): Promise<AuditRecord[]>;

  /** Inserts or replaces; a replacement keeps who registered it first and when. */
  /** Replaces the given aliases of a document (its metadata aliases follow its current revision). */
  setAliases(id: string, entries: AliasEntry[], audit: AuditEntry): Promise<void>;
  listAliases(id: string): Promise<AliasRecord[]>;
  /** The documents any of `keys` finds, each with the key that found it. */
  findAliases(keys: string[]): Promise<{ documentId: string; key: string }[]>;

  putConstraintSet(set: Pick<ConstraintSetRecord, 'name' | 'text' | 'hash' | 'size'>, audit: AuditEntry): Promise<{ created: boolean }>;
  getConstraintSet(name: string): Promise<ConstraintSetRecord | undefined>;
  /** By name, without their text. */
  listConstraintSets(): Promise<Omit<ConstraintSetRecord, 'text'>[]>;
  /** False when there is no set of that name (nothing is audited then). */
  deleteConstraintSet(name: string, audit: AuditEntry): Promise<boolean>;
}
