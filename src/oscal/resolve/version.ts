import { ResolutionError } from './errors.js';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?/;

function parse(version: string): [number, number, number, string | undefined] | undefined {
  const m = SEMVER.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4]] : undefined;
}

export function compareVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return x ? 1 : y ? -1 : 0;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  // A pre-release precedes its release.
  if (x[3] === y[3]) return 0;
  if (x[3] === undefined) return 1;
  if (y[3] === undefined) return -1;
  return x[3] < y[3] ? -1 : 1;
}

/**
 * The result's oscal-version: the most recent of the profile's and its imports', no later than
 * the newest release this tool knows, and one it knows (the output is written with its model).
 * Different major versions stop the resolution, as the specification advises.
 */
export function resultVersion(
  declared: readonly { version: string; href?: string }[],
  supported: readonly string[],
): string {
  const major = (v: string) => parse(v)?.[0];
  const first = declared[0]!;
  for (const d of declared) {
    if (major(d.version) !== major(first.version)) {
      throw new ResolutionError(
        'version-mismatch',
        `OSCAL ${d.version}${d.href ? ` of import "${d.href}"` : ''} and OSCAL ${first.version} of the profile differ in major version`,
        d.href,
      );
    }
  }
  const newest = declared.map((d) => d.version).reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
  const known = supported.filter((v) => compareVersions(v, newest) <= 0 && major(v) === major(newest));
  return known.at(-1) ?? supported.find((v) => major(v) === major(newest)) ?? supported.at(-1)!;
}
