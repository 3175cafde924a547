import { readFile, stat } from 'node:fs/promises';
import type { Identity } from '../auth/identity.js';
import type { ProfileResolver } from '../oscal/constraints/index.js';
import { OscalError } from '../oscal/errors.js';
import { decodeDocumentBytes, parseOscal } from '../oscal/formats/index.js';
import { CONTENT_UUID_SCHEME } from '../oscal/identifiers.js';
import {
  contentNotOscal,
  ResolutionError,
  resolveProfile,
  type ImportLoader,
  type LoadedDocument,
  type ResolvedCatalog,
} from '../oscal/resolve/index.js';
import type { BlobStore, RevisionStore, SnapshotRecord } from '../store/types.js';
import { AmbiguousAlias, type AliasService } from './aliases.js';
import type { AttachmentService } from './attachments.js';
import { plainBytes } from './attachments.js';
import { retryWhenGone, revisionJson, revisionRecord } from './content.js';
import type { DocumentService } from './documents.js';
import { refuse, ServiceError } from '../errors.js';
import { PLURALS } from '../oscal/model/models.js';
import { ProfileResolutions, type Located } from './resolution-cache.js';
import { parseNotes, RESOLVED_TYPE, type SnapshotService } from './snapshots.js';

export interface ResolutionSettings {
  publicUrl: string;
  /** Imports by URL (or by href as written) to local files (D10's map of well-known URLs). */
  importMap: ReadonlyMap<string, string>;
  /** Hosts that imports may be fetched from over the network; none by default. */
  allowHosts: ReadonlySet<string>;
  /** Largest import fetched over the network. */
  maxFetch: number;
}

const FETCH_TIMEOUT_MS = 30_000;

/** Paths of this server that name a stored document (or a document's attachment). */
const STORED_PATH =
  /^\/(?:oscal\/v1\/[a-z-]+\/[0-9a-fA-F-]{36}(?:\/attachment\/[0-9a-fA-F-]{36})?|api\/v1\/[a-z-]+\/[0-9a-fA-F-]{36})$/;

function urlOf(href: string, base: string): URL | undefined {
  try {
    const url = new URL(href, base);
    url.hash = '';
    return url;
  } catch {
    return undefined;
  }
}

/** Why nothing answered an import, and the two ways to make it resolve. */
function unresolvedReason(href: string, url: URL | undefined): string {
  const network =
    url && (url.protocol === 'https:' || url.protocol === 'http:')
      ? `, and its host ${url.hostname} is not allowed (--resolve-allow-host)`
      : '';
  return (
    `no document you may read is known by it (aliases), the import map has no entry for it${network}. ` +
    `Store the document it names and give it the alias "${href}" (?alias= on its POST or PUT, or PUT /oscal/v1/{model}/{id}/aliases), ` +
    `or start the server with --resolve-map "${url?.href ?? href}=FILE"`
  );
}

const notFound = (href: string, why: string) =>
  new ResolutionError('import-not-found', `import "${href}": ${why}`, href);
const tooLarge = (href: string) =>
  new ResolutionError('import-not-readable', `import "${href}" is larger than this server fetches`, href);

function readable(bytes: Buffer, href: string): Record<string, unknown> {
  try {
    return parseOscal(decodeDocumentBytes(bytes)).content;
  } catch (e) {
    const where = e instanceof OscalError && e.line !== undefined ? ` (line ${e.line})` : '';
    throw contentNotOscal(
      `import "${href}" is not readable OSCAL${where}: ${e instanceof Error ? e.message : String(e)}`,
      href,
    );
  }
}

/**
 * The result is a new document: the profile's content identifier, copied with its metadata,
 * would make it pass for the profile (and clash with it if stored).
 */
function withoutContentUuid(catalog: { metadata: Record<string, unknown> }): void {
  const ids = catalog.metadata['document-ids'];
  if (!Array.isArray(ids)) return;
  const kept = ids.filter((d: { scheme?: unknown }) => d.scheme !== CONTENT_UUID_SCHEME);
  if (kept.length) catalog.metadata['document-ids'] = kept;
  else delete catalog.metadata['document-ids'];
}

/** Files of the import map, read once and again only when they change. */
class FileCache {
  private readonly entries = new Map<string, { mtimeMs: number; document: Record<string, unknown> }>();

  /** What names the file's content now, short of reading it; the read that follows may see a newer one. */
  async version(path: string, href: string): Promise<string> {
    try {
      const { mtimeMs, size } = await stat(path);
      return `file ${path} ${mtimeMs} ${size}`;
    } catch {
      throw notFound(href, 'the file the import map names for it cannot be read');
    }
  }

  async read(path: string, href: string): Promise<Record<string, unknown>> {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(path)).mtimeMs;
    } catch {
      throw notFound(href, 'the file the import map names for it cannot be read');
    }
    const hit = this.entries.get(path);
    if (hit && hit.mtimeMs === mtimeMs) return hit.document;
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      throw notFound(href, 'the file the import map names for it cannot be read');
    }
    // The resolver never changes its inputs, so one parsed copy serves every resolution.
    const document = readable(bytes, href);
    this.entries.set(path, { mtimeMs, document });
    return document;
  }
}

/**
 * Profile resolution on the server (generic-interface 4.5, D10): imports come from this store,
 * as the caller may read them, from the configured map of URLs to files, and from the network
 * only for hosts the operator allowed.
 */
export class ResolutionService {
  private readonly files = new FileCache();
  /** Kept for validation's resolve-profile(); `counts` says how many were made and reused (/metrics). */
  readonly resolutions = new ProfileResolutions();

  constructor(
    private readonly store: RevisionStore & BlobStore,
    private readonly documents: DocumentService,
    private readonly attachments: AttachmentService,
    private readonly snapshots: SnapshotService,
    private readonly aliases: AliasService,
    private readonly settings: ResolutionSettings,
  ) {}

  private documentUrl(model: string, id: string): string {
    return `${this.settings.publicUrl}/oscal/v1/${model}/${id}`;
  }

  /** Resolves the current revision of a profile, as `identity` sees the documents it imports. */
  async resolve(identity: Identity, id: string, at = new Date()): Promise<ResolvedCatalog & { revision: number }> {
    const { revision, json: profile } = await this.current(identity, 'profile', id);
    const base = this.documentUrl('profile', id);
    try {
      const resolved = await resolveProfile(profile, { loader: this.importLoader(identity), base, now: at });
      withoutContentUuid(resolved.document.content.catalog as { metadata: Record<string, unknown> });
      return { ...resolved, revision };
    } catch (e) {
      if (!(e instanceof ResolutionError)) throw e;
      throw refuse(e.code, `the profile cannot be resolved: ${e.message}`, {
        errors: [{ path: e.chain.join(' > '), message: e.message }],
      });
    }
  }

  /** POST resolved-snapshot: resolve now and keep the result, typed resolved-profile. */
  async snapshot(
    identity: Identity,
    id: string,
    body: Buffer,
    contentType: string | undefined,
  ): Promise<SnapshotRecord> {
    const notes = parseNotes(body, contentType, { labels: [], types: [] });
    await this.snapshots.writable(identity, 'profile', id, 'save resolutions of it');
    notes.types = [RESOLVED_TYPE, ...notes.types.filter((t) => t !== RESOLVED_TYPE)];
    const at = new Date();
    const resolved = await this.resolve(identity, id, at);
    return this.snapshots.save(identity, id, 'resolved', resolved.revision, resolved.document, notes, {
      at,
      warnings: resolved.warnings,
    });
  }

  /**
   * Imports as `identity` may read them; relative hrefs resolve against the importing document's
   * base. Constraint checks load what doc() and resolve-profile() reach through it too.
   */
  importLoader(identity: Identity): ImportLoader {
    return async (href, from) => (await this.locate(identity, href, from)).read();
  }

  /** resolve-profile() for validation as `identity`: a resolution made before, while nothing it read has changed. */
  profileResolver(identity: Identity): ProfileResolver {
    return (profile, base) =>
      this.resolutions.resolve(profile, base, (href, from) => this.locate(identity, href, from));
  }

  /** The current revision of a document `identity` may read, as JSON. */
  private async current(
    identity: Identity,
    model: string,
    id: string,
  ): Promise<{ revision: number; json: Record<string, unknown> }> {
    return retryWhenGone(async () => {
      const { doc } = await this.documents.readable(identity, model, id);
      return { revision: doc.revision, json: await revisionJson(this.store, doc.id, doc.revision) };
    });
  }

  /**
   * Where an import is, in order: a document of this server named by its URL, a stored document
   * known by the href (aliases), the import map, then the network for allowed hosts.
   */
  private async locate(identity: Identity, href: string, from: string | undefined): Promise<Located> {
    const url = urlOf(href, from ?? this.settings.publicUrl + '/');
    if (url && this.storedPath(url) !== undefined) return this.locateStored(identity, href, url);
    const aliased = await this.byAlias(identity, href);
    if (aliased) return aliased;
    const file = this.settings.importMap.get(href) ?? (url && this.settings.importMap.get(url.href));
    if (file)
      return {
        version: await this.files.version(file, href),
        read: () => this.loadFile(file, href, url?.href ?? href),
      };
    if (url && (url.protocol === 'https:' || url.protocol === 'http:') && this.settings.allowHosts.has(url.hostname))
      return { version: undefined, read: () => this.fetch(href, url) };
    throw notFound(href, unresolvedReason(href, url));
  }

  private async byAlias(identity: Identity, href: string): Promise<Located | undefined> {
    let doc;
    try {
      doc = await this.aliases.find(identity, href);
    } catch (e) {
      if (e instanceof AmbiguousAlias)
        throw new ResolutionError('import-not-found', `import "${href}": ${e.message}`, href);
      throw e;
    }
    if (!doc) return undefined;
    const { model, id } = doc;
    return {
      version: await this.storedVersion(identity, model, id),
      read: async () => ({
        document: (await this.current(identity, model, id)).json,
        base: this.documentUrl(model, id),
      }),
    };
  }

  /** The document and the hash of its current revision, which no other content has. */
  private async storedVersion(identity: Identity, model: string, id: string): Promise<string> {
    return retryWhenGone(async () => {
      const { doc } = await this.documents.readable(identity, model, id);
      return `${doc.id} ${(await revisionRecord(this.store, doc.id, doc.revision)).canonicalHash}`;
    });
  }

  /** The path of a URL of this server's documents, below its public URL. */
  private storedPath(url: URL): string | undefined {
    if (!url.href.startsWith(`${this.settings.publicUrl}/`)) return undefined;
    const path = url.pathname.slice(new URL(this.settings.publicUrl).pathname.replace(/\/$/, '').length);
    return STORED_PATH.test(path) ? path : undefined;
  }

  private async loadFile(path: string, href: string, base: string): Promise<LoadedDocument> {
    return { document: await this.files.read(path, href), base };
  }

  /** A document (or a document's attachment) of this server, which the caller must be able to read. */
  private async locateStored(identity: Identity, href: string, url: URL): Promise<Located> {
    const path = this.storedPath(url) ?? '';
    const generic = /^\/oscal\/v1\/([a-z-]+)\/([0-9a-fA-F-]{36})(?:\/attachment\/([0-9a-fA-F-]{36}))?$/.exec(path);
    const registry = /^\/api\/v1\/([a-z-]+)\/([0-9a-fA-F-]{36})$/.exec(path);
    const model = generic?.[1] ?? PLURALS[registry?.[1] ?? ''];
    const id = (generic?.[2] ?? registry?.[2])?.toLowerCase();
    if (!model || !id) throw notFound(href, `${url.href} names no document of this server`);
    const attachment = generic?.[3]?.toLowerCase();
    const readable404 = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (e) {
        if (e instanceof ServiceError && e.status === 404)
          throw notFound(href, 'no such document, or you may not read it');
        throw e;
      }
    };
    if (attachment)
      return {
        version: undefined,
        read: () =>
          readable404(async () => {
            const file = await this.attachments.read(identity, model, id, attachment);
            return { document: readable(plainBytes(file), href), base: url.href };
          }),
      };
    return {
      version: await readable404(() => this.storedVersion(identity, model, id)),
      read: () =>
        readable404(async () => ({
          document: (await this.current(identity, model, id)).json,
          base: this.documentUrl(model, id),
        })),
    };
  }

  private async fetch(href: string, url: URL): Promise<LoadedDocument> {
    let bytes: Buffer;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
      if (!response.ok) throw notFound(href, `${url.href} answered ${response.status}`);
      if (Number(response.headers.get('content-length')) > this.settings.maxFetch) throw tooLarge(href);
      bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.length > this.settings.maxFetch) throw tooLarge(href);
    } catch (e) {
      if (e instanceof ResolutionError) throw e;
      throw new ResolutionError(
        'import-not-readable',
        `import "${href}" could not be fetched: ${e instanceof Error ? e.message : String(e)}`,
        href,
      );
    }
    return { document: readable(bytes, href), base: url.href };
  }
}
