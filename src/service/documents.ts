import { grantsMatter, mayCreate, mayHoldLegally, rightsOver, seesEveryDocument, type Rights } from '../auth/policy.js';
import { principalsOf, type Identity } from '../auth/identity.js';
import type { AccessChange } from './access-change.js';
import { OscalError } from '../oscal/errors.js';
import { decodeDocumentBytes, parseOscal, type Format, type ParsedDocument } from '../oscal/formats/index.js';
import { applyContentIdentifier, dropEmptyDocumentIds } from '../oscal/identifiers.js';
import { atLeast, validateDocument, validateText, type ValidationIssue } from '../oscal/validate/index.js';
import type { SearchEntriesOf } from '../oscal/search/extract-thread.js';
import { locateIssues } from '../oscal/validate/locate.js';
import {
  type AccessRecord,
  type AttachmentInput,
  type RevisionInput,
  type DocumentRecord,
  type ListQuery,
  type SortKey,
  type StoredFinding,
  type AccessStore,
  type BlobStore,
  type DocumentStore,
  type RevisionStore,
  type Visibility,
} from '../store/types.js';
import { blobOf } from './blobs.js';
import { readRevision, retryWhenGone } from './content.js';
import {
  forbidden,
  found,
  isErrorCode,
  MAX_ERROR_DETAILS,
  notFound,
  refuse,
  storeRefusal,
  unauthenticated,
  type ErrorDetail,
  type ServiceError,
} from '../errors.js';
import { fieldsOf, metadataOf, resourcesOf } from './fields.js';
import { formatOfContentType } from './media-types.js';
import { canonicalJson, planRenditions } from './renditions.js';

/** Codes of reader errors meaning the bytes are not the declared format at all (400, D3). */
const SYNTAX_ERRORS: ReadonlySet<string> = new Set(['malformed', 'forbidden-construct']);

export interface Settings {
  /** Visibility of documents created through the generic interface (D7). */
  defaultVisibility: Visibility;
  /** Largest JSON form whose other formats are made within the write. */
  inlineRenditionLimit: number;
  publicUrl: string;
}

/**
 * The constraint check of content about to be stored (ValidationService): its findings, kept
 * with the revision, and whether none is at the reject level; with `enforce`, a refusal when one is.
 */
export interface WriteChecks {
  findingsForWrite(
    identity: Identity,
    doc: ParsedDocument,
    schemaWarnings: ValidationIssue[],
    source: { text: string; format: Format },
    base: string,
    enforce: boolean,
  ): Promise<{ findings: StoredFinding[]; valid: boolean }>;
}

/**
 * How a write treats constraint findings at the reject level: refused (422), or, with
 * `keepFindings` (?keep-findings=true), stored with them as a revision marked not valid.
 * Schema errors are refused either way.
 */
export interface WriteOptions {
  keepFindings?: boolean;
}

function detail(issue: { path?: string; message: string; line?: number; column?: number }): ErrorDetail {
  const d: ErrorDetail = { path: issue.path ?? '', message: issue.message };
  if (issue.line !== undefined) d.line = issue.line;
  if (issue.column !== undefined) d.column = issue.column;
  return d;
}

/** The schema's warnings on content readContent checked, so that its write does not run the schema again. */
const schemaWarnings = new WeakMap<ParsedDocument, ValidationIssue[]>();

function warningsOf(doc: ParsedDocument): ValidationIssue[] {
  return schemaWarnings.get(doc) ?? validateDocument(doc).filter((i) => !atLeast(i.level, 'ERROR'));
}

/** Reads and checks a request body as OSCAL content of the expected model (D3 statuses). */
export function readContent(
  body: Buffer,
  contentType: string | undefined,
  model: string | undefined,
): { doc: ParsedDocument; text: string; format: Format } {
  const format = formatOfContentType(contentType);
  if (!format) {
    throw refuse(
      'unsupported-media-type',
      contentType
        ? `Content-Type ${contentType} is not accepted; send application/json, application/xml or application/yaml`
        : 'Content-Type is missing; send application/json, application/xml or application/yaml',
    );
  }
  const text = bodyText(body, format);
  let doc: ParsedDocument;
  try {
    doc = parseOscal(text, format);
  } catch (e) {
    if (!(e instanceof OscalError)) throw e;
    if (SYNTAX_ERRORS.has(e.code) && isErrorCode(e.code)) {
      throw refuse(e.code, `the body is not well-formed ${format.toUpperCase()}: ${e.message}`, {
        errors: [detail(e)],
      });
    }
    throw (
      everyProblemOf(text, format, model) ||
      refuse('invalid-oscal', `the body is not valid OSCAL: ${e.message}`, { errors: [detail(e)] })
    );
  }
  // Rule 6 of generic-interface 2.2: an empty document-ids asks for the server's entry, which applyContentIdentifier then adds.
  dropEmptyDocumentIds((doc.content[doc.model] as { metadata?: unknown } | undefined)?.metadata);
  // The error body carries MAX_ERROR_DETAILS issues; one more tells that there were more.
  const all = validateDocument(doc, {
    maxIssues: MAX_ERROR_DETAILS + 1,
    ...(model === undefined ? {} : { expectedModel: model }),
  });
  const issues: ValidationIssue[] = all.filter((i) => atLeast(i.level, 'ERROR'));
  // Warnings (where NIST's own schemas disagree) do not refuse content; they are stored with the write's findings.
  schemaWarnings.set(
    doc,
    all.filter((i) => !atLeast(i.level, 'ERROR')),
  );
  if (issues.length) {
    locateIssues(text, format, issues.slice(0, MAX_ERROR_DETAILS));
    throw invalidContent(issues, doc, model);
  }
  return { doc, text, format };
}

/** The refusal of content with `issues` (errors, located), the first of which names it. */
function invalidContent(
  issues: ValidationIssue[],
  doc: Pick<ParsedDocument, 'model' | 'version'>,
  model: string | undefined,
): ServiceError {
  const first = issues[0]!;
  const count =
    issues.length > MAX_ERROR_DETAILS
      ? `more than ${MAX_ERROR_DETAILS} problems`
      : `${issues.length} problem${issues.length > 1 ? 's' : ''}`;
  const message =
    first.code === 'unexpected-model'
      ? `this endpoint takes ${model} documents, but the body is a ${doc.model}`
      : `the ${doc.model} is not valid OSCAL ${doc.version}: ${count}, the first: ${first.message}`;
  return refuse(first.code === 'unexpected-model' ? 'wrong-model' : 'invalid-oscal', message, {
    errors: issues.slice(0, MAX_ERROR_DETAILS + 1).map(detail),
  });
}

/**
 * The refusal of a body whose strict read stopped at something the model does not allow (an
 * unknown element or property, a value of the wrong type). It is read again as validation reads
 * it, so that the refusal lists that problem, every other one and what the schema finds, each
 * with its line. The strict read stays the first: valid content is read once and fast. Undefined
 * when the second read stops too (a root that is no model, say), for the first error to answer.
 */
function everyProblemOf(text: string, format: Format, model: string | undefined): ServiceError | undefined {
  const result = validateText(text, {
    format,
    maxIssues: MAX_ERROR_DETAILS + 1,
    ...(model === undefined ? {} : { expectedModel: model }),
  });
  // An empty document-ids is no problem of a write (rule 6 above), though the schema says it is.
  const issues = result.issues.filter(
    (i) => atLeast(i.level, 'ERROR') && !(i.code === 'schema-minItems' && EMPTY_DOCUMENT_IDS.test(i.path)),
  );
  if (result.model === undefined || result.version === undefined || issues.length === 0) return undefined;
  return invalidContent(issues, { model: result.model, version: result.version }, model);
}

const EMPTY_DOCUMENT_IDS = /^\/[^/]+\/metadata\/document-ids$/;

/**
 * A body's text (decodeDocumentBytes): bytes that are not text in their encoding are 400, an
 * encoding that is not read (JSON or YAML in UTF-16, XML in EBCDIC) is 415, naming it.
 */
export function bodyText(body: Buffer, format: Format): string {
  try {
    return decodeDocumentBytes(body, format);
  } catch (e) {
    if (!(e instanceof OscalError)) throw e;
    if (e.code === 'unsupported-encoding')
      throw refuse('unsupported-encoding', `the body cannot be read: ${e.message}`);
    throw refuse('malformed', `the body cannot be read: ${e.message}`);
  }
}

/** Markdown that has no OSCAL markup equivalent shows when the XML form is made: the content is not valid OSCAL. */
function inlineRenditions(...plan: Parameters<typeof planRenditions>): ReturnType<typeof planRenditions> {
  try {
    return planRenditions(...plan);
  } catch (e) {
    if (e instanceof OscalError)
      throw refuse('invalid-oscal', `the ${plan[0].model} is not valid OSCAL: ${e.message}`, { errors: [detail(e)] });
    throw e;
  }
}

export class DocumentService {
  constructor(
    private readonly store: DocumentStore & RevisionStore & BlobStore & AccessStore,
    private readonly settings: Settings,
    private readonly checks: WriteChecks,
    private readonly searchEntries: SearchEntriesOf,
  ) {}

  /** The document (of `model`, when given) and the caller's rights over it; 404 when it is absent or unreadable. */
  async readable(
    identity: Identity,
    model: string | undefined,
    id: string,
  ): Promise<{ doc: DocumentRecord; rights: Rights }> {
    const doc = await this.store.getDocument(id);
    if (!doc || (model !== undefined && doc.model !== model)) throw notFound();
    const rights = await this.rightsOf(identity, doc);
    if (!rights.read) throw notFound();
    return { doc, rights };
  }

  /** What the caller may do with a document already in hand (an item of their list, say). */
  async rightsOf(identity: Identity, doc: DocumentRecord): Promise<Rights> {
    const grants = grantsMatter(identity, doc) ? await this.store.grantsFor(doc.id, principalsOf(identity)) : [];
    return rightsOver(identity, doc, grants);
  }

  /** The document, the caller's rights and the content of its current revision. */
  async readableContent(
    identity: Identity,
    model: string,
    id: string,
  ): Promise<{ doc: DocumentRecord; rights: Rights; content: ParsedDocument }> {
    return retryWhenGone(async () => {
      const { doc, rights } = await this.readable(identity, model, id);
      return { doc, rights, content: await readRevision(this.store, id, doc.revision) };
    });
  }

  private async revisionInput(
    identity: Identity & { kind: 'user' },
    id: string,
    doc: ParsedDocument,
    body: Buffer,
    format: Format,
    enforce: boolean,
  ): Promise<RevisionInput> {
    const canonical = canonicalJson(doc);
    // Extracted while the checks, compression and renditions below run; a write they refuse
    // leaves the promise unawaited, which must then not count as an unhandled rejection.
    const search = this.searchEntries(doc, canonical);
    search.catch(() => {});
    const { findings, valid } = await this.checks.findingsForWrite(
      identity,
      doc,
      warningsOf(doc),
      { text: decodeDocumentBytes(body, format), format },
      `${this.settings.publicUrl}/oscal/v1/${doc.model}/${id}`,
      enforce,
    );
    // Brotli of large documents would cost the request too much; they are served gzip or plain.
    const canonicalBlob = blobOf(canonical, canonical.length <= this.settings.inlineRenditionLimit);
    const revision: RevisionInput = {
      canonical: canonicalBlob,
      original: blobOf(body),
      originalFormat: format,
      author: identity.name,
      fields: fieldsOf(doc.content, doc.model),
      resources: resourcesOf(doc).map((r) => String(r.uuid)),
      findings,
      valid,
      ...inlineRenditions(doc, canonical, canonicalBlob, this.settings.inlineRenditionLimit),
    };
    const entries = await search;
    if (entries) revision.search = entries;
    return revision;
  }

  async create(
    identity: Identity,
    model: string,
    body: Buffer,
    contentType: string | undefined,
    options: WriteOptions = {},
  ): Promise<{ record: DocumentRecord; jobs: string[]; findings: StoredFinding[] }> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    if (!mayCreate(identity)) throw refuse('forbidden', 'creating documents needs the writer or admin role');
    const { doc, format } = readContent(body, contentType, model);
    const outcome = applyContentIdentifier(metadataOf(doc.content, doc.model));
    if (!outcome.ok)
      throw refuse('invalid-identifier', outcome.message, {
        errors: [{ path: `/${model}/metadata/document-ids`, message: outcome.message }],
      });
    return this.storeNew(identity, outcome.id, doc, body, format, this.settings.defaultVisibility, options);
  }

  /** Stores a checked document, its content identifier already in place, as a new document. */
  async storeNew(
    identity: Identity & { kind: 'user' },
    id: string,
    doc: ParsedDocument,
    body: Buffer,
    format: Format,
    visibility: Visibility,
    options: WriteOptions = {},
  ): Promise<{ record: DocumentRecord; jobs: string[]; findings: StoredFinding[] }> {
    try {
      const revision = await this.revisionInput(identity, id, doc, body, format, options.keepFindings !== true);
      const { jobs } = await this.store.createDocument(
        { id, model: doc.model, owner: identity.name, visibility },
        revision,
        { actor: identity.name, action: 'document.create', documentId: id, detail: { model: doc.model, format } },
      );
      return { record: found(await this.store.getDocument(id)), jobs, findings: revision.findings ?? [] };
    } catch (e) {
      throw storeRefusal(e, { exists: `a document with content uuid ${id} already exists; PUT to replace it` });
    }
  }

  /**
   * Stores a checked document as the next revision of an existing one; with `change.ifRevision`
   * only if that revision is still current (the store answers 'stale' otherwise). Constraint
   * findings refuse it unless `change.keepFindings` (the writer asked to, or a change of
   * attachments, which would otherwise be refused for what the content said before); the revision
   * is then marked not valid if they reach the reject level.
   */
  async storeRevision(
    identity: Identity & { kind: 'user' },
    id: string,
    doc: ParsedDocument,
    body: Buffer,
    format: Format,
    change: {
      action?: string;
      detail?: Record<string, unknown>;
      attachments?: AttachmentInput[];
      ifRevision?: number;
      keepFindings?: boolean;
    } = {},
  ): Promise<{ revision: number; jobs: string[] }> {
    const revision = await this.revisionInput(identity, id, doc, body, format, change.keepFindings !== true);
    if (change.attachments) revision.attachments = change.attachments;
    const audit = {
      actor: identity.name,
      action: change.action ?? 'document.replace',
      documentId: id,
      detail: change.detail ?? { format },
    };
    try {
      return await this.store.replaceDocument(id, revision, audit, change.ifRevision);
    } catch (e) {
      // Deleted after the caller's rights were checked (another request, or another process).
      throw storeRefusal(e);
    }
  }

  async replace(
    identity: Identity,
    model: string,
    id: string,
    body: Buffer,
    contentType: string | undefined,
    options: WriteOptions = {},
  ): Promise<{ revision: number; jobs: string[] }> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    const { rights } = await this.readable(identity, model, id);
    if (!rights.write) throw forbidden('change it');
    const { doc, format } = readContent(body, contentType, model);
    const outcome = applyContentIdentifier(metadataOf(doc.content, doc.model), id);
    if (!outcome.ok) {
      const errors = [{ path: `/${model}/metadata/document-ids`, message: outcome.message }];
      throw refuse(outcome.reason === 'mismatch' ? 'conflict' : 'invalid-identifier', outcome.message, { errors });
    }
    return this.storeRevision(identity, id, doc, body, format, { keepFindings: options.keepFindings === true });
  }

  /**
   * What a revision (the current one without `revision`) was written as: the hash of the bytes
   * exactly as received and their format. For the owner and admins only, like the access settings:
   * the bytes may hold what the stored form left out or changed (another content identifier,
   * comments, the layout), which readers of the document were never given.
   */
  async original(
    identity: Identity,
    model: string,
    id: string,
    revision?: number,
  ): Promise<{ hash: string; format: Format }> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    const { doc, rights } = await this.readable(identity, model, id);
    if (!rights.manage) throw forbidden('read the bytes it was sent as (only its owner or an admin may)');
    const record = await this.store.getRevision(id, revision ?? doc.revision);
    if (!record) throw notFound(revision === undefined ? 'document' : 'revision');
    return { hash: record.originalHash, format: record.originalFormat };
  }

  async list(
    identity: Identity,
    model: string,
    options: {
      limit: number;
      q?: string;
      valid?: boolean;
      sort: SortKey;
      descending: boolean;
      after?: { key: string; id: string };
    },
  ): Promise<DocumentRecord[]> {
    const query: ListQuery = { model, ...options };
    if (!seesEveryDocument(identity)) {
      query.readableBy = {
        principals: principalsOf(identity),
        ...(identity.kind === 'user' ? { userId: identity.name } : {}),
      };
    }
    return this.store.listDocuments(query);
  }

  async remove(identity: Identity, model: string, id: string): Promise<void> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    const { rights } = await this.readable(identity, model, id);
    if (!rights.manage) throw forbidden('delete it (only its owner or an admin may)');
    try {
      await this.store.deleteDocument(id, {
        actor: identity.name,
        action: 'document.delete',
        documentId: id,
        detail: { model },
      });
    } catch (e) {
      throw storeRefusal(e, {
        'legal-hold': 'the document is under a legal hold and cannot be deleted; an admin must lift the hold first',
      });
    }
  }

  async access(identity: Identity, model: string, id: string): Promise<AccessRecord> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    const { rights } = await this.readable(identity, model, id);
    if (!rights.manage) throw forbidden('see or change who may access it (only its owner or an admin may)');
    return this.accessRecord(id);
  }

  async setAccess(identity: Identity, model: string, id: string, change: AccessChange): Promise<AccessRecord> {
    await this.access(identity, model, id);
    if (change.legalHold !== undefined && !mayHoldLegally(identity)) {
      throw refuse('forbidden', 'only an admin may set or lift a legal hold');
    }
    try {
      await this.store.setAccess(id, change, {
        actor: (identity as { name: string }).name,
        action: 'access.change',
        documentId: id,
        detail: change as Record<string, unknown>,
      });
    } catch (e) {
      throw storeRefusal(e);
    }
    return this.accessRecord(id);
  }

  private async accessRecord(id: string): Promise<AccessRecord> {
    return found(await this.store.getAccess(id));
  }
}
