import type { Identity } from '../auth/identity.js';
import { diffDocuments, type DiffOptions, type DiffReport } from '../oscal/diff/index.js';
import { OscalError } from '../oscal/errors.js';
import { detectFormatOfBytes, type ParsedDocument } from '../oscal/formats/index.js';
import type { BlobStore, DocumentStore, RevisionStore, SnapshotStore } from '../store/types.js';
import { readStored, retryWhenGone } from './content.js';
import { readContent, type DocumentService } from './documents.js';
import { notFound, refuse, ServiceError, unauthenticated } from '../errors.js';
import { formatOfContentType, RESPONSE_TYPE } from './media-types.js';

/** A side of a stored document's comparison: a revision by number, or a snapshot (content or resolved) by id. */
export type DiffSide = { revision: number } | { snapshot: string };

/** What was compared on one side: its OSCAL version, the revision, and the snapshot when it was one. */
export interface ComparedSide {
  version: string;
  /** The revision, or the one the snapshot copied (or, resolved, was resolved from). */
  revision: number;
  snapshot?: string;
}

export type StoredDiffReport = Omit<DiffReport, 'from' | 'to'> & { from: ComparedSide; to: ComparedSide };

/** A document sent to be compared; without a Content-Type that names an OSCAL format, its bytes tell the format. */
export interface DiffBody {
  bytes: Buffer;
  contentType?: string | undefined;
}

const SNAPSHOT = /^snapshot:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** `from` or `to` of a comparison: a revision number from 1, or `snapshot:<uuid>`. */
export function parseSide(text: string, name: 'from' | 'to'): DiffSide {
  if (/^[1-9]\d{0,8}$/.test(text)) return { revision: Number(text) };
  const snapshot = SNAPSHOT.exec(text)?.[1];
  if (snapshot) return { snapshot: snapshot.toLowerCase() };
  throw refuse(
    'bad-request',
    `${name} ${JSON.stringify(text.slice(0, 100))} names no revision or snapshot: give a revision number (1, 2, 3, …) or snapshot:<snapshot id>`,
  );
}

/** The engine's refusal of two models, as the catalogued one. */
function diffed(older: ParsedDocument, newer: ParsedDocument, options: DiffOptions): DiffReport {
  try {
    return diffDocuments(older, newer, options);
  } catch (e) {
    if (e instanceof OscalError && e.code === 'wrong-model') throw refuse('wrong-model', e.message);
    throw e;
  }
}

/**
 * Semantic diffs (issue 21): of two revisions or snapshots of a stored document, read as any
 * reader of the document reads them, and of two documents sent to be compared without storing them.
 */
export class DiffService {
  constructor(
    private readonly store: DocumentStore & RevisionStore & BlobStore & SnapshotStore,
    private readonly documents: DocumentService,
  ) {}

  /**
   * `from` and `to` as parseSide reads them; `to` absent is the current revision. One read of the
   * document decides for both sides: a caller who may not read it gets the 404 of a document that
   * does not exist, whatever the sides name.
   */
  async compare(
    identity: Identity,
    model: string,
    id: string,
    from: string | undefined,
    to: string | undefined,
    options: DiffOptions = {},
  ): Promise<StoredDiffReport> {
    return retryWhenGone(async () => {
      const { doc } = await this.documents.readable(identity, model, id);
      if (from === undefined)
        throw refuse('bad-request', 'from is required: a revision number (1, 2, 3, …) or snapshot:<snapshot id>');
      const older = await this.side(id, parseSide(from, 'from'));
      const newer = await this.side(id, to === undefined ? { revision: doc.revision } : parseSide(to, 'to'));
      const report = diffed(older.content, newer.content, options);
      return {
        ...report,
        from: { ...report.from, ...older.compared },
        to: { ...report.to, ...newer.compared },
      };
    });
  }

  /** Two documents in any of the formats, of any releases, neither stored; for callers with credentials, as validation of a body is. */
  async compareBodies(
    identity: Identity,
    older: DiffBody,
    newer: DiffBody,
    options: DiffOptions = {},
  ): Promise<DiffReport> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    return diffed(this.body(older, 'from'), this.body(newer, 'to'), options);
  }

  private async side(
    id: string,
    side: DiffSide,
  ): Promise<{ content: ParsedDocument; compared: Omit<ComparedSide, 'version'> }> {
    if ('revision' in side) {
      const revision = await this.store.getRevision(id, side.revision);
      if (!revision) throw notFound('revision');
      return { content: await readStored(this.store, revision.canonicalHash), compared: side };
    }
    const snapshot =
      (await this.store.getSnapshot(id, 'content', side.snapshot)) ??
      (await this.store.getSnapshot(id, 'resolved', side.snapshot));
    if (!snapshot) throw notFound('snapshot');
    return {
      content: await readStored(this.store, snapshot.canonicalHash),
      compared: { revision: snapshot.revision, snapshot: snapshot.id },
    };
  }

  private body({ bytes, contentType }: DiffBody, name: 'from' | 'to'): ParsedDocument {
    if (bytes.length === 0) throw refuse('missing-file', `the "${name}" document is empty`);
    // A form part's type is what the client guessed from the file name (curl: application/octet-stream).
    const format = formatOfContentType(contentType) ?? detectFormatOfBytes(bytes);
    try {
      return readContent(bytes, RESPONSE_TYPE[format], undefined).doc;
    } catch (e) {
      if (e instanceof ServiceError)
        throw refuse(e.code, `"${name}": ${e.message}`, e.errors ? { errors: e.errors } : undefined);
      throw e;
    }
  }
}
