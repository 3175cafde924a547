/**
 * The store's record types, shared by both backends, the services and the HTTP layer. The store's
 * operations are declared by concern in interfaces/ (documents, revisions, blobs, ...), and
 * re-exported here with `Store`, their union, so that every store type has one place to come from.
 */
import type { Format } from '../oscal/formats/index.js';
import type { SearchEntry } from '../oscal/search/extract.js';

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
  /** Whether the current revision passed the constraint check at the reject level it was written under. */
  valid: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A constraint finding kept with the revision it was found on (below the reject level, unless kept with ?keep-findings). */
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
  /**
   * False when the findings reach the reject level in force at the write (a draft kept with its
   * findings, ?keep-findings=true); absent: valid.
   */
  valid?: boolean;
  /**
   * The search entries of this revision's content: they replace the document's, in the write's
   * transaction. Absent: the document's entries stay as they are (a caller that does not extract
   * leaves the index to `reindex`); an empty list empties them.
   */
  search?: SearchEntry[];
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
  /** False when those findings reached the reject level in force when it was written. */
  valid: boolean;
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
  /** Only documents whose current revision is (true) or is not (false) valid. */
  valid?: boolean;
  sort: SortKey;
  descending: boolean;
  limit: number;
  after?: { key: string; id: string };
}

/**
 * Where a page of search hits ended: the next page has lower ranks, or the same rank and higher
 * ids; after a hit beyond the ranked matches (rank null), lower ids.
 */
export interface SearchCursor {
  rank: number | null;
  id: number;
}

export interface SearchQuery {
  /**
   * Words (all must match), "phrases", prefixes (crypt*) and ids (ac-2.1 and AC-2(1) alike);
   * anything else typed separates words (src/store/search-query.ts). May hold no word when
   * `controlId` is given.
   */
  text: string;
  model?: string;
  /** Only entries about this control, in any spelling of its id (ac-2.1, AC-2(1), ac-02.01). */
  controlId?: string;
  /** Whose view, as in ListQuery: undefined for admins (everything). */
  readableBy?: ListQuery['readableBy'];
  limit: number;
  after?: SearchCursor;
}

/** An object of a document's current revision that a search found. */
export interface SearchHit {
  /** The entry's id, for the cursor of the next page ({ rank, id } of the last hit). */
  id: number;
  documentId: string;
  model: string;
  /** JSON pointer of the object in the document's JSON form. */
  path: string;
  kind: string;
  key?: string;
  title?: string;
  /**
   * A plain-text excerpt of the object's text (or title, or key: where the words matched), each
   * matched word run between \u0002 and \u0003 (no stored text holds them): escape it, then mark.
   */
  snippet: string;
  /**
   * Higher is better; comparable only within one query's hits. Null beyond the newest matches a
   * query ranks (RANKED_MATCHES in search-query.ts): those follow, newest first.
   */
  rank: number | null;
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

export type { AccessStore } from './interfaces/access.js';
export type { AliasStore } from './interfaces/aliases.js';
export type { AttachmentStore } from './interfaces/attachments.js';
export type { AuditStore } from './interfaces/audit.js';
export type { BlobStore } from './interfaces/blobs.js';
export type { ConstraintSetStore } from './interfaces/constraint-sets.js';
export type { DocumentStore } from './interfaces/documents.js';
export type { JobStore } from './interfaces/jobs.js';
export type { RenditionStore } from './interfaces/renditions.js';
export type { RevisionStore } from './interfaces/revisions.js';
export type { SearchStore } from './interfaces/search.js';
export type { SnapshotStore } from './interfaces/snapshots.js';
export type { Store, StoreLifecycle, StoreOperations } from './interfaces/store.js';
export type { TokenStore } from './interfaces/tokens.js';
