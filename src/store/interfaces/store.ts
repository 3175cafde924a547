import type { AccessStore } from './access.js';
import type { AliasStore } from './aliases.js';
import type { AttachmentStore } from './attachments.js';
import type { AuditStore } from './audit.js';
import type { BlobStore } from './blobs.js';
import type { ConstraintSetStore } from './constraint-sets.js';
import type { DocumentStore } from './documents.js';
import type { JobStore } from './jobs.js';
import type { RenditionStore } from './renditions.js';
import type { RevisionStore } from './revisions.js';
import type { SearchStore } from './search.js';
import type { SnapshotStore } from './snapshots.js';
import type { TokenStore } from './tokens.js';

/** The store as a whole: which backend, and its connection's life. */
export interface StoreLifecycle {
  readonly kind: 'sqlite' | 'postgres';
  close(): Promise<void>;
  ping(): Promise<boolean>;
}

/** Every operation of the store, each part's; what a backend's parts together implement. */
export interface StoreOperations
  extends
    DocumentStore,
    RevisionStore,
    RenditionStore,
    AliasStore,
    BlobStore,
    AttachmentStore,
    SnapshotStore,
    AccessStore,
    JobStore,
    TokenStore,
    AuditStore,
    ConstraintSetStore,
    SearchStore {}

/**
 * The store's narrow interface: each operation is one transaction, shaped by what the service
 * layer needs, so each backend (SQLite, PostgreSQL) implements it natively. Callers that need
 * only some of it take only those parts (src/service/*.ts).
 */
export interface Store extends StoreLifecycle, StoreOperations {}
