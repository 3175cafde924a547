import { sha256 } from '../digest.js';
import type { ParsedDocument } from '../oscal/formats/index.js';
import { resolveProfile, type ImportLoader, type LoadedDocument } from '../oscal/resolve/index.js';

/**
 * Where an import comes from, found without reading it. `version` names exactly what `read`
 * gives (the document and revision hash of a stored one, a file's modification time and size);
 * it is undefined when nothing short of reading says (the network, attachments).
 */
export interface Located {
  version: string | undefined;
  read: () => Promise<LoadedDocument>;
}

export type Locate = (href: string, base: string | undefined) => Promise<Located>;

/** One loader call of a resolution: what it was asked, and the version it found (null: nothing was found). */
interface Dependency {
  href: string;
  base: string | undefined;
  version: string | null;
}

interface Kept {
  dependencies: Dependency[];
  document: ParsedDocument;
}

async function versionNow(locate: Locate, dependency: Dependency): Promise<string | null> {
  try {
    return (await locate(dependency.href, dependency.base)).version ?? null;
  } catch {
    return null;
  }
}

/**
 * Profile resolutions that resolve-profile() asked for during validation, kept by the profile's
 * content and base. A kept one is reused only when every import it read locates, for the caller
 * and now, to the same version, and every import it missed is still missing: the resolver would
 * be given the same documents and make the same catalog. A resolution that read anything without
 * a version is not kept. At most `limit` are kept, the least recently used dropped first.
 */
export class ProfileResolutions {
  private readonly kept = new Map<string, Kept>();
  readonly counts = { resolved: 0, reused: 0 };

  constructor(private readonly limit = 16) {}

  async resolve(profile: Record<string, unknown>, base: string | undefined, locate: Locate): Promise<ParsedDocument> {
    const key = `${base ?? ''} ${sha256(JSON.stringify(profile))}`;
    const kept = this.kept.get(key);
    if (kept && (await this.unchanged(kept, locate))) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      this.counts.reused++;
      return kept.document;
    }
    const dependencies: Dependency[] = [];
    let keepable = true;
    const loader: ImportLoader = async (href, from) => {
      let located: Located;
      try {
        located = await locate(href, from);
      } catch (e) {
        dependencies.push({ href, base: from, version: null });
        throw e;
      }
      // The version is taken before the read: a change in between makes the kept resolution look stale, never fresh.
      if (located.version === undefined) keepable = false;
      dependencies.push({ href, base: from, version: located.version ?? null });
      try {
        return await located.read();
      } catch (e) {
        // Found but not read: whether a later read succeeds, no version says.
        keepable = false;
        throw e;
      }
    };
    const { document } = await resolveProfile(profile, { loader, ...(base !== undefined ? { base } : {}) });
    this.counts.resolved++;
    if (keepable) {
      this.kept.delete(key);
      if (this.kept.size >= this.limit) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, { dependencies, document });
    }
    return document;
  }

  private async unchanged(kept: Kept, locate: Locate): Promise<boolean> {
    for (const dependency of kept.dependencies)
      if ((await versionNow(locate, dependency)) !== dependency.version) return false;
    return true;
  }
}
