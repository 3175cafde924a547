import { readFile } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { ConstraintDefinitionError, readConstraintSet } from '../oscal/constraints/external.js';
import type { ConstraintSet } from '../oscal/constraints/index.js';
import { FORMATS, type Format } from '../oscal/formats/index.js';
import { SUPPORTED_VERSIONS } from '../oscal/model/versions.js';
import { atLeast, validateFully, type ValidationIssue, type ValidationResult } from '../oscal/validate/index.js';
import { fileLoader, parseMap } from './file-loader.js';
import { readInput } from './io.js';
import { collectMapping } from './resolve.js';
import { sarifLog } from '../oscal/validate/sarif.js';

interface FileResult extends ValidationResult {
  file: string;
}

interface ValidateCommandOptions {
  format: 'text' | 'json' | 'sarif';
  from?: Format;
  constraints: string[] | false;
  disableSchemaValidation?: boolean;
  disableConstraintValidation?: boolean;
  oscalVersion?: string;
  sarifIncludePass?: boolean;
  map: string[];
}

async function check(file: string, opts: ValidateCommandOptions, sets: ConstraintSet[]): Promise<FileResult> {
  try {
    const text = readInput(file, opts.from);
    const base = file === '-' ? undefined : pathToFileURL(resolvePath(file)).href;
    return {
      file,
      ...(await validateFully(text, {
        ...(opts.from ? { format: opts.from } : {}),
        schema: opts.disableSchemaValidation !== true,
        constraints: opts.constraints !== false && opts.disableConstraintValidation !== true,
        ...(opts.oscalVersion ? { oscalVersion: opts.oscalVersion } : {}),
        sets,
        loader: fileLoader(parseMap(opts.map)),
        ...(base ? { base } : {}),
      })),
    };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { file, valid: false, issues: [{ code: 'unreadable', path: '', message }] };
  }
}

/** `file:line:col path message`, or for a finding with a level `… level: message [rule]`. */
export function issueLine(name: string, issue: ValidationIssue): string {
  const where = issue.line !== undefined ? `${name}:${issue.line}:${issue.column ?? 1}` : name;
  if (issue.level === undefined) return `${where} ${issue.path || '/'} ${issue.message}`;
  return `${where} ${issue.path || '/'} ${issue.level.toLowerCase()}: ${issue.message} [${issue.constraintId ?? issue.code}]`;
}

function textReport(results: FileResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const name = r.file === '-' ? '<stdin>' : r.file;
    for (const issue of r.issues) lines.push(issueLine(name, issue));
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

/** "1 valid, 1 invalid", then how many findings below ERROR there were, when any. */
function summary(results: FileResult[]): string {
  const bad = results.filter((r) => !r.valid).length;
  const minor = results.flatMap((r) => r.issues).filter((i) => !atLeast(i.level, 'ERROR')).length;
  return `${results.length - bad} valid, ${bad} invalid${minor ? `; ${minor} finding${minor === 1 ? '' : 's'} below ERROR` : ''}\n`;
}

/** Reads the --constraints files, imports relative to each; a bad set ends the command before any document is read. */
async function readSets(files: readonly string[]): Promise<ConstraintSet[]> {
  const loadImport = async (href: string, from: string) => {
    const path = resolvePath(dirname(from), href);
    return { name: path, text: await readFile(path, 'utf8') };
  };
  return Promise.all(
    files.map(async (file) => readConstraintSet(resolvePath(file), await readFile(file, 'utf8'), loadImport)),
  );
}

export function validateCommand(): Command {
  return new Command('validate')
    .description(
      'check OSCAL documents against the OSCAL release each one declares: its schema, its Metaschema constraints, and any constraint sets given',
    )
    .argument('<files...>', 'files to check, or - for standard input')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'json', 'sarif']).default('text'))
    .addOption(new Option('--from <format>', 'input format, when detection is not wanted').choices(FORMATS))
    .option(
      '-c, --constraints <set.xml>',
      'also apply this external constraint set (metaschema-meta-constraints); repeatable',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option('--disable-schema-validation', 'skip the schema check; constraints still run on what could be read')
    .option('--disable-constraint-validation', 'check the schema only')
    .option('--no-constraints', 'the same as --disable-constraint-validation')
    .addOption(
      new Option(
        '--oscal-version <version>',
        'the OSCAL release to check a document against when it declares none (default: the newest)',
      ).choices(SUPPORTED_VERSIONS),
    )
    .option(
      '--sarif-include-pass',
      'with --format sarif, a "pass" result for each constraint that was evaluated and held',
    )
    .option(
      '--map <URL=path>',
      'read the document at URL (for doc() and resolve-profile()) from a local file; repeatable',
      collectMapping,
      [],
    )
    .action(async (files: string[], opts: ValidateCommandOptions) => {
      let sets: ConstraintSet[];
      try {
        sets = opts.constraints === false || opts.disableConstraintValidation ? [] : await readSets(opts.constraints);
      } catch (e) {
        process.stderr.write(
          `oscal-depot: ${e instanceof ConstraintDefinitionError ? e.message : (e as Error).message}\n`,
        );
        process.exitCode = 2;
        return;
      }
      const results: FileResult[] = [];
      for (const file of files) results.push(await check(file, opts, sets));
      if (opts.format === 'json') process.stdout.write(JSON.stringify(results, null, 2) + '\n');
      else if (opts.format === 'sarif')
        process.stdout.write(JSON.stringify(sarifLog(results, opts.sarifIncludePass === true), null, 2) + '\n');
      else process.stdout.write(textReport(results) + summary(results));
      if (results.some((r) => !r.valid)) process.exitCode = 1;
    });
}
