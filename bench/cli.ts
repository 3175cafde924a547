import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOG_JSON, CATALOG_URL, HIGH_PROFILE, PROFILE_URL, writeLargeSsp } from './cli-fixture.js';
import { median, PROJECT_ROOT, SHARED } from './measure.js';

const ROUNDS = 9;
const MAIN = join(PROJECT_ROOT, 'dist', 'src', 'cli', 'main.js');
const FEDRAMP = join(SHARED, 'constraints', 'fedramp-automation@b79ec536');
/** GNU time reports a child's peak RSS; without it only wall time is measured. */
const TIME = '/usr/bin/time';

interface Run {
  ms: number;
  rssMb: number | undefined;
  status: number | null;
  stdout: string;
}

function once(args: readonly string[]): Run {
  const timed = existsSync(TIME);
  const [command, argv] = timed ? [TIME, ['-f', '%M', process.execPath, ...args]] : [process.execPath, [...args]];
  const start = performance.now();
  const r = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - start;
  const kb = timed ? Number(r.stderr.trim().split('\n').at(-1)) : NaN;
  return { ms, rssMb: Number.isFinite(kb) ? kb / 1024 : undefined, status: r.status, stdout: r.stdout };
}

interface Case {
  name: string;
  args: string[];
  /** Throws when a run did not do the work it is timed for. */
  check: (run: Run) => void;
}

/**
 * `oscal-depot` as a user runs it: each case a whole process, round-robin with `node -e 0` (the
 * floor: starting node itself), so that the machine's noise falls on all alike.
 */
export async function cliBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oscal-depot-cli-bench-'));
  try {
    const ssp = writeLargeSsp(dir);
    const exitStatus = (expected: number) => (run: Run) => {
      if (run.status !== expected) throw new Error(`exit status ${run.status}, not ${expected}:\n${run.stdout}`);
    };
    const cases: Case[] = [
      { name: 'floor', args: ['-e', '0'], check: exitStatus(0) },
      { name: 'help', args: [MAIN, '--help'], check: exitStatus(0) },
      { name: 'catalog', args: [MAIN, 'validate', CATALOG_JSON], check: exitStatus(0) },
      {
        name: 'ssp',
        args: [
          MAIN,
          'validate',
          ssp,
          '--constraints',
          join(FEDRAMP, 'fedramp-external-allowed-values.xml'),
          '--constraints',
          join(FEDRAMP, 'fedramp-external-constraints.xml'),
          '--map',
          `${PROFILE_URL}=${HIGH_PROFILE}`,
          '--map',
          `${CATALOG_URL}=${CATALOG_JSON}`,
        ],
        // FedRAMP's rules find the generated SSP wanting (exit 1); what they reach must have loaded and resolved.
        check: (run) => {
          exitStatus(1)(run);
          if (/could not be evaluated|cannot be retrieved|index-imported-controls/.test(run.stdout))
            throw new Error(`the SSP's profile did not resolve:\n${run.stdout}`);
        },
      },
    ];
    const runs = new Map(cases.map((c) => [c.name, [] as Run[]]));
    for (const c of cases) c.check(once(c.args)); // warm the file cache, and fail early
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of cases) {
        const run = once(c.args);
        c.check(run);
        runs.get(c.name)!.push(run);
      }
    }
    const ms = (name: string) => runs.get(name)!.map((r) => r.ms);
    const floor = median(ms('floor'));
    console.log(`\n== cli: whole processes, median (min-max) of ${ROUNDS} runs, against \`node -e 0\``);
    const line = (label: string, name: string, target: string) => {
      const all = ms(name);
      const rss = runs
        .get(name)!
        .map((r) => r.rssMb)
        .filter((v) => v !== undefined);
      const peak = rss.length
        ? `   peak RSS ${Math.max(...rss)
            .toFixed(0)
            .padStart(4)} MB`
        : '';
      console.log(
        `${label.padEnd(44)} ${median(all).toFixed(0).padStart(6)} ms (${Math.min(...all).toFixed(0)}-${Math.max(...all).toFixed(0)})` +
          `   ${(median(all) / floor).toFixed(2).padStart(5)}x floor${peak}   (${target})`,
      );
    };
    line('floor: node -e 0', 'floor', 'floor');
    line('oscal-depot --help', 'help', 'target < 3x floor');
    line('validate 800-53 catalog (JSON)', 'catalog', 'target < 600 ms');
    line('validate 1.3 MB SSP + FedRAMP sets + HIGH', 'ssp', 'target < 800 ms, < 200 MB');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
