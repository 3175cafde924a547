#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describeFailure } from './failures.js';

/**
 * A command as the top-level help lists it, and how to load it. Each command's module (with its
 * options, its own --help and its work) is imported only when that command is named, so that
 * `oscal-depot validate` never loads the server, nor `--help` anything at all. `usage` is what
 * the help shows after the name, as commander would write it from the command's arguments.
 */
interface CommandEntry {
  usage: string;
  summary: string;
  load: () => Promise<Command>;
}

/** One entry per command, in the order the help lists them. */
const COMMANDS: Record<string, CommandEntry> = {
  convert: {
    usage: '[options] <file>',
    summary: 'convert an OSCAL document between JSON, XML and YAML, once its schema accepts it',
    load: async () => (await import('./convert.js')).convertCommand(),
  },
  validate: {
    usage: '[options] <files...>',
    summary:
      'check OSCAL documents against the OSCAL release each one declares: its schema, its Metaschema constraints, and any constraint sets given',
    load: async () => (await import('./validate.js')).validateCommand(),
  },
  resolve: {
    usage: '[options] <profile>',
    summary:
      'resolve an OSCAL profile into a catalog (imports read from files relative to the profile, or as --map says)',
    load: async () => (await import('./resolve.js')).resolveCommand(),
  },
  diff: {
    usage: '[options] <old> <new>',
    summary: 'compare two OSCAL documents of one model: what was added, removed, moved and changed',
    load: async () => (await import('./diff.js')).diffCommand(),
  },
  metapath: {
    usage: '[options] [file] [expression]',
    summary:
      'evaluate a Metapath expression over an OSCAL document and print the result: one item a line, a node as its Metapath and text',
    load: async () => (await import('./metapath.js')).metapathCommand(),
  },
  search: {
    usage: '[options] [query...]',
    summary: 'search every document a token may read on a server',
    load: async () => (await import('./search.js')).searchCommand(),
  },
  serve: {
    usage: '[options]',
    summary: 'serve the OSCAL REST interface (/oscal/v1) from the store in the data directory',
    load: async () => (await import('./serve.js')).serveCommand(),
  },
  import: {
    usage: '[options] <paths...>',
    summary: 'upload files and folders of OSCAL documents to a server; running it again changes nothing',
    load: async () => (await import('./import.js')).importCommand(),
  },
  export: {
    usage: '[options] <dir>',
    summary: 'write every document a token may read on a server to a folder that import reads back',
    load: async () => (await import('./export.js')).exportCommand(),
  },
  token: {
    usage: '',
    summary: 'manage local API tokens (only their hashes are stored)',
    load: async () => (await import('./token.js')).tokenCommand(),
  },
  backup: {
    usage: '[options] <file>',
    summary:
      'write the whole store (documents, revisions, attachments, snapshots, access, tokens, audit log, constraint sets, jobs) to one file; safe while the server runs',
    load: async () => (await import('./backup.js')).backupCommand(),
  },
  restore: {
    usage: '[options] <file>',
    summary: 'restore a backup (of either backend) into an empty store; refused when the store holds any document',
    load: async () => (await import('./restore.js')).restoreCommand(),
  },
  reindex: {
    usage: '[options]',
    summary:
      'index every stored document again for search (a store made before search existed, or restored from a backup); ' +
      'safe while servers use the store: a document written meanwhile keeps the index its write gave it',
    load: async () => (await import('./reindex.js')).reindexCommand(),
  },
};

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const program = new Command('oscal-depot')
  .description(
    'OSCAL Depot: store, convert, validate, resolve and compare OSCAL documents, and move them to and from a server',
  )
  .version(version, '-V, --version', 'print the version of oscal-depot')
  .configureHelp({
    subcommandTerm: (cmd) => {
      const usage = COMMANDS[cmd.name()]?.usage ?? cmd.usage();
      return usage ? `${cmd.name()} ${usage}` : cmd.name();
    },
  });

// A reader that stops early (`| head`) closes the pipe: what it did not read is not wanted, which is no failure.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});

try {
  // `oscal-depot X …` and `oscal-depot help X` load X alone; anything else (the help, an unknown
  // name) needs only what the table says.
  const named = process.argv[2] === 'help' ? process.argv[3] : process.argv[2];
  for (const [name, entry] of Object.entries(COMMANDS)) {
    if (name === named) program.addCommand(await entry.load());
    else program.command(name).summary(entry.summary);
  }
  await program.parseAsync(process.argv);
} catch (e) {
  process.stderr.write(`oscal-depot: ${describeFailure(e)}\n`);
  process.exitCode = 1;
}
