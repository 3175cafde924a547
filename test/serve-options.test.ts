/**
 * `serve`'s options are described once (src/cli/serve-options.ts): `--help` shows each as
 * described, the environment gives what the command line does not, and the README's tables of
 * options agree with the description both ways.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type OptionSpec, SERVE_OPTIONS } from '../src/cli/serve-options.js';
import { serveCommand } from '../src/cli/serve.js';
import { CLI_BIN } from './support/serve-process.js';
import { PROJECT_ROOT } from './support/shared.js';

const OPTIONS: readonly OptionSpec[] = SERVE_OPTIONS;
const longFlag = (spec: OptionSpec) => spec.flags.split(' ')[0]!;
const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

interface ReadmeRow {
  line: number;
  flags: string[];
  envs: string[];
  defaults: string;
}

/** The rows of every README table headed `| option | environment | default |`. */
function readmeRows(): ReadmeRow[] {
  const rows: ReadmeRow[] = [];
  let inTable = false;
  readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text === '| option | environment | default |') inTable = true;
      else if (!text.startsWith('|')) inTable = false;
      else if (inTable && !text.startsWith('|---')) {
        const [flags, envs, defaults] = text
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim());
        rows.push({ line: i + 1, flags: codeSpans(flags!), envs: codeSpans(envs!), defaults: defaults! });
      }
    });
  return rows;
}

/** What commander adds in parentheses after an option's help. */
function helpDetails(spec: OptionSpec): string {
  // A default that parses to something other than text (a size, a number) is shown as written, not as JSON.
  const shown = (text: string) => (typeof (spec.parse?.(text) ?? text) === 'string' ? JSON.stringify(text) : text);
  return [
    ...(spec.choices ? [`choices: ${spec.choices.map((choice) => JSON.stringify(choice)).join(', ')}`] : []),
    ...(spec.collect ? ['default: []'] : []),
    ...(spec.default !== undefined ? [`default: ${shown(spec.default)}`] : []),
    ...(spec.env ? [`env: ${spec.env}`] : []),
  ].join(', ');
}

describe('serve options', () => {
  test("every row of the README's option tables names described options, their variables and defaults", () => {
    const rows = readmeRows();
    assert.ok(rows.length >= 3, `README option rows found: ${rows.length}`);
    for (const row of rows) {
      const at = `README.md:${row.line}`;
      const specs = row.flags.map((flag) => {
        const spec = OPTIONS.find((s) => longFlag(s) === flag);
        assert.ok(spec, `${at}: ${flag} is not an option of serve (src/cli/serve-options.ts)`);
        return spec;
      });
      assert.deepEqual(
        row.envs,
        specs.flatMap((s) => (s.env ? [s.env] : [])),
        `${at}: environment variables`,
      );
      const defaults = specs.flatMap((s) => (s.default !== undefined ? [s.default] : []));
      // A row gives its options' defaults first, as code in the order of its flags; a row of options
      // without one says what happens instead, in words.
      if (defaults.length === 0) assert.ok(!row.defaults.startsWith('`'), `${at}: these options have no default`);
      else {
        assert.equal(defaults.length, specs.length, `${at}: options with and without defaults share a row`);
        assert.deepEqual(codeSpans(row.defaults).slice(0, defaults.length), defaults, `${at}: defaults`);
      }
    }
  });

  test('every option of the description is in exactly one README row', () => {
    const flags = readmeRows().flatMap((row) => row.flags);
    for (const spec of OPTIONS) {
      const rows = flags.filter((flag) => flag === longFlag(spec)).length;
      assert.equal(rows, 1, `${longFlag(spec)} is in ${rows} rows of the README's option tables`);
    }
  });

  test('`serve --help` lists every option with its help, choices, default and environment variable', () => {
    const run = spawnSync(process.execPath, [CLI_BIN, 'serve', '--help'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    // Commander wraps the help at spaces; joined again, each option reads as one line.
    const help = run.stdout.replace(/\s+/g, ' ');
    for (const spec of OPTIONS) {
      const line = ` ${spec.flags} ${spec.help} (${helpDetails(spec)}) `;
      assert.ok(help.includes(line), `--help lacks "${line}"`);
    }
  });

  test('the command line wins over the environment, which wins over the default; values come parsed', () => {
    const given = { PORT: '9001', OSCAL_DEPOT_MAX_BODY: '1MB', OSCAL_DEPOT_DEFAULT_VISIBILITY: 'public' };
    const before = Object.fromEntries(Object.keys(given).map((name) => [name, process.env[name]]));
    Object.assign(process.env, given);
    try {
      const command = serveCommand()
        .exitOverride()
        .action(() => undefined);
      command.parse(['--port', '9000', '--resolve-allow-host', 'a.example', '--resolve-allow-host', 'b.example'], {
        from: 'user',
      });
      const opts = command.opts();
      assert.equal(opts.port, 9000);
      assert.equal(opts.maxBody, 1024 * 1024);
      assert.equal(opts.defaultVisibility, 'public');
      assert.equal(opts.maxAttachment, 100 * 1024 * 1024);
      assert.equal(opts.tokenCache, 5);
      assert.deepEqual(opts.resolveAllowHost, ['a.example', 'b.example']);
      assert.deepEqual(opts.resolveMap, []);
      assert.equal(opts.publicUrl, undefined);
    } finally {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
