import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED = join(PROJECT_ROOT, '..', 'shared');
export const REV5_CATALOG = join(SHARED, 'content', 'oscal-content@a849dbc', 'nist.gov', 'SP800-53', 'rev5');

export interface Case {
  name: string;
  run: () => unknown;
}

/**
 * Runs the cases round-robin, so that machine noise (the other core busy, GC, thermal) falls on
 * all of them alike, and returns each one's median in milliseconds. No forced gc() between runs:
 * V8 ages out the compiled code of functions idle across full collections, so forcing them
 * measured recompilation (a 4x slower XML read was seen that way).
 */
export function medians(cases: Case[], rounds: number, warmup = 3): Map<string, number> {
  const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const c of cases) {
      const start = performance.now();
      c.run();
      const ms = performance.now() - start;
      if (round >= warmup) samples.get(c.name)!.push(ms);
    }
  }
  return new Map([...samples].map(([name, s]) => [name, median(s)]));
}

/** medians() for cases that return a promise: each run is awaited before the clock stops. */
export async function mediansAsync(
  cases: { name: string; run: () => Promise<unknown> }[],
  rounds: number,
  warmup = 3,
): Promise<Map<string, number>> {
  const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const c of cases) {
      const start = performance.now();
      await c.run();
      const ms = performance.now() - start;
      if (round >= warmup) samples.get(c.name)!.push(ms);
    }
  }
  return new Map([...samples].map(([name, s]) => [name, median(s)]));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function row(label: string, ms: number, floorMs: number, floorName: string, target?: string): string {
  const ratio = (ms / floorMs).toFixed(2);
  return `${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms   ${ratio.padStart(6)}x ${floorName}${target ? `   (${target})` : ''}`;
}
