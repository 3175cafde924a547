import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Identity } from '../auth/identity.js';
import type { ParsedDocument } from '../oscal/formats/index.js';
import { jsonLocator } from '../oscal/formats/json-reader.js';
import { markupToMarkdown } from '../oscal/markup/index.js';
import { type AttachmentInput, type AttachmentStore, type DocumentStore } from '../store/types.js';
import { sha256 } from '../digest.js';
import { fileBlob, gunzip } from './blobs.js';
import { parseJsonBody } from './json-body.js';
import { ContentGone, retryWhenGone } from './content.js';
import { readContent, type DocumentService } from './documents.js';
import {
  forbidden,
  notFound,
  refuse,
  ServiceError,
  StoreConflictError,
  storeRefusal,
  unauthenticated,
} from '../errors.js';
import { resourcesOf, type Resource } from './fields.js';

/** A file as a client sent it. */
export interface IncomingFile {
  bytes: Buffer;
  /** The Content-Type to serve it with: a media type and any parameters (charset…). */
  mediaType: string;
  filename?: string;
}

/** A file to send back: its bytes as kept (gzip or plain) and what to label them with. */
export interface OutgoingFile {
  data: Buffer;
  gzipped: boolean;
  hash: string;
  mediaType: string;
  filename: string;
}

/**
 * Read-modify-write of a document loses to a write of another process at most this often in a
 * row; writes through this process wait their turn instead.
 */
const ATTEMPTS = 8;

/** Strips what may not travel in a file name: paths, control characters; keeps any script. */
export function cleanFilename(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const base = name
    .split(/[/\\]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  return base === '' || base === '.' || base === '..' ? undefined : base;
}

/** A file name as the text of a markup-line title: Markdown syntax in it is escaped, not applied. */
function titleOf(filename: string): string {
  return markupToMarkdown([filename], false);
}

/**
 * Attachments (generic-interface 4.3, D9): the file behind a back-matter resource, kept in the
 * store by hash, with the resource entry in the content kept in step. Each change is a new
 * revision of the document.
 */
export class AttachmentService {
  /** The tail of each document's queue of attachment changes in this process. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: AttachmentStore & DocumentStore,
    private readonly documents: DocumentService,
    private readonly publicUrl: string,
  ) {}

  hrefOf(model: string, id: string, resourceUuid: string): string {
    return `${this.publicUrl}/oscal/v1/${model}/${id}/attachment/${resourceUuid}`;
  }

  /**
   * Whether an rlink href names this attachment: D9's absolute form, or the older relative ones.
   * The absolute form is matched by its path alone: it was made under the public URL of its day,
   * and a server restarted on another port or host, or a sibling on a shared database, must still
   * serve the file (the store holds one only for this document's resource).
   */
  private pointsHere(href: unknown, model: string, id: string, resourceUuid: string): boolean {
    if (typeof href !== 'string') return false;
    const tail = `/${id}/attachment/${resourceUuid}`;
    const path = /^https?:\/\//i.test(href) && URL.canParse(href) ? new URL(href).pathname : href;
    return path.endsWith(`/oscal/v1/${model}${tail}`) || path === tail || path === `/${model}${tail}`;
  }

  async list(identity: Identity, model: string, id: string): Promise<Record<string, unknown>[]> {
    const { content } = await this.documents.readableContent(identity, model, id);
    return resourcesOf(content).map(({ base64: _omitted, ...entry }) => ({
      'content-uuid': id,
      'resource-uuid': entry.uuid,
      ...entry,
    }));
  }

  async resource(identity: Identity, model: string, id: string, resourceUuid: string): Promise<Resource> {
    return findResource((await this.documents.readableContent(identity, model, id)).content, resourceUuid);
  }

  /** The file: ours when an rlink points at it, else the decoded base64 (rule 2). */
  async read(identity: Identity, model: string, id: string, resourceUuid: string): Promise<OutgoingFile> {
    return retryWhenGone(() => this.readOnce(identity, model, id, resourceUuid));
  }

  private async readOnce(identity: Identity, model: string, id: string, resourceUuid: string): Promise<OutgoingFile> {
    const { doc, content } = await this.documents.readableContent(identity, model, id);
    const entry = findResource(content, resourceUuid);
    const rlinks = Array.isArray(entry.rlinks) ? (entry.rlinks as { href?: unknown }[]) : [];
    if (rlinks.some((r) => this.pointsHere(r.href, model, id, resourceUuid))) {
      const held = await this.store.getAttachment(id, resourceUuid);
      const bytes = held && (await this.store.getAttachmentBytes(held.hash));
      if (held && bytes)
        return {
          data: bytes.data,
          gzipped: !bytes.plain,
          hash: held.hash,
          mediaType: held.mediaType,
          filename: held.filename,
        };
      // A change committed since the content was read (the file replaced, the document deleted)
      // took the file: the answer is the one that change gives. Unchanged, the file was never here.
      const now = await this.store.getDocument(id);
      if (now?.revision !== doc.revision || now.createdAt !== doc.createdAt)
        throw new ContentGone(`the file of resource ${resourceUuid} of ${id} is gone`);
    }
    const base64 = entry.base64 as { value?: string; filename?: string; 'media-type'?: string } | undefined;
    if (base64 && typeof base64.value === 'string') {
      const data = Buffer.from(base64.value, 'base64');
      return {
        data,
        gzipped: false,
        hash: sha256(data),
        mediaType: base64['media-type'] ?? 'application/octet-stream',
        filename: cleanFilename(base64.filename) ?? cleanFilename(String(entry.title ?? '')) ?? resourceUuid,
      };
    }
    throw refuse(
      'not-found',
      `resource ${resourceUuid} has no file here: neither base64 content nor an rlink to an attachment of this document`,
    );
  }

  /** POST: a new resource entry with an rlink to the stored file (rule 1). */
  async add(identity: Identity, model: string, id: string, file: IncomingFile): Promise<Resource> {
    const resourceUuid = randomUUID();
    const filename = cleanFilename(file.filename) ?? resourceUuid;
    return this.change(identity, model, id, 'attachment.create', resourceUuid, file, (content, blobHash) => {
      const entry: Resource = {
        uuid: resourceUuid,
        title: titleOf(filename),
        rlinks: [this.rlink(model, id, resourceUuid, file.mediaType, blobHash)],
      };
      const root = content.content[model] as Record<string, unknown>;
      const backMatter = (root['back-matter'] ??= {}) as { resources?: Resource[] };
      (backMatter.resources ??= []).push(entry);
      return entry;
    });
  }

  /** PUT: the file replaced; base64 removed, the rlink set (rule 3). */
  async replace(
    identity: Identity,
    model: string,
    id: string,
    resourceUuid: string,
    incoming: IncomingFile,
  ): Promise<void> {
    // A file sent without a name keeps the one it replaces.
    const earlier =
      incoming.filename === undefined ? (await this.store.getAttachment(id, resourceUuid))?.filename : undefined;
    const file = earlier === undefined ? { ...incoming } : { ...incoming, filename: earlier };
    await this.change(identity, model, id, 'attachment.replace', resourceUuid, file, (content, blobHash) => {
      const entry = findResource(content, resourceUuid);
      const base64 = entry.base64 as { filename?: unknown } | undefined;
      if (file.filename === undefined && typeof base64?.filename === 'string') file.filename = base64.filename;
      delete entry.base64;
      const others = (Array.isArray(entry.rlinks) ? (entry.rlinks as { href?: unknown }[]) : []).filter(
        (r) => !this.pointsHere(r.href, model, id, resourceUuid),
      );
      entry.rlinks = [this.rlink(model, id, resourceUuid, file.mediaType, blobHash), ...others];
      entry.title ??= titleOf(cleanFilename(file.filename) ?? resourceUuid);
      return entry;
    });
  }

  /** DELETE: the resource entry goes, and with it the file (rule 4). */
  async remove(identity: Identity, model: string, id: string, resourceUuid: string): Promise<void> {
    await this.change(identity, model, id, 'attachment.delete', resourceUuid, undefined, (content) => {
      const root = content.content[model] as { 'back-matter'?: { resources?: Resource[] } };
      const resources = resourcesOf(content);
      const entry = findResource(content, resourceUuid);
      resources.splice(resources.indexOf(entry), 1);
      // OSCAL allows no empty resources array; an empty back-matter says nothing either.
      if (resources.length === 0) delete root['back-matter']!.resources;
      if (Object.keys(root['back-matter']!).length === 0) delete root['back-matter'];
      return entry;
    });
  }

  /** PUT .../resource: the entry replaced by the client's, checked as part of the document (rule 6). */
  async putResource(
    identity: Identity,
    model: string,
    id: string,
    resourceUuid: string,
    body: Buffer,
    contentType: string | undefined,
  ): Promise<void> {
    const supplied = parseJsonBody(body, contentType, 'a resource entry is');
    if (typeof supplied !== 'object' || supplied === null || Array.isArray(supplied))
      throw refuse('bad-request', 'the body must be one back-matter resource object');
    const uuid = (supplied as { uuid?: unknown }).uuid;
    let at = -1;
    await this.change(identity, model, id, 'resource.replace', resourceUuid, undefined, (content) => {
      const resources = resourcesOf(content);
      const entry = findResource(content, resourceUuid);
      if (typeof uuid !== 'string' || uuid.toLowerCase() !== resourceUuid) {
        throw refuse(
          'conflict',
          `the entry's uuid ${JSON.stringify(uuid)} differs from the resource uuid in the path (${resourceUuid}); a resource keeps its uuid`,
        );
      }
      at = resources.indexOf(entry);
      resources[at] = supplied as Resource;
      return entry;
    }).catch((e: unknown) => {
      throw e instanceof ServiceError && e.status === 422 && at >= 0
        ? locatedInEntry(e, `/${model}/back-matter/resources/${at}`, body.toString('utf8'))
        : e;
    });
  }

  private rlink(model: string, id: string, resourceUuid: string, mediaType: string, hash: string) {
    return {
      href: this.hrefOf(model, id, resourceUuid),
      'media-type': mediaType.split(';')[0]!.trim(),
      hashes: [{ algorithm: 'SHA-256', value: hash }],
    };
  }

  /**
   * Applies an edit to the current content and stores it as the next revision, with the file if
   * one came; retried when another write got in between.
   */
  private async change(
    identity: Identity,
    model: string,
    id: string,
    action: string,
    resourceUuid: string,
    file: IncomingFile | undefined,
    edit: (content: ParsedDocument, blobHash: string) => Resource,
  ): Promise<Resource> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    const blob = file && fileBlob(file.bytes);
    return this.inTurn(id, async () => {
      for (let attempt = 1; ; attempt++) {
        const { doc, rights, content } = await this.documents.readableContent(identity, model, id);
        if (!rights.write) throw forbidden('change its attachments');
        if (doc.legalHold && (action === 'attachment.delete' || action === 'attachment.replace')) {
          throw refuse(
            'legal-hold',
            'the document is under a legal hold: its attachment files cannot be deleted or replaced',
          );
        }
        const entry = edit(content, blob?.hash ?? '');
        const text = JSON.stringify(content.content, null, 2) + '\n';
        const checked = readContent(Buffer.from(text), 'application/json', model);
        const attachments: AttachmentInput[] =
          file && blob
            ? [
                {
                  resourceUuid,
                  blob,
                  mediaType: file.mediaType,
                  filename: cleanFilename(file.filename) ?? resourceUuid,
                },
              ]
            : [];
        try {
          await this.documents.storeRevision(
            identity as Identity & { kind: 'user' },
            id,
            checked.doc,
            Buffer.from(text),
            'json',
            {
              action,
              detail: { resource: resourceUuid, ...(blob ? { sha256: blob.hash, size: blob.size } : {}) },
              attachments,
              ifRevision: doc.revision,
              keepFindings: true,
            },
          );
          return entry;
        } catch (e) {
          if (e instanceof StoreConflictError && e.reason === 'stale' && attempt < ATTEMPTS) {
            // Apart, at random, so that writers in several processes stop meeting each other.
            await sleep(Math.random() * 10 * 2 ** attempt);
            continue;
          }
          throw storeRefusal(e, { stale: 'the document kept changing while the attachment was stored; try again' });
        }
      }
    });
  }

  /** Runs changes of one document's attachments one after another within this process. */
  private async inTurn<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = this.turns.get(id) ?? Promise.resolve();
    const run = before.then(work);
    const tail = run.catch(() => undefined);
    this.turns.set(id, tail);
    try {
      return await run;
    } finally {
      if (this.turns.get(id) === tail) this.turns.delete(id);
    }
  }
}

/**
 * A refusal of the document with the client's entry in it, its positions moved to the body the
 * client sent: the document checked is the stored one re-written, whose lines the client never saw.
 * A problem inside the entry gets the line and column of the body; one elsewhere keeps its path only.
 */
function locatedInEntry(error: ServiceError, entryPath: string, body: string): ServiceError {
  const inEntry = (path: string) => path === entryPath || path.startsWith(`${entryPath}/`);
  const locate = jsonLocator(
    body,
    (error.errors ?? []).filter((e) => inEntry(e.path)).map((e) => e.path.slice(entryPath.length)),
  );
  const errors = error.errors?.map(({ line: _line, column: _column, ...detail }) => {
    const at = inEntry(detail.path) ? locate(detail.path.slice(entryPath.length)) : undefined;
    return at ? { ...detail, line: at.line, column: at.column } : detail;
  });
  return refuse(error.code, error.message, {
    ...(errors ? { errors } : {}),
    ...(error.headers ? { headers: error.headers } : {}),
  });
}

function findResource(content: ParsedDocument, resourceUuid: string): Resource {
  const entry = resourcesOf(content).find((r) => typeof r.uuid === 'string' && r.uuid.toLowerCase() === resourceUuid);
  if (!entry) throw notFound('resource');
  return entry;
}

/** The file's bytes, plain: for callers that cannot send gzip on. */
export function plainBytes(file: OutgoingFile): Buffer {
  return file.gzipped ? gunzip(file.data) : file.data;
}
