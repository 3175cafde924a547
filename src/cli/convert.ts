import { Command, Option } from 'commander';
import { FORMATS, parseOscal, serializeOscal, type Format } from '../oscal/formats/index.js';
import { describeError, readInput, writeOutput } from './io.js';

export function convertCommand(): Command {
  return new Command('convert')
    .description('convert an OSCAL document between JSON, XML and YAML (input format detected from the content)')
    .argument('<file>', 'input file, or - for standard input')
    .addOption(new Option('--to <format>', 'output format').choices(FORMATS).makeOptionMandatory())
    .addOption(new Option('--from <format>', 'input format, when detection is not wanted').choices(FORMATS))
    .option('-o, --output <file>', 'write here instead of standard output')
    .action((file: string, opts: { to: Format; from?: Format; output?: string }) => {
      try {
        const doc = parseOscal(readInput(file), opts.from);
        writeOutput(opts.output, serializeOscal(doc, opts.to));
      } catch (e) {
        process.stderr.write(describeError(file, e) + '\n');
        process.exitCode = 1;
      }
    });
}
