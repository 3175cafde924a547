/**
 * The command line's own options, and its list of commands: main.ts lists each command without
 * loading it, so what the list says must be what each command, once loaded, says of itself.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI_BIN } from './support/serve-process.js';
import { PROJECT_ROOT } from './support/shared.js';

const run = (...args: string[]) => spawnSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8' });

test('--version and -V print the version of package.json', () => {
  const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V']) {
    const r = run(flag);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
  }
});

test("each command listed by --help is listed as the command's own --help shows its usage", () => {
  const help = run('--help');
  assert.equal(help.status, 0, help.stderr);
  const listed = [...help.stdout.split('Commands:\n')[1]!.matchAll(/^ {2}(\S+)((?: \S+)*?)(?: {2,}|\n)/gm)]
    .map((m) => ({ name: m[1]!, usage: m[2]!.trim() }))
    .filter((c) => c.name !== 'help');
  assert.ok(listed.length >= 12, help.stdout);
  for (const { name, usage } of listed) {
    const own = run(name, '--help');
    assert.equal(own.status, 0, own.stderr);
    const line = own.stdout.split('\n')[0];
    // A command of subcommands (token) shows "[options] [command]" for itself; the list shows its name alone.
    if (usage === '') assert.match(line!, new RegExp(`^Usage: oscal-depot ${name} \\[options\\] \\[command\\]$`));
    else assert.equal(line, `Usage: oscal-depot ${name} ${usage}`);
  }
});
