import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OscalError } from '../oscal/errors.js';
import { decodeDocumentBytes, parseOscal } from '../oscal/formats/index.js';
import { contentNotOscal, ResolutionError, type ImportLoader } from '../oscal/resolve/index.js';

/**
 * Imports from the file system: hrefs relative to the importing document's file, file: URLs,
 * and any href (as written, or once resolved) that `map` names, read from the mapped file. Other
 * URLs are not fetched: the message says how to map them.
 */
export function fileLoader(
  map: ReadonlyMap<string, string>,
  notice: (message: string) => void = () => {},
): ImportLoader {
  return async (href, base) => {
    let url: URL;
    try {
      url = new URL(href, base ?? pathToFileURL(process.cwd() + '/'));
    } catch {
      throw new ResolutionError('import-not-found', `import "${href}" is not a URI reference`, href);
    }
    const mapped = map.get(href) ?? map.get(url.href);
    if (mapped === undefined && url.protocol !== 'file:') {
      throw new ResolutionError(
        'import-not-found',
        `import "${url.href}" is not fetched from the network; give a local copy with --map ${url.href}=<file>`,
        href,
      );
    }
    const named = mapped ?? fileURLToPath(url);
    let path = named;
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const twin = code === 'ENOENT' && mapped === undefined ? await firstTwin(named) : undefined;
      if (!twin)
        throw new ResolutionError(
          code === 'ENOENT' ? 'import-not-found' : 'import-not-readable',
          `import "${href}": ${named}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
          href,
        );
      notice(
        `import "${href}": ${named} does not exist; read ${twin.path}, the same document in ${twin.format.toUpperCase()}`,
      );
      ({ path, bytes } = twin);
    }
    try {
      return { document: parseOscal(decodeDocumentBytes(bytes)).content, base: pathToFileURL(path).href };
    } catch (e) {
      const where = e instanceof OscalError && e.line !== undefined ? `${path}:${e.line}:${e.column ?? 1}` : path;
      throw contentNotOscal(`import "${href}": ${where}: ${e instanceof Error ? e.message : String(e)}`, href);
    }
  };
}

const FORMATS = ['xml', 'json', 'yaml'] as const;

/**
 * The same document in another format: beside the named file (x.json for x.xml), or in NIST's
 * layout of a folder per format (../json/x.json for xml/x.xml).
 */
async function firstTwin(path: string): Promise<{ path: string; bytes: Buffer; format: string } | undefined> {
  const m = /^(.*?)([^/\\]+)\.(xml|json|ya?ml)$/i.exec(path);
  if (!m) return undefined;
  const [, dir, stem, ext] = m as unknown as [string, string, string, string];
  const own = ext.toLowerCase().replace('yml', 'yaml');
  const layout = /^(.*[/\\])(xml|json|yaml)([/\\])$/.exec(dir);
  for (const format of FORMATS.filter((f) => f !== own)) {
    const candidates = [
      `${dir}${stem}.${format}`,
      ...(layout ? [`${layout[1]}${format}${layout[3]}${stem}.${format}`] : []),
    ];
    for (const candidate of candidates) {
      try {
        return { path: candidate, bytes: await readFile(candidate), format };
      } catch {
        // not there; try the next
      }
    }
  }
  return undefined;
}

/** `--map URL=path` values (checked by the command line parser); paths relative to the working directory. */
export function parseMap(entries: readonly string[]): Map<string, string> {
  return new Map(
    entries.map((entry) => {
      const at = entry.lastIndexOf('=');
      return [entry.slice(0, at), resolvePath(entry.slice(at + 1))];
    }),
  );
}
