import { Command, Option } from 'commander';
import { FORMATS, type Format } from '../oscal/formats/index.js';
import { validateText, type ValidationResult } from '../oscal/validate/index.js';
import { readInput } from './io.js';
import { sarifLog } from './sarif.js';

interface FileResult extends ValidationResult {
  file: string;
}

function check(file: string, from: Format | undefined): FileResult {
  try {
    return { file, ...validateText(readInput(file), from ? { format: from } : {}) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { file, valid: false, issues: [{ code: 'unreadable', path: '', message }] };
  }
}

function textReport(results: FileResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const name = r.file === '-' ? '<stdin>' : r.file;
    for (const i of r.issues) {
      const where = i.line !== undefined ? `${name}:${i.line}:${i.column ?? 1}` : name;
      lines.push(`${where} ${i.path || '/'} ${i.message}`);
    }
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

export function validateCommand(): Command {
  return new Command('validate')
    .description('check OSCAL documents against the OSCAL release each one declares')
    .argument('<files...>', 'files to check, or - for standard input')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'json', 'sarif']).default('text'))
    .addOption(new Option('--from <format>', 'input format, when detection is not wanted').choices(FORMATS))
    .action((files: string[], opts: { format: 'text' | 'json' | 'sarif'; from?: Format }) => {
      const results = files.map((f) => check(f, opts.from));
      if (opts.format === 'json') process.stdout.write(JSON.stringify(results, null, 2) + '\n');
      else if (opts.format === 'sarif') process.stdout.write(JSON.stringify(sarifLog(results), null, 2) + '\n');
      else {
        const bad = results.filter((r) => !r.valid).length;
        process.stdout.write(`${textReport(results)}${results.length - bad} valid, ${bad} invalid\n`);
      }
      if (results.some((r) => !r.valid)) process.exitCode = 1;
    });
}
