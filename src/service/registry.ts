import { mayCreate } from '../auth/policy.js';
import type { Identity } from '../auth/identity.js';
import type { ParsedDocument } from '../oscal/formats/index.js';
import { applyContentIdentifier, CONTENT_UUID_SCHEME, isContentUuid } from '../oscal/identifiers.js';
import { type DocumentRecord, type DocumentStore, type RevisionRecord, type RevisionStore } from '../store/types.js';
import type { SearchService } from './search.js';
import type { DocumentService, WriteOptions } from './documents.js';
import { readContent } from './documents.js';
import { metadataOf } from './fields.js';
import { forbidden, found, notFound, refuse, ServiceError, storeRefusal, unauthenticated } from '../errors.js';

function authenticated(identity: Identity): asserts identity is Identity & { kind: 'user' } {
  if (identity.kind === 'anonymous') throw unauthenticated();
}

/** The registry's content-uuid: the document-ids entry, else the root uuid (registry-api 4, D2). */
function registryContentUuid(doc: ParsedDocument): string {
  const ids = metadataOf(doc.content, doc.model)['document-ids'];
  const entry = Array.isArray(ids)
    ? (ids as { scheme?: string; identifier?: string }[]).find(
        (d) => d.scheme === CONTENT_UUID_SCHEME || d.scheme === 'http://oscal.io/oscal/identifier/content-uuid',
      )
    : undefined;
  const value = String(entry?.identifier ?? (doc.content[doc.model] as { uuid?: unknown }).uuid ?? '');
  if (!isContentUuid(value))
    throw refuse(
      'invalid-metadata',
      `the document's content-uuid ${JSON.stringify(value)} (its document-ids entry, else its root uuid) is not a version 4 or 5 UUID`,
    );
  return value.toLowerCase();
}

/**
 * The registry variant's use cases (registry-api.md), over the same documents and revisions as
 * the generic interface: a revision is a numbered version.
 */
export class RegistryService {
  constructor(
    private readonly store: DocumentStore & RevisionStore,
    private readonly documents: DocumentService,
    private readonly search: SearchService,
  ) {}

  /** PUT as upsert: 201 when created, 204 when a new version was added. */
  async upsert(
    identity: Identity,
    model: string,
    id: string,
    body: Buffer,
    contentType: string | undefined,
    options: WriteOptions = {},
  ): Promise<'created' | 'updated'> {
    authenticated(identity);
    if (!/^application\/json\b/i.test(contentType ?? ''))
      throw refuse('unsupported-media-type', 'the registry takes OSCAL JSON only: send Content-Type: application/json');
    const { doc } = this.read(body, model);
    const declared = registryContentUuid(doc);
    if (declared !== id)
      throw refuse('conflict', `the document's content-uuid ${declared} differs from the one in the path (${id})`);
    return this.save(identity, doc, body, id, options);
  }

  /** POST /api/upload: model and content-uuid come from the document itself. */
  async upload(
    identity: Identity,
    body: Buffer | undefined,
    options: WriteOptions = {},
  ): Promise<{ action: 'created' | 'updated'; record: DocumentRecord }> {
    authenticated(identity);
    if (!body || body.length === 0)
      throw refuse('missing-file', 'send the OSCAL JSON document as the body, or as the multipart field "file"');
    const { doc } = this.read(body, undefined);
    const id = registryContentUuid(doc);
    const action = await this.save(identity, doc, body, id, options);
    return { action, record: found(await this.store.getDocument(id)) };
  }

  private read(body: Buffer, model: string | undefined): { doc: ParsedDocument } {
    try {
      return readContent(body, 'application/json', model);
    } catch (e) {
      // The registry's 400 is for JSON it cannot read; OSCAL problems stay 422.
      if (e instanceof ServiceError && e.status === 400)
        throw refuse('invalid-json', `the body is not valid JSON: ${e.message}`, { errors: e.errors });
      throw e;
    }
  }

  private async save(
    identity: Identity & { kind: 'user' },
    doc: ParsedDocument,
    body: Buffer,
    id: string,
    options: WriteOptions,
  ): Promise<'created' | 'updated'> {
    const outcome = applyContentIdentifier(metadataOf(doc.content, doc.model), id);
    if (!outcome.ok) throw refuse('conflict', outcome.message);
    const existing = await this.store.getDocument(id);
    if (existing) {
      // Readable first: of a document the caller may not read, not even the model is told (D3).
      const { rights } = await this.documents.readable(identity, existing.model, id);
      if (existing.model !== doc.model)
        throw refuse('conflict', `content-uuid ${id} belongs to a ${existing.model}, not a ${doc.model}`);
      if (!rights.write) throw forbidden('change it: it belongs to another user');
      await this.documents.storeRevision(identity, id, doc, body, 'json', {
        keepFindings: options.keepFindings === true,
      });
      return 'updated';
    }
    if (!mayCreate(identity)) throw refuse('forbidden', 'creating documents needs the writer or admin role');
    await this.documents.storeNew(identity, id, doc, body, 'json', 'public', options);
    return 'created';
  }

  async versions(identity: Identity, model: string, id: string): Promise<RevisionRecord[]> {
    authenticated(identity);
    const { rights } = await this.documents.readable(identity, model, id);
    if (!rights.manage) throw forbidden('list its versions (only its owner or an admin may)');
    return this.store.listRevisions(id);
  }

  /** A version's JSON form, for anyone who may read the document. */
  async version(identity: Identity, model: string, id: string, number: number): Promise<RevisionRecord> {
    await this.documents.readable(identity, model, id);
    const revision = await this.store.getRevision(id, number);
    if (!revision) throw notFound('version');
    return revision;
  }

  async deleteVersion(identity: Identity, model: string, id: string, number: number): Promise<void> {
    authenticated(identity);
    const { rights } = await this.documents.readable(identity, model, id);
    if (!rights.manage) throw forbidden('delete its versions (only its owner or an admin may)');
    try {
      await this.store.deleteRevision(id, number, {
        actor: identity.name,
        action: 'version.delete',
        documentId: id,
        detail: { version: number },
      });
    } catch (e) {
      throw storeRefusal(e, { 'last-version': (stored) => stored, 'legal-hold': (stored) => stored }, 'version');
    }
    // The current version may be the one that went: the index follows the one now current.
    await this.search.indexCurrent(id);
  }
}
