import type { ScannedFile } from './import-scan.js';

/** The files of one run that are one document; the first is the one sent. */
export interface DocumentGroup {
  files: ScannedFile[];
}

/**
 * Groups files by the document they are: the content uuid they name, else their model and root
 * uuid. A file without a content uuid joins a file of the same model and root uuid that has one
 * (the export of a document beside the file it was first imported from). Within a group, files
 * that name the content uuid come first, then path order; groups keep the order of their first
 * file, so the run goes through the files as given.
 */
export function groupFiles(files: readonly ScannedFile[]): DocumentGroup[] {
  const order = new Map(files.map((f, i) => [f, i]));
  const byContentUuid = new Map<string, DocumentGroup>();
  const byRoot = new Map<string, DocumentGroup>();
  const rootKey = (f: ScannedFile) => `${f.model} ${f.rootUuid}`;
  const groups: DocumentGroup[] = [];
  const join = (index: Map<string, DocumentGroup>, key: string, file: ScannedFile) => {
    let group = index.get(key);
    if (!group) {
      index.set(key, (group = { files: [] }));
      groups.push(group);
      if (!byRoot.has(rootKey(file))) byRoot.set(rootKey(file), group);
    }
    group.files.push(file);
  };
  for (const file of files) if (file.contentUuid) join(byContentUuid, file.contentUuid, file);
  for (const file of files) if (!file.contentUuid) join(byRoot, rootKey(file), file);
  const first = (g: DocumentGroup) => Math.min(...g.files.map((f) => order.get(f)!));
  return groups.sort((a, b) => first(a) - first(b));
}
