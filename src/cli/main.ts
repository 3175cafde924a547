#!/usr/bin/env node
import { Command } from 'commander';
import { convertCommand } from './convert.js';

const program = new Command('oscal-depot')
  .description('OSCAL Depot: store, convert, validate and resolve OSCAL documents')
  .addCommand(convertCommand());

await program.parseAsync(process.argv);
