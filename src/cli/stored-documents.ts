import { contentDigest } from './content-digest.js';
import { RequestFailed, type DepotClient } from './depot-client.js';
import type { ScannedFile } from './import-scan.js';

/** A document the server holds, as far as telling whether a file is it, and says the same. */
export interface StoredDocument {
  id: string;
  rootUuid: string;
  digest: string;
}

/**
 * The server's documents, looked up the way import matches files to them (see the decisions in
 * the import command's help): by content uuid when the file names one, else by model and root
 * uuid among the documents with the file's title. Lists and contents are fetched once per run,
 * and only the contents of documents that may be the one looked for.
 */
export class StoredDocuments {
  private readonly lists = new Map<string, Promise<Record<string, unknown>[]>>();
  private readonly contents = new Map<string, Promise<StoredDocument | undefined>>();

  constructor(private readonly client: DepotClient) {}

  /** Lists the models' documents now, so that a wrong token or address stops the import before anything is sent. */
  async load(models: Iterable<string>): Promise<void> {
    await Promise.all([...new Set(models)].map((model) => this.list(model)));
  }

  /** The stored document the file is, or undefined when the server has none (or none this token may read). */
  async find(file: ScannedFile): Promise<StoredDocument | undefined> {
    if (file.contentUuid) return this.content(file.model, file.contentUuid);
    for (const item of await this.list(file.model)) {
      if (item.title !== file.title) continue;
      const stored = await this.content(file.model, String(item['content-uuid']));
      if (stored?.rootUuid === file.rootUuid) return stored;
    }
    return undefined;
  }

  private list(model: string): Promise<Record<string, unknown>[]> {
    let list = this.lists.get(model);
    if (!list) this.lists.set(model, (list = this.client.listAll(model)));
    return list;
  }

  private content(model: string, id: string): Promise<StoredDocument | undefined> {
    const key = `${model}/${id}`;
    let content = this.contents.get(key);
    if (!content) this.contents.set(key, (content = this.fetch(model, id)));
    return content;
  }

  private async fetch(model: string, id: string): Promise<StoredDocument | undefined> {
    const path = `/${model}/${encodeURIComponent(id)}`;
    const answer = await this.client.request('GET', path, { accept: 'application/json' });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new RequestFailed(`GET ${path}`, answer);
    const content = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
    const root = content[model] as { uuid?: unknown };
    return { id, rootUuid: String(root.uuid ?? '').toLowerCase(), digest: contentDigest(content, model) };
  }
}
