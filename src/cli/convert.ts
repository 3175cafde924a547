import { Command, Option } from 'commander';
import { FORMATS, parseOscal, serializeOscal, type Format, type ParsedDocument } from '../oscal/formats/index.js';
import { atLeast, hasErrors, validateDocument } from '../oscal/validate/index.js';
import { locateIssues } from '../oscal/validate/locate.js';
import { describeError, readInput, writeOutput } from './io.js';
import { issueLine } from './validate.js';

interface ConvertOptions {
  to: Format;
  from?: Format;
  output?: string;
  validate: boolean;
}

export function convertCommand(): Command {
  return new Command('convert')
    .summary('convert an OSCAL document between JSON, XML and YAML, once its schema accepts it')
    .description(
      'convert an OSCAL document between JSON, XML and YAML (input format detected from the content). ' +
        'The document is first checked against the schema of the OSCAL release it declares; if it is not valid, ' +
        'its problems are listed as `validate` lists them, nothing is written and the exit status is 1',
    )
    .argument('<file>', 'input file, or - for standard input')
    .addOption(new Option('--to <format>', 'output format').choices(FORMATS).makeOptionMandatory())
    .addOption(new Option('--from <format>', 'input format, when detection is not wanted').choices(FORMATS))
    .option('-o, --output <file>', 'write here instead of standard output')
    .option('--no-validate', 'convert without checking the schema first (the document must still be readable as OSCAL)')
    .action((file: string, opts: ConvertOptions) => {
      try {
        const text = readInput(file, opts.from);
        const doc = parseOscal(text, opts.from);
        if (opts.validate && !schemaAllows(file, text, doc)) {
          process.exitCode = 1;
          return;
        }
        writeOutput(opts.output, serializeOscal(doc, opts.to));
      } catch (e) {
        process.stderr.write(describeError(file, e) + '\n');
        process.exitCode = 1;
      }
    });
}

/**
 * Checks a document against its release's schema and prints what was found to standard error
 * (standard output may be the converted document). Warnings, such as where NIST's own schemas
 * disagree, are printed and let the conversion go on.
 */
function schemaAllows(file: string, text: string, doc: ParsedDocument & { format: Format }): boolean {
  const issues = validateDocument(doc);
  if (issues.length === 0) return true;
  locateIssues(text, doc.format, issues);
  const name = file === '-' ? '<stdin>' : file;
  process.stderr.write(issues.map((i) => issueLine(name, i) + '\n').join(''));
  if (!hasErrors(issues)) return true;
  const errors = issues.filter((i) => atLeast(i.level, 'ERROR')).length;
  process.stderr.write(
    `${name}: not valid OSCAL ${doc.version} (${errors} problem${errors === 1 ? '' : 's'}); nothing was written. ` +
      'Fix the document, or convert it anyway with --no-validate\n',
  );
  return false;
}
