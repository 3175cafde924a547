import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fileLoader } from '../src/cli/file-loader.js';
import { readConstraintSet } from '../src/oscal/constraints/external.js';
import type { ConstraintSet } from '../src/oscal/constraints/index.js';
import { parseOscal, type ParsedDocument } from '../src/oscal/formats/index.js';
import type { ImportLoader } from '../src/oscal/resolve/index.js';
import { validateDocument, validateParsed, type FullValidateOptions } from '../src/oscal/validate/index.js';
import { mediansAsync, PROJECT_ROOT, REV5_CATALOG, row, SHARED } from './measure.js';

const ROUNDS = 15;
const REV5_112 = join(SHARED, 'content', 'oscal-content@88bb8de', 'nist.gov', 'SP800-53', 'rev5', 'json');
export const SSP_EXAMPLE = join(
  SHARED,
  'content',
  'oscal-content@88bb8de',
  'examples',
  'ssp',
  'json',
  'ssp-example.json',
);
export const CATALOG = join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_catalog.json');
const MODERATE_112 = join(REV5_112, 'NIST_SP-800-53_rev5_MODERATE-baseline-resolved-profile_catalog.json');
const TEST_SET = join(PROJECT_ROOT, 'test', 'fixtures', 'constraints', 'ssp-rules.xml');

/**
 * What the test set's doc() and resolve-profile() reach from the SSP example: its profile's
 * rlinks name NIST's rev4 MODERATE baseline (not in ../shared), and that profile's rlinks a
 * catalog path beside the content; both are sent to the rev5 files here, so the set resolves a
 * real baseline against the full catalog.
 */
function sspLoader(): ImportLoader {
  const map = new Map<string, string>();
  const rlinks = (file: string, uuid: string) => {
    const body = Object.values(
      JSON.parse(readFileSync(file, 'utf8')) as Record<
        string,
        { 'back-matter': { resources: { uuid: string; rlinks?: { href: string }[] }[] } }
      >,
    )[0]!;
    return body['back-matter'].resources
      .find((r) => r.uuid === uuid)!
      .rlinks!.map((l) => new URL(l.href, pathToFileURL(file)).href);
  };
  const profile = join(REV5_112, 'NIST_SP-800-53_rev5_MODERATE-baseline_profile.json');
  for (const url of rlinks(SSP_EXAMPLE, 'b78aa3ec-915d-475b-8097-46813fae1825')) map.set(url, profile);
  for (const url of rlinks(profile, '84cbf061-eb87-4ec1-8112-1f529232e907')) map.set(url, CATALOG);
  return fileLoader(map);
}

export async function testSet(): Promise<ConstraintSet> {
  return readConstraintSet(TEST_SET, readFileSync(TEST_SET, 'utf8'), async (href, from) => {
    const path = join(dirname(from), href);
    return { name: path, text: readFileSync(path, 'utf8') };
  });
}

export async function sspWithSetOptions(): Promise<FullValidateOptions> {
  return { sets: [await testSet()], loader: sspLoader(), base: pathToFileURL(SSP_EXAMPLE).href };
}

const read = (path: string): ParsedDocument => parseOscal(readFileSync(path, 'utf8'), 'json');

/** Each case once in a fresh process (constraint-validation-worker.ts): wall time and peak RSS. */
function inChild(name: string): { ms: number; peakRssMb: number; findings: number } {
  const worker = fileURLToPath(new URL('./constraint-validation-worker.js', import.meta.url));
  const r = spawnSync(process.execPath, [worker, name], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export async function constraintBench(): Promise<void> {
  const catalog = read(CATALOG);
  // The 1.1.2 release's constraints on a catalog, on NIST's largest 1.1.2 one (its related-link ERRORs included: docs/decisions.md).
  const catalog112 = read(MODERATE_112);
  const ssp = read(SSP_EXAMPLE);
  const withSet = await sspWithSetOptions();
  // The set reaches the profile and catalog: what it finds is shown once, so a load that fails is seen.
  const setFindings = (await validateParsed(ssp, withSet)).issues.filter((i) => i.source === TEST_SET);
  for (const [name, doc] of [
    ['catalog', catalog],
    ['ssp', ssp],
  ] as const) {
    const r = await validateParsed(doc);
    if (!r.valid || !r.constraintsChecked)
      throw new Error(
        `${name} should pass schema and constraints: ${r.issues
          .slice(0, 3)
          .map((i) => i.message)
          .join('; ')}`,
      );
  }
  const results = await mediansAsync(
    [
      { name: 'catalog schema', run: async () => validateDocument(catalog) },
      { name: 'catalog full', run: () => validateParsed(catalog) },
      { name: 'catalog 1.1.2 schema', run: async () => validateDocument(catalog112) },
      { name: 'catalog 1.1.2 full', run: () => validateParsed(catalog112) },
      { name: 'ssp schema', run: async () => validateDocument(ssp) },
      { name: 'ssp full', run: () => validateParsed(ssp) },
      { name: 'ssp full + set', run: () => validateParsed(ssp, withSet) },
    ],
    ROUNDS,
  );
  const ms = (name: string) => results.get(name)!;
  console.log(
    `\n== constraints: full validation (schema + every model constraint), already parsed, median of ${ROUNDS}`,
  );
  console.log(row('floor: 800-53 catalog, schema only', ms('catalog schema'), ms('catalog schema'), 'floor'));
  console.log(row('800-53 catalog, full', ms('catalog full'), ms('catalog schema'), 'floor', 'target < 150 ms'));
  console.log(
    row('floor: MODERATE 1.1.2, schema only', ms('catalog 1.1.2 schema'), ms('catalog 1.1.2 schema'), 'floor'),
  );
  console.log(row('MODERATE resolved 1.1.2, full', ms('catalog 1.1.2 full'), ms('catalog 1.1.2 schema'), 'floor'));
  console.log(row('floor: ssp-example, schema only', ms('ssp schema'), ms('ssp schema'), 'floor'));
  console.log(row('ssp-example, full', ms('ssp full'), ms('ssp schema'), 'floor', 'target < 50 ms'));
  console.log(row('ssp-example, full + test set', ms('ssp full + set'), ms('ssp schema'), 'floor'));
  console.log(
    `the test set's findings on ssp-example: ${setFindings.length} (${[...new Set(setFindings.map((i) => i.constraintId))].join(', ')})`,
  );

  const floor = inChild('floor');
  console.log(
    `\nfresh process, one run each (loading the release's tables, reading, parsing, validating), peak RSS against a process that only reads and parses the catalog:`,
  );
  const line = (label: string, m: { ms: number; peakRssMb: number }) =>
    console.log(
      `${label.padEnd(34)} ${m.ms.toFixed(0).padStart(8)} ms   peak RSS ${m.peakRssMb.toFixed(0).padStart(4)} MB   ${(m.peakRssMb / floor.peakRssMb).toFixed(2)}x floor   (target < 300 MB)`,
    );
  line('floor: read + parse the catalog', floor);
  line('800-53 catalog, full', inChild('catalog'));
  line('ssp-example, full', inChild('ssp'));
  line('ssp-example, full + test set', inChild('ssp-set'));
}
