import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { OscalError } from '../oscal/errors.js';
import { FORMATS, parseOscal, type Format } from '../oscal/formats/index.js';
import { compileMetapath, documentNode, MetapathError, type Metapath } from '../oscal/metapath/index.js';
import { expressionProblem, problemText, resultLine, resultSequence } from '../service/metapath-items.js';
import { isSystemError } from './failures.js';
import { describeError, readInput } from './io.js';

interface MetapathOptions {
  expression?: string;
  content?: string;
  from?: Format;
  json?: boolean;
}

/** Why the command stopped: one line on standard error, exit code 2. */
class Stop extends Error {}

function compiled(expression: string): Metapath {
  try {
    return compileMetapath(expression);
  } catch (e) {
    if (e instanceof MetapathError)
      throw new Stop(`the expression is not valid Metapath ${problemText(expressionProblem(e, expression))}`);
    if (e instanceof RangeError) throw new Stop('the expression is not valid Metapath: it is nested too deeply');
    throw e;
  }
}

function documentOf(file: string, from: Format | undefined) {
  try {
    const doc = parseOscal(readInput(file, from), from);
    return documentNode(doc, file === '-' ? undefined : pathToFileURL(resolvePath(file)).href);
  } catch (e) {
    if (isSystemError(e) && (e as NodeJS.ErrnoException).code === 'ENOENT') throw new Stop(`${file}: no such file`);
    if (e instanceof OscalError || isSystemError(e)) throw new Stop(describeError(file, e));
    throw e;
  }
}

/**
 * `oscal-depot metapath FILE EXPRESSION`: the expression evaluated with the document node as its
 * context, the result one item a line (a node as its Metapath and text, an atomic value as its
 * text) or as JSON. The file and the expression may be given as oscal-cli's `metapath eval` takes
 * them too, by -i and -e.
 */
export function metapathCommand(): Command {
  return new Command('metapath')
    .description(
      'evaluate a Metapath expression over an OSCAL document and print the result: one item a line, a node as its Metapath and text',
    )
    .argument('[file]', 'the document (JSON, XML or YAML), or - for standard input')
    .argument('[expression]', 'the Metapath expression, e.g. "//control[@id=\'ac-1\']/title"')
    .option('-i, --content <file>', 'the document, instead of the first argument')
    .option('-e, --expression <expression>', 'the expression, instead of the last argument')
    .addOption(new Option('--from <format>', 'input format, when detection is not wanted').choices(FORMATS))
    .option('--json', 'print the result as a JSON array of items')
    .action((first: string | undefined, second: string | undefined, opts: MetapathOptions) => {
      try {
        const rest = [first, second].filter((a) => a !== undefined);
        const file = opts.content ?? rest.shift();
        const expression = opts.expression ?? rest.shift();
        if (file === undefined || expression === undefined || rest.length > 0)
          throw new Stop(
            'give a file (or - for standard input) and one expression: oscal-depot metapath FILE EXPRESSION',
          );
        const metapath = compiled(expression);
        const root = documentOf(file, opts.from);
        let result;
        try {
          result = resultSequence(metapath.evaluate(root));
        } catch (e) {
          if (e instanceof MetapathError)
            throw new Stop(`the expression failed ${problemText(expressionProblem(e, expression))}`);
          throw e;
        }
        process.stdout.write(
          opts.json
            ? `${JSON.stringify(result.items, null, 2)}\n`
            : result.items.map((item) => `${resultLine(item)}\n`).join(''),
        );
      } catch (e) {
        if (!(e instanceof Stop)) throw e;
        process.stderr.write(`oscal-depot: ${e.message}\n`);
        process.exitCode = 2;
      }
    });
}
