import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { DepotClient, RequestFailed, serverOption, tokenOption } from './depot-client.js';
import { UsageError } from './failures.js';
import { groupFiles, type DocumentGroup } from './import-groups.js';
import { mediaTypeOf, scanFile, type AccessSettings, type ScannedFile } from './import-scan.js';
import { findSources, type Source } from './import-sources.js';
import { countValue } from './option-values.js';
import { eachConcurrently } from './pool.js';
import { ProgressBar } from './progress.js';
import { StoredDocuments, type StoredDocument } from './stored-documents.js';

type Kind = 'created' | 'updated' | 'unchanged' | 'skipped' | 'refused';
const KINDS: Kind[] = ['created', 'updated', 'unchanged', 'skipped', 'refused'];

/** What became of one file; `line` is what the report says about it (nothing for a file left as it was). */
interface Outcome {
  kind: Kind;
  path: string;
  line?: string;
  accessRestored?: boolean;
  /** The document was imported, but the server refused its access settings. */
  accessFailed?: boolean;
}

interface ImportOptions {
  server: string;
  token?: string;
  concurrency: number;
}

const HELP_AFTER = `
Which stored document a file is:
  - a file whose metadata/document-ids holds a content uuid
    (scheme http://oscal.io/oscal/identifier/contentuuid) is the document with that id;
  - any other file is the document of the same model and root uuid among those with the
    same title (the server adds a content uuid to such a file on upload, and a file cannot be
    written back to, so this is how a second run finds it). A document retitled in the file
    is uploaded as a new one: keep the content uuid the server gave (an export holds it) to
    rule that out.
A file is sent only when the server has no such document (POST) or holds other content (PUT);
contents are compared as JSON, with keys in any order and without the content uuid.

Several files that are one document (the same document in XML, JSON and YAML) count once: the
first in path order (one that names a content uuid before one that does not) is sent; the others
are "unchanged" when they say the same, and "skipped" when they say something else, since
sending each in turn would change the document back and forth on every run.

A folder written by "oscal-depot export" is read back: each document's current content, and its
visibility and grants where the export holds them (other files there are copies, not imported).

Exit status: 0 when every file was imported, found unchanged or skipped; 1 when the server
refused any file (or its access settings), or a file could not be read as OSCAL.
Example:
  OSCAL_DEPOT_TOKEN=$(cat data/admin-token) oscal-depot import --server http://127.0.0.1:8080 content/
`;

export function importCommand(): Command {
  return new Command('import')
    .summary('upload files and folders of OSCAL documents to a server; running it again changes nothing')
    .description(
      'upload OSCAL documents (any model; JSON, XML or YAML) to an OSCAL Depot server: new documents are ' +
        'created, changed ones replaced, and ones the server already holds left alone, so running it again changes nothing',
    )
    .argument('<paths...>', 'files, and folders searched recursively for .json, .xml, .yaml and .yml files')
    .addOption(serverOption())
    .addOption(tokenOption('of a user who may create documents'))
    .addOption(new Option('--concurrency <n>', 'uploads at a time').argParser(countValue).default(4))
    .addHelpText('after', HELP_AFTER)
    .action(async (paths: string[], opts: ImportOptions) => {
      if (!opts.token)
        throw new UsageError(
          'import needs a token of a user who may create documents: give --token or set OSCAL_DEPOT_TOKEN',
        );
      const outcomes = await runImport(paths, new DepotClient(opts.server, opts.token), opts.concurrency);
      process.stdout.write(report(outcomes));
      if (outcomes.some((o) => o.kind === 'refused' || o.accessFailed)) process.exitCode = 1;
    });
}

async function runImport(paths: string[], client: DepotClient, concurrency: number): Promise<Outcome[]> {
  const sources = await findSources(paths);
  if (sources.length === 0) throw new UsageError(`no .json, .xml, .yaml or .yml files in ${paths.join(', ')}`);
  const progress = new ProgressBar('reading  ', sources.length);
  try {
    const { files, unread } = await scanAll(sources, progress);
    const stored = new StoredDocuments(client);
    await stored.load(files.map((f) => f.model));
    progress.restart('importing', files.length);
    const sent = await sendAll(groupFiles(files), new Importer(client, stored), concurrency, progress);
    const order = new Map(sources.map((s, i) => [s.path, i]));
    return [...unread, ...sent].sort((a, b) => order.get(a.path)! - order.get(b.path)!);
  } finally {
    progress.done();
  }
}

/** Every file read before anything is sent: twins can only be told apart once all are known. */
async function scanAll(sources: Source[], progress: ProgressBar): Promise<{ files: ScannedFile[]; unread: Outcome[] }> {
  const files: ScannedFile[] = [];
  const unread: Outcome[] = [];
  for (const source of sources) {
    const scanned = await scanFile(source);
    if (scanned.file) files.push(scanned.file);
    else unread.push({ kind: 'refused', path: source.path, line: `refused    ${scanned.problem} (not sent)` });
    progress.update(files.length + unread.length);
  }
  return { files, unread };
}

async function sendAll(
  groups: DocumentGroup[],
  importer: Importer,
  concurrency: number,
  progress: ProgressBar,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  await eachConcurrently(groups, concurrency, async (group) => {
    outcomes.push(...(await importer.group(group)));
    progress.update(outcomes.length, tally(outcomes, true));
  });
  return outcomes;
}

class Importer {
  constructor(
    private readonly client: DepotClient,
    private readonly stored: StoredDocuments,
  ) {}

  /** Sends the group's first file if the server does not hold what it says; the others follow its outcome. */
  async group({ files: [first, ...twins] }: DocumentGroup): Promise<Outcome[]> {
    const outcome = await this.send(first!);
    return [outcome, ...twins.map((twin) => twinOutcome(twin, first!, outcome))];
  }

  private async send(file: ScannedFile): Promise<Outcome> {
    let written: { kind: Kind; id: string };
    try {
      written = await this.write(file, await this.stored.find(file));
    } catch (e) {
      if (!(e instanceof RequestFailed)) throw e;
      return { kind: 'refused', path: file.path, line: `refused    ${file.path}: ${e.message}` };
    }
    const access = file.access ? await this.restoreAccess(file.model, written.id, file.access) : 'same';
    return writtenOutcome(file, written, access);
  }

  private async write(file: ScannedFile, existing: StoredDocument | undefined): Promise<{ kind: Kind; id: string }> {
    if (existing?.digest === file.digest) return { kind: 'unchanged', id: existing.id };
    const options = {
      body: await readFile(file.path),
      contentType: mediaTypeOf(file.format),
      accept: 'application/json',
    };
    if (existing) {
      const path = `/${file.model}/${existing.id}`;
      const answer = await this.client.request('PUT', path, options);
      if (answer.status !== 204) throw new RequestFailed(`PUT ${path}`, answer);
      return { kind: 'updated', id: existing.id };
    }
    const answer = await this.client.request('POST', `/${file.model}`, options);
    if (answer.status !== 201) throw new RequestFailed(`POST /${file.model}`, answer);
    const created = JSON.parse(answer.body.toString('utf8')) as Record<string, { 'content-uuid': string }[]>;
    return { kind: 'created', id: created[`${file.model}-list`]![0]!['content-uuid'] };
  }

  /**
   * Sets visibility and grants as the export had them, when they differ (the owner stays the
   * importer); a refusal is told, not thrown, since the document itself was imported.
   */
  private async restoreAccess(
    model: string,
    id: string,
    wanted: AccessSettings,
  ): Promise<'same' | 'restored' | RequestFailed> {
    const path = `/${model}/${id}/access`;
    try {
      if (sameAccess(await this.client.getJson<AccessSettings>(path), wanted)) return 'same';
      const answer = await this.client.request('PUT', path, {
        body: Buffer.from(JSON.stringify({ visibility: wanted.visibility, grants: wanted.grants })),
        contentType: 'application/json',
      });
      if (answer.status !== 200) throw new RequestFailed(`PUT ${path}`, answer);
      return 'restored';
    } catch (e) {
      if (e instanceof RequestFailed) return e;
      throw e;
    }
  }
}

/** A file the server holds now: said only when something changed, or its access settings were refused. */
function writtenOutcome(
  file: ScannedFile,
  { kind, id }: { kind: Kind; id: string },
  access: 'same' | 'restored' | RequestFailed,
): Outcome {
  if (kind === 'unchanged' && access === 'same') return { kind, path: file.path };
  const note =
    access === 'restored'
      ? ' (access settings restored)'
      : access === 'same'
        ? ''
        : ` (access settings not restored: ${access.message})`;
  return {
    kind,
    path: file.path,
    line: `${kind.padEnd(10)} ${file.model} ${id}  ${file.path}${note}`,
    ...(access === 'restored' ? { accessRestored: true } : access === 'same' ? {} : { accessFailed: true }),
  };
}

function sameAccess(a: AccessSettings, b: AccessSettings): boolean {
  const grants = (s: AccessSettings) =>
    s.grants
      .map((g) => `${g.principal} ${g.permission}`)
      .sort()
      .join('\n');
  return a.visibility === b.visibility && grants(a) === grants(b);
}

/** A file that is the same document as the one sent: what it says decides whether it shares that outcome. */
function twinOutcome(twin: ScannedFile, sent: ScannedFile, outcome: Outcome): Outcome {
  const document = `${sent.model} ${sent.contentUuid ?? `uuid ${sent.rootUuid}`}`;
  if (twin.digest !== sent.digest) {
    return {
      kind: 'skipped',
      path: twin.path,
      line: `skipped    ${twin.path}: other content for the document of ${sent.path} (${document}), which comes first and is the one imported`,
    };
  }
  if (outcome.kind === 'refused')
    return {
      kind: 'refused',
      path: twin.path,
      line: `refused    ${twin.path}: the same content as ${sent.path}, which was refused`,
    };
  return { kind: 'unchanged', path: twin.path };
}

function tally(outcomes: readonly Outcome[], nonZeroOnly = false): string {
  const counts = KINDS.map((k) => [k, outcomes.filter((o) => o.kind === k).length] as const);
  return counts
    .filter(([, n]) => n > 0 || !nonZeroOnly)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

/** The lines about files that changed something or failed, then the counts. */
function report(outcomes: readonly Outcome[]): string {
  const lines = outcomes.flatMap((o) => (o.line ? [o.line] : []));
  const restored = outcomes.filter((o) => o.accessRestored).length;
  const failed = outcomes.filter((o) => o.accessFailed).length;
  const access = [restored ? `restored on ${restored}` : '', failed ? `refused on ${failed}` : '']
    .filter(Boolean)
    .join(', ');
  const files = `${outcomes.length} file${outcomes.length === 1 ? '' : 's'}`;
  lines.push(`${files}: ${tally(outcomes)}${access ? `; access settings ${access}` : ''}`);
  return lines.join('\n') + '\n';
}
