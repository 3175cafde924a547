import { randomUUID } from 'node:crypto';
import type { Identity } from '../auth/identity.js';
import type { ParsedDocument } from '../oscal/formats/index.js';
import { markupToMarkdown } from '../oscal/markup/index.js';
import {
  type SnapshotKind,
  type SnapshotNotes,
  type SnapshotRecord,
  type BlobStore,
  type RevisionStore,
  type SnapshotStore,
} from '../store/types.js';
import { blobOf } from './blobs.js';
import { parseJsonBody } from './json-body.js';
import { readRevision, readStored, retryWhenGone } from './content.js';
import { readContent, type DocumentService } from './documents.js';
import { forbidden, found, notFound, refuse, storeRefusal, unauthenticated } from '../errors.js';
import { canonicalJson } from './renditions.js';

/** The namespace of the snapshot props (D8). */
export const SNAPSHOT_NS = 'http://oscal.io/ns/oscal/1.0.0';
const SNAPSHOT_PROPS = new Set(['snapshot-created', 'snapshot-type', 'snapshot-label', 'snapshot-description']);
/** Resolved snapshots always carry this type; it cannot be removed (2.5). */
export const RESOLVED_TYPE = 'resolved-profile';
const MAX_NOTES = 100;

type Prop = { name: string; value: string; ns?: string; remarks?: string };

/** A snapshot's list entry (D8). */
export function snapshotEntry(s: SnapshotRecord): Record<string, unknown> {
  return {
    'snapshot-id': s.id,
    created: s.createdAt,
    description: s.description ?? null,
    labels: s.labels,
    types: s.types,
    revision: s.revision,
    author: s.author,
    ...(s.warnings ? { warnings: s.warnings } : {}),
  };
}

/** A string OSCAL can carry in a prop value: no edge whitespace, no control characters. */
function noteText(value: unknown, what: string): string {
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > 1000 ||
    value !== value.trim() ||
    /[\u0000-\u001f\u007f]/.test(value)
  ) {
    throw refuse(
      'bad-request',
      `${what} must be a non-empty string of at most 1000 characters, without leading or trailing spaces or control characters`,
    );
  }
  return value;
}

function noteList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || value.length > MAX_NOTES)
    throw refuse('bad-request', `${what} must be an array of at most ${MAX_NOTES} strings`);
  return [...new Set(value.map((v) => noteText(v, `each of ${what}`)))];
}

/**
 * The body of snapshot POST and PUT: `{"snapshot": {"description", "labels", "types"}}`. Fields
 * left out stay as they were; `snapshot-created` and anything else is refused, not ignored.
 */
export function parseNotes(body: Buffer, contentType: string | undefined, current: SnapshotNotes): SnapshotNotes {
  if (body.length === 0) return current;
  const parsed = parseJsonBody(body, contentType, 'snapshot settings are', 'no body');
  const outer = parsed as { snapshot?: unknown } | null;
  if (
    typeof outer !== 'object' ||
    outer === null ||
    Array.isArray(outer) ||
    Object.keys(outer).some((k) => k !== 'snapshot') ||
    typeof outer.snapshot !== 'object' ||
    outer.snapshot === null ||
    Array.isArray(outer.snapshot)
  ) {
    throw refuse(
      'bad-request',
      'the body must be {"snapshot": {"description": "...", "labels": [...], "types": [...]}}',
    );
  }
  const { description, labels, types, ...rest } = outer.snapshot as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.some((k) => k === 'created' || k === 'snapshot-created')) {
    throw refuse(
      'immutable-field',
      'snapshot-created is set by the server when the snapshot is made and can never be changed',
    );
  }
  if (extra.length)
    throw refuse(
      'bad-request',
      `unknown properties: ${extra.join(', ')}; a snapshot takes description, labels and types`,
    );
  const notes: SnapshotNotes = {
    labels: labels === undefined ? current.labels : noteList(labels, 'labels'),
    types: types === undefined ? current.types : noteList(types, 'types'),
  };
  if (description === undefined) {
    if (current.description !== undefined) notes.description = current.description;
  } else if (description !== null) {
    notes.description = noteText(description, 'description');
  }
  return notes;
}

/** The copy's metadata props: earlier snapshot props are replaced by this snapshot's own. */
function withSnapshotProps(doc: ParsedDocument, created: string, notes: SnapshotNotes): ParsedDocument {
  const metadata = (doc.content[doc.model] as { metadata: { props?: Prop[] } }).metadata;
  const kept = (metadata.props ?? []).filter((p) => !(p.ns === SNAPSHOT_NS && SNAPSHOT_PROPS.has(p.name)));
  const own: Prop[] = [{ name: 'snapshot-created', ns: SNAPSHOT_NS, value: created }];
  for (const t of notes.types) own.push({ name: 'snapshot-type', ns: SNAPSHOT_NS, value: t });
  for (const l of notes.labels) own.push({ name: 'snapshot-label', ns: SNAPSHOT_NS, value: l });
  // The description is plain text; remarks are Markdown, so its Markdown characters are escaped.
  if (notes.description !== undefined)
    own.push({
      name: 'snapshot-description',
      ns: SNAPSHOT_NS,
      value: 'na',
      remarks: markupToMarkdown([{ name: 'p', attrs: {}, children: [notes.description] }], true),
    });
  metadata.props = [...kept, ...own];
  return doc;
}

/** Checks the copy as OSCAL, so a snapshot is always a valid document in every format. */
function checkedBlob(doc: ParsedDocument) {
  const checked = readContent(canonicalJson(doc), 'application/json', doc.model).doc;
  return blobOf(canonicalJson(checked));
}

/**
 * Snapshots (generic-interface 4.4, D8): point-in-time copies of a document, or of a profile's
 * resolution, carrying their snapshot props. Readers of the document may read them; writers
 * make and annotate them; deleting one, like deleting a version, is for the owner or an admin.
 */
export class SnapshotService {
  constructor(
    private readonly store: SnapshotStore & RevisionStore & BlobStore,
    private readonly documents: DocumentService,
  ) {}

  async list(identity: Identity, model: string, id: string, kind: SnapshotKind): Promise<SnapshotRecord[]> {
    await this.documents.readable(identity, model, id);
    return this.store.listSnapshots(id, kind);
  }

  async get(
    identity: Identity,
    model: string,
    id: string,
    kind: SnapshotKind,
    snapshotId: string,
  ): Promise<SnapshotRecord> {
    await this.documents.readable(identity, model, id);
    const snapshot = await this.store.getSnapshot(id, kind, snapshotId);
    if (!snapshot) throw notFound('snapshot');
    return snapshot;
  }

  /** The snapshot's document, for renditions other than its stored JSON form. */
  async content(snapshot: SnapshotRecord): Promise<ParsedDocument> {
    return readStored(this.store, snapshot.canonicalHash);
  }

  /** A copy of the current revision (content snapshots). */
  async create(
    identity: Identity,
    model: string,
    id: string,
    body: Buffer,
    contentType: string | undefined,
  ): Promise<SnapshotRecord> {
    const notes = parseNotes(body, contentType, { labels: [], types: [] });
    return retryWhenGone(async () => {
      const { doc } = await this.writable(identity, model, id, 'make snapshots of it');
      return this.save(identity, id, 'content', doc.revision, await readRevision(this.store, id, doc.revision), notes);
    });
  }

  /** Stores a snapshot of a document made elsewhere (a profile's resolution, say). */
  async save(
    identity: Identity,
    id: string,
    kind: SnapshotKind,
    revision: number,
    doc: ParsedDocument,
    notes: SnapshotNotes,
    made: { at?: Date; warnings?: unknown[] } = {},
  ): Promise<SnapshotRecord> {
    const user = identity as Identity & { kind: 'user' };
    const snapshot = {
      id: randomUUID(),
      documentId: id,
      kind,
      revision,
      ...notes,
      author: user.name,
      createdAt: (made.at ?? new Date()).toISOString(),
      ...(made.warnings ? { warnings: made.warnings } : {}),
    };
    const blob = checkedBlob(withSnapshotProps(doc, snapshot.createdAt, notes));
    // The store's not-found here is the document's: it was deleted after it was read.
    await this.guard(
      () =>
        this.store.createSnapshot(snapshot, blob, {
          actor: user.name,
          action: `${kind === 'resolved' ? 'resolved-snapshot' : 'snapshot'}.create`,
          documentId: id,
          detail: { snapshot: snapshot.id },
        }),
      'document',
    );
    return found(await this.store.getSnapshot(id, kind, snapshot.id), 'snapshot');
  }

  /** PUT: description, labels and types; snapshot-created keeps its value. */
  async annotate(
    identity: Identity,
    model: string,
    id: string,
    kind: SnapshotKind,
    snapshotId: string,
    body: Buffer,
    contentType: string | undefined,
  ): Promise<SnapshotRecord> {
    return retryWhenGone(async () => {
      await this.writable(identity, model, id, 'change its snapshots');
      const snapshot = await this.store.getSnapshot(id, kind, snapshotId);
      if (!snapshot) throw notFound('snapshot');
      const notes = parseNotes(body, contentType, snapshot);
      if (kind === 'resolved' && !notes.types.includes(RESOLVED_TYPE)) notes.types = [RESOLVED_TYPE, ...notes.types];
      const blob = checkedBlob(withSnapshotProps(await this.content(snapshot), snapshot.createdAt, notes));
      const user = identity as Identity & { kind: 'user' };
      await this.guard(() =>
        this.store.updateSnapshot(id, kind, snapshotId, notes, blob, {
          actor: user.name,
          action: `${kind === 'resolved' ? 'resolved-snapshot' : 'snapshot'}.update`,
          documentId: id,
          detail: { snapshot: snapshotId },
        }),
      );
      return found(await this.store.getSnapshot(id, kind, snapshotId), 'snapshot');
    });
  }

  async remove(identity: Identity, model: string, id: string, kind: SnapshotKind, snapshotId: string): Promise<void> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    const { rights } = await this.documents.readable(identity, model, id);
    if (!rights.manage) throw forbidden('delete its snapshots (only its owner or an admin may)');
    await this.guard(() =>
      this.store.deleteSnapshot(id, kind, snapshotId, {
        actor: identity.name,
        action: `${kind === 'resolved' ? 'resolved-snapshot' : 'snapshot'}.delete`,
        documentId: id,
        detail: { snapshot: snapshotId },
      }),
    );
  }

  async writable(identity: Identity, model: string, id: string, what: string) {
    if (identity.kind === 'anonymous') throw unauthenticated();
    const readable = await this.documents.readable(identity, model, id);
    if (!readable.rights.write) throw forbidden(what);
    return readable;
  }

  private async guard(write: () => Promise<void>, missing = 'snapshot'): Promise<void> {
    try {
      await write();
    } catch (e) {
      throw storeRefusal(e, { 'legal-hold': (stored) => `${stored}; an admin must lift the hold first` }, missing);
    }
  }
}
