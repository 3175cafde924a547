import { readFileSync } from 'node:fs';
import { relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { FORMATS, detectFormat, parseOscal, serializeOscal, type Format } from '../oscal/formats/index.js';
import { ResolutionError, resolveProfile, type ResolutionWarning } from '../oscal/resolve/index.js';
import { locateIssues } from '../oscal/validate/locate.js';
import { fileLoader, parseMap } from './file-loader.js';
import { describeError, readInput, writeOutput } from './io.js';

const VERSION: string = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;

interface ResolveCommandOptions {
  to?: Format;
  output?: string;
  map: string[];
}

/** Root-profile warnings as `file:line:col warning: …`; an imported profile's name that profile. */
function describeWarnings(file: string, text: string, format: Format, warnings: ResolutionWarning[]): string {
  const own = warnings
    .filter((w) => w.profile === undefined)
    .map((w) => ({ ...w }) as ResolutionWarning & { line?: number; column?: number });
  locateIssues(text, format, own);
  const name = file === '-' ? '<stdin>' : file;
  const lines = own.map(
    (w) =>
      `${w.line !== undefined ? `${name}:${w.line}:${w.column ?? 1}` : name}: warning: ${w.message} (${w.code} at ${w.path})`,
  );
  for (const w of warnings) {
    if (w.profile !== undefined)
      lines.push(
        `${w.profile.startsWith('file:') ? fileURLToPath(w.profile) : w.profile}: warning: ${w.message} (${w.code} at ${w.path})`,
      );
  }
  return lines.map((l) => l + '\n').join('');
}

export function collectMapping(value: string, all: string[]): string[] {
  const at = value.lastIndexOf('=');
  if (at <= 0 || at === value.length - 1) throw new InvalidArgumentError('expected URL=path');
  return [...all, value];
}

export function resolveCommand(): Command {
  return new Command('resolve')
    .description(
      'resolve an OSCAL profile into a catalog (imports read from files relative to the profile, or as --map says)',
    )
    .argument('<profile>', 'profile file, or - for standard input')
    .addOption(new Option('--to <format>', "output format (default: the profile's)").choices(FORMATS))
    .option('-o, --output <file>', 'write here instead of standard output')
    .option(
      '--map <URL=path>',
      'read the import at URL (as written, or once resolved) from a local file; repeatable',
      collectMapping,
      [],
    )
    .action(async (file: string, opts: ResolveCommandOptions) => {
      try {
        const text = readInput(file);
        const profile = parseOscal(text);
        // From standard input, relative imports are read from the working directory (the loader's
        // default) and the source-profile link names the profile's uuid.
        const fromFile =
          file === '-'
            ? {}
            : {
                base: pathToFileURL(resolvePath(file)).href,
                sourceUri: encodeURI(
                  relative(resolvePath(opts.output ? resolvePath(opts.output, '..') : '.'), resolvePath(file))
                    .split('\\')
                    .join('/'),
                ),
              };
        const { document, warnings } = await resolveProfile(profile.content, {
          loader: fileLoader(parseMap(opts.map), (message) =>
            process.stderr.write(`${file === '-' ? '<stdin>' : file}: note: ${message}\n`),
          ),
          ...fromFile,
          tool: `oscal-depot ${VERSION}`,
        });
        process.stderr.write(describeWarnings(file, text, detectFormat(text), warnings));
        writeOutput(opts.output, serializeOscal(document, opts.to ?? profile.format));
      } catch (e) {
        process.stderr.write(
          (e instanceof ResolutionError ? `${file === '-' ? '<stdin>' : file}: ${e.message}` : describeError(file, e)) +
            '\n',
        );
        process.exitCode = 1;
      }
    });
}
