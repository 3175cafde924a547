import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Command, Option } from 'commander';
import * as contentDisposition from 'content-disposition';
import { MODELS } from '../oscal/model/models.js';
import { DepotClient, RequestFailed, serverOption, tokenOption, type Answer } from './depot-client.js';
import { UsageError } from './failures.js';
import { EXPORT_MARKER_FILE, EXPORT_MARKER_KEY } from './import-sources.js';
import { countValue } from './option-values.js';
import { eachConcurrently } from './pool.js';
import { ProgressBar } from './progress.js';

const FORMAT_EXTENSIONS: Record<string, string> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'application/yaml': 'yaml',
};

interface ExportOptions {
  server: string;
  token?: string;
  concurrency: number;
}

interface Listed {
  model: string;
  id: string;
  title: string;
}

/** What was written for one document, by the names its export.json gives them. */
interface Written {
  exported: boolean;
  original?: string;
  access?: string;
  attachments: number;
  snapshots: number;
  failures: string[];
}

const HELP_AFTER = `
Layout (one folder per document; "oscal-depot import DIR" reads it back):
  DIR/export.json                         what was exported, from where, when
  DIR/<model>/<content-uuid>/
    export.json                           marks the folder as one exported document
    document.json                         the current content, as GET with Accept: application/json gives it
    original.<json|xml|yaml>              the bytes the server received for it (when the server offers them)
    access.json                           owner, visibility, grants, legal hold (owner or admin tokens only)
    attachments/list.json                 the attachment list; files in attachments/<resource-uuid>/<file name>
    snapshots/list.json                   the snapshot list; each one in snapshots/<snapshot-id>.json
    resolved-snapshots/list.json          profiles: the resolved snapshots, likewise
Import takes document.json (and visibility and grants from access.json) and leaves the rest,
which are copies of the same document or need the server's own ids to be put back.

Exit status: 0 when everything readable was written, 1 when anything could not be.
`;

export function exportCommand(): Command {
  return new Command('export')
    .summary('write every document a token may read on a server to a folder that import reads back')
    .description(
      'write every document a token may read on an OSCAL Depot server to a folder, with its original bytes, ' +
        'access settings, attachments and snapshots, in a layout "oscal-depot import" reads back',
    )
    .argument('<dir>', 'folder to write to; it must be empty or not exist yet')
    .addOption(serverOption())
    .addOption(tokenOption())
    .addOption(new Option('--concurrency <n>', 'documents fetched at a time').argParser(countValue).default(4))
    .addHelpText('after', HELP_AFTER)
    .action(async (dir: string, opts: ExportOptions) => {
      await mustBeEmpty(dir);
      const client = new DepotClient(opts.server, opts.token);
      const listed = await listEverything(client);
      const results = await exportAll(client, dir, listed, opts.concurrency);
      await writeJson(join(dir, EXPORT_MARKER_FILE), {
        [EXPORT_MARKER_KEY]: 1,
        server: client.api,
        'exported-at': new Date().toISOString(),
        documents: results.filter((r) => r.exported).length,
      });
      process.stdout.write(report(dir, results));
      if (results.some((r) => r.failures.length)) process.exitCode = 1;
    });
}

/** An export holds one server's documents at one time: files left from another would be read back with them. */
async function mustBeEmpty(dir: string): Promise<void> {
  try {
    if ((await readdir(dir)).length > 0) throw new UsageError(`${dir} is not empty; export into a new or empty folder`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

async function listEverything(client: DepotClient): Promise<Listed[]> {
  const lists = await Promise.all(
    MODELS.map(async (model) =>
      (await client.listAll(model)).map((item) => ({
        model,
        id: String(item['content-uuid']),
        title: String(item.title ?? ''),
      })),
    ),
  );
  return lists.flat();
}

async function exportAll(client: DepotClient, dir: string, listed: Listed[], concurrency: number): Promise<Written[]> {
  const progress = new ProgressBar('exporting', listed.length);
  const results: Written[] = [];
  try {
    await eachConcurrently(listed, concurrency, async (doc) => {
      results.push(await new DocumentExport(client, join(dir, doc.model, doc.id), doc).run());
      progress.update(results.length);
    });
  } finally {
    progress.done();
  }
  return results;
}

/** The files of one document; a part the token may not read (403, 404) is left out, anything else is a failure. */
class DocumentExport {
  private readonly written: Written = { exported: false, attachments: 0, snapshots: 0, failures: [] };
  private readonly path: string;

  constructor(
    private readonly client: DepotClient,
    private readonly folder: string,
    private readonly doc: Listed,
  ) {
    this.path = `/${doc.model}/${doc.id}`;
  }

  async run(): Promise<Written> {
    const content = await this.optional(this.path, 'application/json');
    if (!content) return this.written; // deleted since it was listed, or no longer readable
    await this.write('document.json', content.body);
    await this.original();
    await this.access();
    await this.attachments(JSON.parse(content.body.toString('utf8')) as Record<string, unknown>);
    await this.snapshots('snapshot', `${this.doc.model}-snapshot-list`, 'snapshots');
    if (this.doc.model === 'profile')
      await this.snapshots('resolved-snapshot', 'resolved-snapshot-list', 'resolved-snapshots');
    await writeJson(join(this.folder, EXPORT_MARKER_FILE), this.marker());
    this.written.exported = true;
    return this.written;
  }

  private marker(): Record<string, unknown> {
    return {
      [EXPORT_MARKER_KEY]: 1,
      model: this.doc.model,
      'content-uuid': this.doc.id,
      title: this.doc.title,
      content: 'document.json',
      ...(this.written.original ? { original: this.written.original } : {}),
      ...(this.written.access ? { access: this.written.access } : {}),
    };
  }

  private async original(): Promise<void> {
    const answer = await this.optional(`${this.path}/original`);
    if (!answer) return;
    const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim();
    this.written.original = `original.${FORMAT_EXTENSIONS[type] ?? 'bin'}`;
    await this.write(this.written.original, answer.body);
  }

  private async access(): Promise<void> {
    const answer = await this.optional(`${this.path}/access`, 'application/json');
    if (!answer) return;
    this.written.access = 'access.json';
    await this.write(this.written.access, answer.body);
  }

  /** The files behind back-matter resources that have one here: an rlink to this document's attachment, or base64. */
  private async attachments(content: Record<string, unknown>): Promise<void> {
    const list = await this.optional(`${this.path}/attachment`, 'application/json');
    if (!list) return;
    const resources = resourcesOf(content, this.doc.model).filter(
      (r) =>
        r.base64 !== undefined ||
        r.rlinks?.some((l) => String(l.href).includes(`/${this.doc.id}/attachment/${r.uuid}`)),
    );
    if (resources.length === 0) return;
    await this.write('attachments/list.json', list.body);
    for (const resource of resources) {
      const file = await this.optional(`${this.path}/attachment/${resource.uuid}`);
      if (!file) continue;
      await this.write(`attachments/${resource.uuid}/${fileName(file)}`, file.body);
      this.written.attachments++;
    }
  }

  private async snapshots(segment: string, listName: string, folder: string): Promise<void> {
    const list = await this.optional(`${this.path}/${segment}`, 'application/json');
    const entries = list
      ? ((JSON.parse(list.body.toString('utf8'))[listName] as { 'snapshot-id': string }[] | undefined) ?? [])
      : [];
    if (!list || entries.length === 0) return;
    await this.write(`${folder}/list.json`, list.body);
    for (const entry of entries) {
      const snapshot = await this.optional(`${this.path}/${segment}/${entry['snapshot-id']}`, 'application/json');
      if (!snapshot) continue;
      await this.write(`${folder}/${entry['snapshot-id']}.json`, snapshot.body);
      this.written.snapshots++;
    }
  }

  /** The answer when it is 200; undefined for what this token may not see (403, 404); a failure noted otherwise. */
  private async optional(path: string, accept?: string): Promise<Answer | undefined> {
    const answer = await this.client.request('GET', path, accept ? { accept } : {});
    if (answer.status === 200) return answer;
    if (answer.status !== 403 && answer.status !== 404)
      this.written.failures.push(new RequestFailed(`GET ${path}`, answer).message);
    return undefined;
  }

  private async write(name: string, bytes: Buffer): Promise<void> {
    const path = join(this.folder, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
  }
}

type Resource = { uuid: string; base64?: unknown; rlinks?: { href?: unknown }[] };

function resourcesOf(content: Record<string, unknown>, model: string): Resource[] {
  const root = content[model] as { 'back-matter'?: { resources?: Resource[] } } | undefined;
  return root?.['back-matter']?.resources ?? [];
}

/** The file's name from Content-Disposition, made safe as one name in a folder. */
function fileName(answer: Answer): string {
  let name = '';
  try {
    name = contentDisposition.parse(answer.headers.get('content-disposition') ?? '').parameters.filename ?? '';
  } catch {
    // no usable name: the fallback below
  }
  const safe = name
    .replace(/^.*[\\/]/, '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return safe === '' || safe === '.' || safe === '..' ? 'file' : safe;
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2) + '\n');
}

function report(dir: string, results: readonly Written[]): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const failures = results.flatMap((r) => r.failures);
  const sum = (f: (r: Written) => number) => results.reduce((n, r) => n + f(r), 0);
  return (
    [
      ...failures.map((f) => `failed     ${f}`),
      `${count(
        sum((r) => (r.exported ? 1 : 0)),
        'document',
      )} exported to ${dir}: ${count(
        sum((r) => (r.original ? 1 : 0)),
        'original',
      )}, ` +
        `${count(
          sum((r) => (r.access ? 1 : 0)),
          'access setting',
        )}, ${count(
          sum((r) => r.attachments),
          'attachment',
        )}, ` +
        `${count(
          sum((r) => r.snapshots),
          'snapshot',
        )}${failures.length ? `; ${count(failures.length, 'failure')}` : ''}`,
    ].join('\n') + '\n'
  );
}
