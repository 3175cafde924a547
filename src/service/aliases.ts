/**
 * Document aliases: the URLs and file names other documents import a document by. Published
 * profiles name their catalog by a relative file name ("NIST_SP-800-53_rev5_catalog.xml", or
 * "../../../../nist.gov/SP800-53/rev5/json/…" in a back-matter rlink) or by a public URL; a stored
 * document answers to those once it is known by them.
 */
import type { Identity } from '../auth/identity.js';
import { CONTENT_UUID_SCHEME } from '../oscal/identifiers.js';
import { type AliasEntry, type AliasRecord, type AliasStore, type DocumentRecord } from '../store/types.js';
import type { DocumentService } from './documents.js';
import { forbidden, refuse, ServiceError, storeRefusal } from '../errors.js';

/** The same document in another format is this document here: a.xml, a.json and a.yaml are one name. */
const OSCAL_EXTENSION = /\.(?:xml|json|ya?ml)$/i;
const MAX_ALIASES = 100;
const MAX_ALIAS_LENGTH = 2000;

function absoluteUrl(text: string): URL | undefined {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) return undefined;
  try {
    const url = new URL(text);
    url.hash = '';
    return url;
  } catch {
    return undefined;
  }
}

/** The file name at the end of a path or URL, without an OSCAL format's extension. */
function nameOf(text: string): string | undefined {
  const path = (absoluteUrl(text)?.pathname ?? text.replace(/[?#].*$/, '')).replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  name = name.replace(OSCAL_EXTENSION, '');
  return name === '' || name === '.' || name === '..' ? undefined : name;
}

/**
 * The keys an alias, or an import's href, is found by, most specific first: an absolute URL as
 * itself, then the file name it ends in. So a catalog stored with the alias of its public URL is
 * found by that URL and by any relative path to a file of that name.
 */
export function aliasKeys(text: string): string[] {
  const keys: string[] = [];
  const url = absoluteUrl(text);
  if (url) keys.push(`url:${url.href}`);
  const name = nameOf(text);
  if (name !== undefined) keys.push(`name:${name}`);
  return keys;
}

export function aliasEntries(aliases: readonly string[]): AliasEntry[] {
  return [...new Set(aliases)].flatMap((alias) => aliasKeys(alias).map((key) => ({ alias, key })));
}

/** What a document's metadata says it is known by: its canonical and alternate links, and its document-ids. */
export function metadataAliases(content: Record<string, unknown>, model: string): AliasEntry[] {
  const metadata = (content[model] as { metadata?: Record<string, unknown> }).metadata ?? {};
  const links = Array.isArray(metadata.links) ? (metadata.links as { href?: unknown; rel?: unknown }[]) : [];
  const ids = Array.isArray(metadata['document-ids'])
    ? (metadata['document-ids'] as { scheme?: unknown; identifier?: unknown }[])
    : [];
  return aliasEntries([
    ...links
      .filter((l) => (l.rel === 'canonical' || l.rel === 'alternate') && typeof l.href === 'string')
      .map((l) => l.href as string),
    // The content uuid is already the document's id.
    ...ids
      .filter((d) => d.scheme !== CONTENT_UUID_SCHEME && typeof d.identifier === 'string')
      .map((d) => d.identifier as string),
  ]);
}

/** Aliases given in a request: each a non-empty line of text, as many as a document may hold. */
export function checkedAliases(values: unknown, where: string): string[] {
  if (
    !Array.isArray(values) ||
    values.some(
      (v) => typeof v !== 'string' || v.trim() === '' || v.length > MAX_ALIAS_LENGTH || /[\x00-\x1f\x7f]/.test(v),
    )
  ) {
    throw refuse(
      'bad-request',
      `${where} must be a list of aliases: non-empty text of at most ${MAX_ALIAS_LENGTH} characters, on one line`,
    );
  }
  const aliases = [...new Set((values as string[]).map((v) => v.trim()))];
  if (aliases.length > MAX_ALIASES) throw refuse('bad-request', `a document may have at most ${MAX_ALIASES} aliases`);
  return aliases;
}

/** The aliases of a document as the interface shows them: those given, and those its metadata gives. */
export interface AliasList {
  aliases: string[];
  fromMetadata: string[];
}

function listOf(records: AliasRecord[]): AliasList {
  const of = (source: AliasRecord['source']) => [
    ...new Set(records.filter((r) => r.source === source).map((r) => r.alias)),
  ];
  return { aliases: of('given'), fromMetadata: of('metadata') };
}

export class AliasService {
  constructor(
    private readonly store: AliasStore,
    private readonly documents: DocumentService,
  ) {}

  async list(identity: Identity, model: string, id: string): Promise<AliasList> {
    const { doc } = await this.documents.readable(identity, model, id);
    return listOf(await this.store.listAliases(doc.id));
  }

  /** PUT .../aliases: the given aliases become exactly these. */
  async replace(identity: Identity, model: string, id: string, aliases: string[]): Promise<AliasList> {
    const { doc, rights } = await this.documents.readable(identity, model, id);
    if (!rights.write) throw forbidden('change its aliases');
    await this.write(identity, doc.id, aliases);
    return listOf(await this.store.listAliases(doc.id));
  }

  /** Aliases given with a write (?alias=, an uploaded file's name), added to those the document has. */
  async add(identity: Identity, id: string, aliases: string[]): Promise<void> {
    if (aliases.length === 0) return;
    const given = listOf(await this.store.listAliases(id)).aliases;
    const merged = [...new Set([...given, ...aliases])];
    if (merged.length > given.length) await this.write(identity, id, merged.slice(0, MAX_ALIASES));
  }

  private async write(identity: Identity, id: string, aliases: string[]): Promise<void> {
    try {
      await this.store.setAliases(id, aliasEntries(aliases), {
        actor: identity.kind === 'user' ? identity.name : 'anonymous',
        action: 'document.aliases',
        documentId: id,
        detail: { aliases },
      });
    } catch (e) {
      throw storeRefusal(e);
    }
  }

  /**
   * The document an import's href names by alias, among those `identity` may read: by its most
   * specific key that finds any. Several documents under one key is an error that names them.
   */
  async find(identity: Identity, href: string): Promise<DocumentRecord | undefined> {
    const keys = aliasKeys(href);
    if (keys.length === 0) return undefined;
    const hits = await this.store.findAliases(keys);
    for (const key of keys) {
      const readable = (
        await Promise.all(hits.filter((h) => h.key === key).map((h) => this.readableDocument(identity, h.documentId)))
      ).filter((d): d is DocumentRecord => d !== undefined);
      if (readable.length === 1) return readable[0];
      if (readable.length > 1) {
        throw new AmbiguousAlias(
          href,
          key.slice(key.indexOf(':') + 1),
          readable.map((d) => `${d.model}/${d.id}`),
        );
      }
    }
    return undefined;
  }

  private async readableDocument(identity: Identity, id: string): Promise<DocumentRecord | undefined> {
    try {
      return (await this.documents.readable(identity, undefined, id)).doc;
    } catch (e) {
      if (e instanceof ServiceError && e.status === 404) return undefined;
      throw e;
    }
  }
}

/** An import whose alias more than one readable document has. */
export class AmbiguousAlias extends Error {
  constructor(
    readonly href: string,
    readonly alias: string,
    readonly documents: string[],
  ) {
    super(
      `"${alias}" is an alias of ${documents.length} documents you may read (${documents.join(', ')}); give the one meant the import's full href as an alias, or remove the alias from the others`,
    );
  }
}
