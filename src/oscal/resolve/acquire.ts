import { OscalError } from '../errors.js';
import { decodeDocumentBytes, parseOscal } from '../formats/index.js';
import { ResolutionError } from './errors.js';
import type { Profile, Resource } from './types.js';

/** What a loader hands back: the OSCAL JSON document (`{"catalog": …}` or `{"profile": …}`) and its base. */
export interface LoadedDocument {
  document: Record<string, unknown>;
  /**
   * The document's absolute location: the base its own relative imports are resolved against
   * (it is passed back to the loader with them), and its identity for finding circular imports.
   */
  base: string;
}

/**
 * Fetches an import. `href` is exactly as the importing document wrote it (never a `#uuid`: the
 * resolver looks those up in the back-matter itself and calls the loader with the resource's
 * rlink hrefs); `base` is the importing document's base (undefined when the caller gave none).
 * Throw a ResolutionError with code import-not-found when nothing is there, so that a resource's
 * next rlink is tried; any other error stops the resolution, naming the import.
 */
export type ImportLoader = (href: string, base: string | undefined) => Promise<LoadedDocument>;

/** A loaded document with the key that identifies it within one resolution. */
export interface Source extends LoadedDocument {
  key: string;
}

/** Calls the loader, turning anything it throws other than a ResolutionError into import-not-readable. */
export async function load(loader: ImportLoader, href: string, base: string | undefined): Promise<Source> {
  let loaded: LoadedDocument;
  try {
    loaded = await loader(href, base);
  } catch (e) {
    if (e instanceof ResolutionError) throw e;
    throw new ResolutionError(
      'import-not-readable',
      `import "${href}" could not be read: ${e instanceof Error ? e.message : String(e)}`,
      href,
    );
  }
  if (typeof loaded?.document !== 'object' || loaded.document === null || typeof loaded.base !== 'string') {
    throw new ResolutionError(
      'import-not-readable',
      `import "${href}": the loader returned no document and base`,
      href,
    );
  }
  return { ...loaded, key: loaded.base };
}

/**
 * `#uuid`: the profile's back-matter resource with that uuid, through its rlinks in order (the
 * first that the loader finds), then its base64 content.
 */
export async function loadResource(
  loader: ImportLoader,
  profile: Profile,
  href: string,
  base: string | undefined,
  profileKey: string,
): Promise<Source> {
  const uuid = href.slice(1);
  const resource: Resource | undefined = profile['back-matter']?.resources?.find((r) => r.uuid === uuid);
  if (!resource)
    throw new ResolutionError(
      'import-not-found',
      `import "${href}": the profile's back-matter has no resource with uuid ${uuid}`,
      href,
    );
  const tried: string[] = [];
  for (const rlink of resource.rlinks ?? []) {
    try {
      return await load(loader, rlink.href, base);
    } catch (e) {
      if (!(e instanceof ResolutionError) || e.code !== 'import-not-found') throw reattribute(e, href);
      tried.push(rlink.href);
    }
  }
  if (resource.base64)
    return {
      document: decodeBase64(resource.base64.value, href),
      base: base ?? profileKey,
      key: `${profileKey}#${uuid}`,
    };
  throw new ResolutionError(
    'import-not-found',
    `import "${href}": ${tried.length ? `none of the resource's rlinks could be found (${tried.join(', ')})` : 'the resource has neither an rlink nor base64 content'}`,
    href,
  );
}

function reattribute(e: unknown, href: string): unknown {
  return e instanceof ResolutionError ? new ResolutionError(e.code, `import "${href}": ${e.message}`, href) : e;
}

function decodeBase64(value: string, href: string): Record<string, unknown> {
  try {
    return parseOscal(decodeDocumentBytes(Buffer.from(value, 'base64'))).content;
  } catch (e) {
    const where = e instanceof OscalError && e.line !== undefined ? ` (line ${e.line})` : '';
    throw new ResolutionError(
      'import-not-readable',
      `import "${href}": the resource's base64 content is not readable OSCAL${where}: ${e instanceof Error ? e.message : String(e)}`,
      href,
    );
  }
}
