import type { Identity } from '../auth/identity.js';
import { checkConstraints, severity, type Level, type ProfileResolver } from '../oscal/constraints/index.js';
import { decodeDocumentBytes, type Format, type ParsedDocument } from '../oscal/formats/index.js';
import type { ImportLoader } from '../oscal/resolve/index.js';
import {
  atLeast,
  constraintIssues,
  validateFully,
  validateParsed,
  type ValidationIssue,
  type ValidationResult,
} from '../oscal/validate/index.js';
import { locateIssues } from '../oscal/validate/locate.js';
import type { BlobStore, RevisionStore, StoredFinding } from '../store/types.js';
import { gunzip } from './blobs.js';
import type { ConstraintSetService } from './constraint-sets.js';
import { readRevision, retryWhenGone, revisionRecord } from './content.js';
import { bodyText, type DocumentService } from './documents.js';
import { MAX_ERROR_DETAILS, refuse, ServiceError, unauthenticated, type ErrorDetail } from '../errors.js';
import { formatOfContentType } from './media-types.js';

export interface ValidationSettings {
  /** Findings at this level or above refuse a write (--reject-level). */
  rejectLevel: Level;
  publicUrl: string;
}

/** An issue as an error detail of D3's body, with the constraint that found it and how serious it is. */
export function issueDetail(issue: ValidationIssue): ErrorDetail {
  return {
    path: issue.path,
    message: issue.message,
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.column !== undefined ? { column: issue.column } : {}),
    ...(issue.constraintId !== undefined ? { 'constraint-id': issue.constraintId } : {}),
    ...(issue.level !== undefined ? { level: issue.level } : {}),
  };
}

/** How a writer keeps content whose only problems are constraint findings: said in every such refusal. */
export const KEEP_FINDINGS_HINT =
  'to store it anyway as a draft with its findings, send the request again with ?keep-findings=true';

/**
 * The 422 of schema-valid content refused only for its findings at the reject level: the same
 * catalogued refusal as any invalid-oscal, which ?keep-findings=true would have stored. The web
 * upload page offers to store it anyway, naming how many findings it would keep.
 */
export class KeepableRefusal extends ServiceError {
  constructor(
    readonly findingsAtRejectLevel: number,
    message: string,
    errors: ErrorDetail[],
  ) {
    super('invalid-oscal', message, { errors });
  }
}

function storedFinding(issue: ValidationIssue): StoredFinding {
  return {
    code: issue.code,
    level: issue.level ?? 'ERROR',
    message: issue.message,
    path: issue.path,
    ...(issue.constraintId !== undefined ? { constraintId: issue.constraintId } : {}),
    ...(issue.metapath !== undefined ? { metapath: issue.metapath } : {}),
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.column !== undefined ? { column: issue.column } : {}),
    ...(issue.source !== undefined ? { source: issue.source } : {}),
  };
}

/**
 * Constraint validation on the server: every write of content is checked against its release's
 * constraints (findings at the reject level refuse it, unless the writer asked to keep them, which
 * stores it marked not valid; the others are kept with the revision),
 * and any content, stored or sent, can be checked against registered constraint sets too.
 * Documents that constraints reach (doc(), resolve-profile()) load as profile imports do.
 */
export class ValidationService {
  constructor(
    private readonly store: RevisionStore & BlobStore,
    private readonly documents: DocumentService,
    private readonly constraintSets: ConstraintSetService,
    private readonly loaders: (identity: Identity) => ImportLoader,
    private readonly resolvers: (identity: Identity) => ProfileResolver,
    private readonly settings: ValidationSettings,
  ) {}

  /** What doc() and resolve-profile() reach, as `identity` may read it. */
  private reach(identity: Identity): { loader: ImportLoader; resolveProfile: ProfileResolver } {
    return { loader: this.loaders(identity), resolveProfile: this.resolvers(identity) };
  }

  /**
   * The schema's warnings and the model constraints' findings on content about to be stored as `base`, located in `text`,
   * and whether none reaches the reject level; with `enforce`, one that does refuses the write (422).
   */
  async findingsForWrite(
    identity: Identity,
    doc: ParsedDocument,
    schemaWarnings: ValidationIssue[],
    source: { text: string; format: Format },
    base: string,
    enforce: boolean,
  ): Promise<{ findings: StoredFinding[]; valid: boolean }> {
    const issues = [
      ...schemaWarnings.map((w) => ({ ...w })),
      ...constraintIssues(await checkConstraints(doc, { ...this.reach(identity), base })),
    ];
    locateIssues(source.text, source.format, issues);
    const refused = issues
      .filter((i) => atLeast(i.level, this.settings.rejectLevel))
      .sort((a, b) => severity(b.level ?? 'ERROR') - severity(a.level ?? 'ERROR'));
    if (enforce && refused.length > 0) throw this.refusal(doc, refused);
    return { findings: issues.map(storedFinding), valid: refused.length === 0 };
  }

  private refusal(doc: ParsedDocument, refused: ValidationIssue[]): KeepableRefusal {
    const level = this.settings.rejectLevel;
    const count = refused.length > MAX_ERROR_DETAILS ? `more than ${MAX_ERROR_DETAILS}` : String(refused.length);
    const plural = refused.length === 1 ? '' : 's';
    return new KeepableRefusal(
      refused.length,
      // The hint comes before the finding quoted, which may be long enough for the message to be cut.
      `the ${doc.model} has ${count} finding${plural} at ${level} or above against OSCAL ${doc.version}'s schemas and constraints (${KEEP_FINDINGS_HINT}); the first: ${refused[0]!.message} [${refused[0]!.constraintId ?? refused[0]!.code}]`,
      refused.map(issueDetail),
    );
  }

  /** POST /validate: any content, checked without storing it, with oscal-cli's choices. */
  async validateBody(
    identity: Identity,
    body: Buffer,
    contentType: string | undefined,
    choices: { sets: readonly string[]; schema: boolean; constraints: boolean; oscalVersion?: string },
  ): Promise<ValidationResult> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    const format = formatOfContentType(contentType);
    if (!format) {
      throw refuse(
        'unsupported-media-type',
        'send the content as application/json, application/xml or application/yaml',
      );
    }
    const sets = choices.constraints ? await this.constraintSets.sets(identity, choices.sets) : [];
    const text = bodyText(body, format);
    // Relative references resolve as they would once the content is stored (../profile/{id} is a stored profile).
    return validateFully(text, {
      format,
      schema: choices.schema,
      constraints: choices.constraints,
      ...(choices.oscalVersion !== undefined ? { oscalVersion: choices.oscalVersion } : {}),
      sets,
      ...this.reach(identity),
      baseOf: (doc) =>
        `${this.settings.publicUrl}/oscal/v1/${doc.model}/${(doc.content[doc.model] as { uuid?: string }).uuid ?? ''}`,
    });
  }

  /**
   * GET /{model}/{id}/validation: the current revision checked now (the documents it reaches may
   * have changed), located in the bytes it was sent as, beside what was found when it was stored.
   */
  async validateStored(
    identity: Identity,
    model: string,
    id: string,
    setNames: readonly string[],
  ): Promise<ValidationResult & { revision: number; stored: StoredFinding[]; storedValid: boolean }> {
    if (identity.kind === 'anonymous' && setNames.length > 0) throw unauthenticated();
    const sets = await this.constraintSets.sets(identity, setNames);
    const { doc, record, original } = await retryWhenGone(async () => {
      const { doc: stored } = await this.documents.readable(identity, model, id);
      const revision = await revisionRecord(this.store, id, stored.revision);
      return {
        doc: await readRevision(this.store, id, stored.revision),
        record: revision,
        original: await this.store.getBlob(revision.originalHash),
      };
    });
    const base = `${this.settings.publicUrl}/oscal/v1/${model}/${id}`;
    const result = await validateParsed(doc, { sets, ...this.reach(identity), base });
    if (original) {
      try {
        locateIssues(
          decodeDocumentBytes(gunzip(original), record.originalFormat),
          record.originalFormat,
          result.issues,
        );
      } catch {
        // Bytes that no longer decode leave the findings without positions; their paths still say where.
      }
    }
    return {
      ...result,
      format: record.originalFormat,
      revision: record.number,
      stored: record.findings,
      storedValid: record.valid,
    };
  }
}
