import { randomUUID } from 'node:crypto';
import type { ParsedDocument } from '../formats/document.js';
import { modelFor } from '../model/model.js';
import { SUPPORTED_VERSIONS } from '../model/versions.js';
import { load, loadResource, type ImportLoader, type Source } from './acquire.js';
import { mergeResources } from './back-matter.js';
import { ResolutionError, type ResolutionWarning } from './errors.js';
import { finish } from './finish.js';
import { merge } from './merge.js';
import { resultMetadata } from './metadata.js';
import { modify } from './modify.js';
import { selectFromCatalog, type Selection } from './selection.js';
import type { Catalog, Profile } from './types.js';
import { resultVersion } from './version.js';

export interface ResolveOptions {
  loader: ImportLoader;
  /** The profile's base: passed to the loader with its relative imports; identifies it for circular imports. */
  base?: string;
  /** href of the result's source-profile link; default the base, else `urn:uuid:` and the profile's uuid. */
  sourceUri?: string;
  /** Resolution time for last-modified; default now. */
  now?: Date;
  /** Value of the resolution-tool prop; default `oscal-depot`. */
  tool?: string;
}

export interface ResolvedCatalog {
  /** The resolved catalog, ready for serializeOscal. */
  document: ParsedDocument;
  warnings: ResolutionWarning[];
}

/** Profiles may import profiles; past this depth a chain is taken for a loop the loader's bases hid. */
const MAX_DEPTH = 64;

/**
 * Resolves an OSCAL profile (its JSON form, `{"profile": {...}}`) into a catalog, following
 * NIST's profile resolution specification: import, merge, modify, then back-matter, pruning,
 * canonical order and metadata. Imports are fetched through `options.loader`. Failures reject
 * with a ResolutionError; what the specification asks to report and go on is in `warnings`.
 *
 * The inputs are not changed, and the result shares no object with them.
 */
export async function resolveProfile(
  document: Record<string, unknown>,
  options: ResolveOptions,
): Promise<ResolvedCatalog> {
  const profile = profileOf(document);
  const run = new Resolution(options);
  const key = options.base ?? `urn:uuid:${profile.uuid}`;
  const { catalog, version } = await run.resolve(profile, options.base, key, [], options.sourceUri ?? key, undefined);
  return { document: { model: 'catalog', version, content: { catalog } }, warnings: run.warnings };
}

function profileOf(document: Record<string, unknown>): Profile {
  const profile = document.profile as Profile | undefined;
  if (
    typeof profile !== 'object' ||
    profile === null ||
    !Array.isArray(profile.imports) ||
    typeof profile.metadata?.['oscal-version'] !== 'string'
  ) {
    throw new ResolutionError(
      'invalid-profile',
      'not an OSCAL profile: expected {"profile": {"metadata": …, "imports": […]}}',
    );
  }
  return profile;
}

interface Resolved {
  catalog: Catalog;
  version: string;
}

class Resolution {
  readonly warnings: ResolutionWarning[] = [];
  private readonly loads = new Map<string, Promise<Source>>();
  /** Imported profiles already resolved, by key: a profile imported along two paths is resolved once. */
  private readonly resolved = new Map<string, Resolved>();
  /** Imported catalogs by key: a catalog that two hrefs reach is one document, its groups and params the same objects. */
  private readonly catalogs = new Map<string, Catalog>();
  private readonly now: string;

  constructor(private readonly options: ResolveOptions) {
    this.now = (options.now ?? new Date()).toISOString();
  }

  /**
   * Imports are fetched concurrently but resolved one after the other, depth first: a profile
   * still being resolved is then always on `stack`, which is how circular imports are caught.
   */
  async resolve(
    profile: Profile,
    base: string | undefined,
    key: string,
    stack: readonly string[],
    sourceProfile: string,
    warnAs: string | undefined,
  ): Promise<Resolved> {
    const warn = (w: Omit<ResolutionWarning, 'profile'>) =>
      this.warnings.push(warnAs === undefined ? w : { ...w, profile: warnAs });
    const noMatch = (path: string, message: string) => warn({ code: 'no-match', path, message });
    const chain = [...stack, key];
    const pending = profile.imports.map((imp) => this.fetch(profile, imp.href, base, key));
    const selections: Selection[] = [];
    const imported: { catalog: Catalog; href: string }[] = [];
    for (const [i, imp] of profile.imports.entries()) {
      const source = await pending[i]!;
      const catalog = await this.catalogOf(source, imp.href, chain);
      imported.push({ catalog, href: imp.href });
      selections.push(selectFromCatalog(catalog, source.key, imp, `/profile/imports/${i}`, noMatch));
    }
    const body = merge(selections, profile.merge, warn);
    modify(body, profile.modify, warn);
    const version = resultVersion(
      [
        { version: profile.metadata['oscal-version'] },
        ...imported.map((s) => ({ version: s.catalog.metadata['oscal-version'], href: s.href })),
      ],
      SUPPORTED_VERSIONS,
    );
    const metadata = resultMetadata(
      profile.metadata,
      imported.map((s) => s.catalog.metadata),
      {
        lastModified: this.now,
        oscalVersion: version,
        tool: this.options.tool ?? 'oscal-depot',
        sourceProfile,
      },
    );
    const resources = mergeResources([
      ...imported.map((s) => s.catalog['back-matter']?.resources),
      profile['back-matter']?.resources,
    ]);
    const setParams = new Set(profile.modify?.['set-parameters']?.map((sp) => sp['param-id']));
    return { catalog: finish(modelFor(version), randomUUID(), metadata, body, resources, setParams), version };
  }

  private fetch(profile: Profile, href: string, base: string | undefined, key: string): Promise<Source> {
    const id = `${key}\u0000${href}`;
    let pending = this.loads.get(id);
    if (!pending) {
      pending = href.startsWith('#')
        ? loadResource(this.options.loader, profile, href, base, key)
        : load(this.options.loader, href, base);
      // Awaited in import order; an earlier failure may leave a later one unawaited.
      pending.catch(() => {});
      this.loads.set(id, pending);
    }
    return pending;
  }

  /** The catalog an import refers to: the document itself, or an imported profile resolved. */
  private async catalogOf(source: Source, href: string, chain: readonly string[]): Promise<Catalog> {
    const roots = Object.keys(source.document).filter((k) => k !== '$schema');
    const body = source.document[roots[0]!];
    if (
      roots.length !== 1 ||
      typeof body !== 'object' ||
      body === null ||
      !['catalog', 'profile'].includes(roots[0]!)
    ) {
      throw new ResolutionError(
        'not-a-catalog-or-profile',
        `import "${href}" is ${roots.length === 1 ? `a ${roots[0]}` : 'no OSCAL document'}, not a catalog or profile`,
        href,
      );
    }
    if (typeof (body as Catalog).metadata?.['oscal-version'] !== 'string') {
      throw new ResolutionError('import-not-readable', `import "${href}" has no metadata/oscal-version`, href);
    }
    if (roots[0] === 'catalog') return this.firstCatalog(source.key, body as Catalog);
    if (chain.includes(source.key)) {
      throw new ResolutionError(
        'circular-import',
        `import "${href}" is circular: ${[...chain, source.key].join(' imports ')}`,
        href,
      );
    }
    if (chain.length >= MAX_DEPTH)
      throw new ResolutionError(
        'circular-import',
        `import "${href}": profiles import each other more than ${MAX_DEPTH} levels deep`,
        href,
      );
    let done = this.resolved.get(source.key);
    if (!done) {
      try {
        done = await this.resolve(profileOf(source.document), source.base, source.key, chain, source.base, source.key);
      } catch (e) {
        throw e instanceof ResolutionError ? e.within(href) : e;
      }
      this.resolved.set(source.key, done);
    }
    return done.catalog;
  }

  private firstCatalog(key: string, catalog: Catalog): Catalog {
    const first = this.catalogs.get(key) ?? catalog;
    this.catalogs.set(key, first);
    return first;
  }
}
