import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OscalError } from '../oscal/errors.js';
import { parseOscal } from '../oscal/formats/index.js';
import { ResolutionError, type ImportLoader } from '../oscal/resolve/index.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Imports from the file system: hrefs relative to the importing document's file, file: URLs,
 * and any href (as written, or once resolved) that `map` names, read from the mapped file. Other
 * URLs are not fetched: the message says how to map them.
 */
export function fileLoader(map: ReadonlyMap<string, string>): ImportLoader {
  return async (href, base) => {
    let url: URL;
    try {
      url = new URL(href, base ?? pathToFileURL(process.cwd() + '/'));
    } catch {
      throw new ResolutionError('import-not-found', `import "${href}" is not a URI reference`, href);
    }
    const mapped = map.get(href) ?? map.get(url.href);
    if (mapped === undefined && url.protocol !== 'file:') {
      throw new ResolutionError('import-not-found', `import "${url.href}" is not fetched from the network; give a local copy with --map ${url.href}=<file>`, href);
    }
    const path = mapped ?? fileURLToPath(url);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new ResolutionError(code === 'ENOENT' ? 'import-not-found' : 'import-not-readable', `import "${href}": ${path}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`, href);
    }
    try {
      return { document: parseOscal(utf8.decode(bytes)).content, base: pathToFileURL(path).href };
    } catch (e) {
      const where = e instanceof OscalError && e.line !== undefined ? `${path}:${e.line}:${e.column ?? 1}` : path;
      throw new ResolutionError('import-not-readable', `import "${href}": ${where}: ${e instanceof Error ? e.message : String(e)}`, href);
    }
  };
}

/** `--map URL=path` values (checked by the command line parser); paths relative to the working directory. */
export function parseMap(entries: readonly string[]): Map<string, string> {
  return new Map(entries.map((entry) => {
    const at = entry.lastIndexOf('=');
    return [entry.slice(0, at), resolvePath(entry.slice(at + 1))];
  }));
}
