import { Command, Option } from 'commander';
import { diffDocuments, type DiffReport } from '../oscal/diff/index.js';
import { diffAsMarkdown, diffAsText } from '../oscal/diff/report-text.js';
import { parseOscal, type ParsedDocument } from '../oscal/formats/index.js';
import { describeFailure, UsageError } from './failures.js';
import { describeError, readInput } from './io.js';

const REPORTS = {
  text: diffAsText,
  json: (report: DiffReport) => JSON.stringify(report, null, 2) + '\n',
  markdown: diffAsMarkdown,
} as const;

interface DiffCommandOptions {
  format: keyof typeof REPORTS;
  ignoreVolatile?: boolean;
}

/** As diff(1): 0 when the documents are equal, 1 when they differ, 2 when they could not be compared. */
const EQUAL = 0;
const DIFFERENT = 1;
const TROUBLE = 2;

/** A document that cannot be read, said as convert says it: `file:line:col message`, for editors to link. */
class Unreadable extends Error {}

function read(file: string): ParsedDocument {
  try {
    return parseOscal(readInput(file));
  } catch (e) {
    throw new Unreadable(describeError(file, e));
  }
}

export function diffCommand(): Command {
  return (
    new Command('diff')
      .summary('compare two OSCAL documents of one model: what was added, removed, moved and changed')
      .description(
        'compare two OSCAL documents of one model, of any OSCAL releases and in any formats (detected from the ' +
          'content): objects are matched by their uuid, id or other key wherever they are, and prose is compared ' +
          'word by word. Exit status as diff(1): 0 when they are equal, 1 when they differ, 2 when they cannot be ' +
          'compared (a file that cannot be read, is not OSCAL, or two models)',
      )
      .argument('<old>', 'the older document, or - for standard input')
      .argument('<new>', 'the newer document, or - for standard input')
      .addOption(new Option('--format <format>', 'report format').choices(Object.keys(REPORTS)).default('text'))
      .option(
        '--ignore-volatile',
        "leave out what changes on every save: metadata's last-modified and the content identifier in document-ids",
      )
      // A mistyped option or a missing argument is trouble too: 2, not commander's 1.
      .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : TROUBLE))
      .action((older: string, newer: string, opts: DiffCommandOptions) => {
        try {
          if (older === '-' && newer === '-')
            throw new UsageError('only one of the two documents can be standard input');
          const report = diffDocuments(read(older), read(newer), { ignoreVolatile: opts.ignoreVolatile === true });
          process.stdout.write(REPORTS[opts.format](report));
          process.exitCode = report.equal ? EQUAL : DIFFERENT;
        } catch (e) {
          process.stderr.write(`${e instanceof Unreadable ? e.message : `oscal-depot: ${describeFailure(e)}`}\n`);
          process.exitCode = TROUBLE;
        }
      })
  );
}
