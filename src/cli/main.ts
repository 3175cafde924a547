#!/usr/bin/env node
import { Command } from 'commander';
import { convertCommand } from './convert.js';
import { describeFailure } from './failures.js';
import { resolveCommand } from './resolve.js';
import { serveCommand } from './serve.js';
import { tokenCommand } from './token.js';
import { validateCommand } from './validate.js';

const program = new Command('oscal-depot')
  .description('OSCAL Depot: store, convert, validate and resolve OSCAL documents')
  .addCommand(convertCommand())
  .addCommand(validateCommand())
  .addCommand(resolveCommand())
  .addCommand(serveCommand())
  .addCommand(tokenCommand());

try {
  await program.parseAsync(process.argv);
} catch (e) {
  process.stderr.write(`oscal-depot: ${describeFailure(e)}\n`);
  process.exitCode = 1;
}
