#!/usr/bin/env node
import { Command } from 'commander';
import { backupCommand } from './backup.js';
import { convertCommand } from './convert.js';
import { diffCommand } from './diff.js';
import { describeFailure } from './failures.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { reindexCommand } from './reindex.js';
import { resolveCommand } from './resolve.js';
import { restoreCommand } from './restore.js';
import { searchCommand } from './search.js';
import { serveCommand } from './serve.js';
import { tokenCommand } from './token.js';
import { validateCommand } from './validate.js';

const program = new Command('oscal-depot')
  .description(
    'OSCAL Depot: store, convert, validate, resolve and compare OSCAL documents, and move them to and from a server',
  )
  .addCommand(convertCommand())
  .addCommand(validateCommand())
  .addCommand(resolveCommand())
  .addCommand(diffCommand())
  .addCommand((await import('./metapath.js')).metapathCommand())
  .addCommand(searchCommand())
  .addCommand(serveCommand())
  .addCommand(importCommand())
  .addCommand(exportCommand())
  .addCommand(tokenCommand())
  .addCommand(backupCommand())
  .addCommand(restoreCommand())
  .addCommand(reindexCommand());

// A reader that stops early (`| head`) closes the pipe: what it did not read is not wanted, which is no failure.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});

try {
  await program.parseAsync(process.argv);
} catch (e) {
  process.stderr.write(`oscal-depot: ${describeFailure(e)}\n`);
  process.exitCode = 1;
}
