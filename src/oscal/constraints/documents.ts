/**
 * What doc() and resolve-profile() reach during constraint validation, loaded through the same
 * ImportLoader as profile resolution (the store on the server, files and --map in the CLI).
 * Evaluation is synchronous and loading is not: an evaluation that asks for a document not read
 * yet stops (DocumentNeeded); `fetch` reads it, and the caller starts the evaluation again.
 */
import type { ParsedDocument } from '../formats/document.js';
import { documentNode, type DocumentAccess, type DocumentNeeded, type MetaNode } from '../metapath/index.js';
import { isSupportedVersion } from '../model/model.js';
import { ResolutionError, resolveProfile, type ImportLoader } from '../resolve/index.js';

/**
 * Resolves a profile that resolve-profile() was given (its JSON form and base). Without one, the
 * profile is resolved through the loader each time; a server passes one that reuses resolutions.
 */
export type ProfileResolver = (profile: Record<string, unknown>, base: string | undefined) => Promise<ParsedDocument>;

/** More than any chain of SSP, profile and catalog needs; a loop of documents ends here. */
export const MAX_DOCUMENTS = 32;

interface Known {
  node: MetaNode | null;
  /** Something was read there, a document or not (fn:doc-available). */
  available: boolean;
  /** Why a document could not be had, for the finding that names it. */
  reason?: string;
}

export class LoadedDocuments implements DocumentAccess {
  private readonly documents = new Map<string, Known>();
  private readonly resolved = new Map<MetaNode, Known>();
  /** The JSON form and base of each document node made here, for resolve-profile. */
  private readonly sources = new Map<MetaNode, { json: Record<string, unknown>; base: string | undefined }>();

  constructor(
    private readonly root: { doc: ParsedDocument; node: MetaNode; base: string | undefined },
    private readonly loader: ImportLoader | undefined,
    private readonly resolver: ProfileResolver = async (profile, base) =>
      (await resolveProfile(profile, { loader: this.loader!, ...(base !== undefined ? { base } : {}) })).document,
  ) {
    this.sources.set(root.node, { json: root.doc.content, base: root.base });
  }

  get(uri: string): MetaNode | null | undefined {
    if (!this.loader) return null;
    const known = this.documents.get(uri);
    return known === undefined ? (this.documents.size >= MAX_DOCUMENTS ? null : undefined) : known.node;
  }

  available(uri: string): boolean | undefined {
    if (!this.loader) return false;
    const known = this.documents.get(uri);
    return known === undefined ? (this.documents.size >= MAX_DOCUMENTS ? false : undefined) : known.available;
  }

  reason(uri: string): string | undefined {
    if (!this.loader) return 'nothing is loaded from outside the document here';
    if (!this.documents.has(uri) && this.documents.size >= MAX_DOCUMENTS)
      return `more than ${MAX_DOCUMENTS} documents were asked for`;
    return this.documents.get(uri)?.reason;
  }

  resolveProfile(profile: MetaNode): MetaNode | null | undefined {
    if (!this.loader) return null;
    return this.resolved.get(profile)?.node;
  }

  resolveReason(profile: MetaNode): string | undefined {
    return this.resolved.get(profile)?.reason;
  }

  async fetch(need: DocumentNeeded): Promise<void> {
    if (need.kind === 'resolved-profile') {
      this.resolved.set(need.profile!, await this.resolve(need.profile!));
      return;
    }
    this.documents.set(need.uri, await this.load(need.uri));
  }

  private async load(href: string): Promise<Known> {
    try {
      if (href.startsWith('#')) return await this.loadResource(href);
      // resolve-uri('#uuid') against the document's own base names a resource of its back-matter.
      const hash = href.indexOf('#');
      if (hash > 0 && this.root.base !== undefined && href.slice(0, hash) === this.root.base.split('#')[0])
        return await this.loadResource(href.slice(hash));
      const loaded = await this.loader!(href, this.root.base);
      return this.known(loaded.document, loaded.base);
    } catch (e) {
      return unavailable(e);
    }
  }

  /** `#uuid`: a back-matter resource of the document being validated, through its rlinks, then its base64. */
  private async loadResource(href: string): Promise<Known> {
    const body = Object.values(this.root.doc.content)[0] as {
      'back-matter'?: { resources?: { uuid: string; rlinks?: { href: string }[]; base64?: { value: string } }[] };
    };
    const resource = body['back-matter']?.resources?.find((r) => r.uuid === href.slice(1));
    if (!resource)
      return { node: null, available: false, reason: `the back-matter has no resource with uuid ${href.slice(1)}` };
    const tried: string[] = [];
    // An rlink to an image makes the resource available; a later one may still be a document.
    let available = resource.base64 !== undefined;
    for (const rlink of resource.rlinks ?? []) {
      try {
        const loaded = await this.loader!(rlink.href, this.root.base);
        return this.known(loaded.document, loaded.base);
      } catch (e) {
        available ||= unavailable(e).available;
        tried.push(`${rlink.href} (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    if (resource.base64) {
      try {
        return this.known(
          JSON.parse(Buffer.from(resource.base64.value, 'base64').toString('utf8')) as Record<string, unknown>,
          this.root.base,
        );
      } catch (e) {
        tried.push(`its base64 content (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    return {
      node: null,
      available,
      reason: tried.length
        ? `none of the resource's contents could be read: ${tried.join('; ')}`
        : 'the resource has neither an rlink nor base64 content',
    };
  }

  private known(json: Record<string, unknown>, base: string | undefined): Known {
    const model = Object.keys(json).find((k) => k !== '$schema');
    const body =
      model === undefined ? undefined : (json[model] as { metadata?: { 'oscal-version'?: unknown } } | undefined);
    const version = body?.metadata?.['oscal-version'];
    if (model === undefined || !isSupportedVersion(version))
      return { node: null, available: true, reason: 'it is not an OSCAL document of a supported release' };
    const node = documentNode({ model, version, content: json }, base);
    this.sources.set(node, { json, base });
    return { node, available: true };
  }

  private async resolve(profile: MetaNode): Promise<Known> {
    const source = this.sources.get(profile.kind === 'document' ? profile : rootOf(profile));
    if (!source || !('profile' in source.json))
      return {
        node: null,
        available: false,
        reason: 'resolve-profile was given something other than a profile document',
      };
    try {
      return { node: documentNode(await this.resolver(source.json, source.base), source.base), available: true };
    } catch (e) {
      return { node: null, available: false, reason: e instanceof Error ? e.message : String(e) };
    }
  }
}

/** A load that failed: available all the same when the loader read bytes that are not OSCAL. */
function unavailable(e: unknown): Known {
  return {
    node: null,
    available: e instanceof ResolutionError && e.resourceRead,
    reason: e instanceof Error ? e.message : String(e),
  };
}

function rootOf(node: MetaNode): MetaNode {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}
