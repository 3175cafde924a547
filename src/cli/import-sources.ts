import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve as resolvePath } from 'node:path';
import { UsageError } from './failures.js';

/** The extensions of OSCAL content in a folder; any other file there is not looked at. */
const CONTENT_EXTENSIONS = new Set(['.json', '.xml', '.yaml', '.yml']);

/** What an export writes beside each document (see export.ts): the key that marks it as such. */
export const EXPORT_MARKER_FILE = 'export.json';
export const EXPORT_MARKER_KEY = 'oscal-depot-export';

/** A file to import; from an export, with the access settings the document had. */
export interface Source {
  path: string;
  accessFile?: string;
}

/**
 * The files the arguments name, in order: a file as given (whatever its name), a folder's content
 * files recursively in name order. A folder that `export` wrote for one document stands for that
 * document's current content (and access settings): its original bytes and snapshots are copies
 * of the same document and are not imported again. Each file counts once.
 */
export async function findSources(paths: readonly string[]): Promise<Source[]> {
  const found = new Map<string, Source>();
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(path)).isDirectory();
    } catch (e) {
      throw new UsageError(`${path}: ${(e as Error).message}`);
    }
    const sources = isDirectory ? await walk(path) : [{ path }];
    for (const source of sources) if (!found.has(resolvePath(source.path))) found.set(resolvePath(source.path), source);
  }
  return [...found.values()];
}

async function walk(dir: string): Promise<Source[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const marker = entries.some((e) => e.isFile() && e.name === EXPORT_MARKER_FILE)
    ? await exportMarker(join(dir, EXPORT_MARKER_FILE))
    : undefined;
  if (marker?.content !== undefined) return [exportedDocument(dir, marker)];
  const sources: Source[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources.push(...(await walk(path)));
    else if (
      entry.isFile() &&
      CONTENT_EXTENSIONS.has(extname(entry.name).toLowerCase()) &&
      !(marker && entry.name === EXPORT_MARKER_FILE)
    )
      sources.push({ path });
  }
  return sources;
}

interface ExportMarker {
  content?: string;
  access?: string;
}

/** The marker of an export folder, or undefined for a file of that name that is something else. */
async function exportMarker(path: string): Promise<ExportMarker | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    if (typeof value !== 'object' || value === null || !(EXPORT_MARKER_KEY in value)) return undefined;
    return {
      ...(typeof value.content === 'string' ? { content: value.content } : {}),
      ...(typeof value.access === 'string' ? { access: value.access } : {}),
    };
  } catch {
    return undefined;
  }
}

function exportedDocument(dir: string, marker: ExportMarker): Source {
  // Names from the marker are file names within the folder, never paths out of it.
  const inside = (name: string) => join(dir, name.replace(/^.*[\\/]/, ''));
  return { path: inside(marker.content!), ...(marker.access ? { accessFile: inside(marker.access) } : {}) };
}
