import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveProfile } from '../src/oscal/resolve/index.js';
import { mediansAsync, REV5_CATALOG, row } from './measure.js';

const ROUNDS = 31;

/**
 * Resolution of the rev5 baselines against the full catalog, already parsed (the loader hands
 * the same object back each time, as a server's cache would), against JSON.parse of that catalog.
 */
export async function resolveBench(): Promise<void> {
  const catalogText = readFileSync(join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_catalog.json'), 'utf8');
  const catalog = JSON.parse(catalogText);
  const loader = async () => ({ document: catalog, base: 'catalog' });
  const profile = (name: string) =>
    JSON.parse(readFileSync(join(REV5_CATALOG, 'json', `NIST_SP-800-53_rev5_${name}-baseline_profile.json`), 'utf8'));
  const baselines = ['LOW', 'MODERATE', 'HIGH'].map((name) => ({ name, profile: profile(name) }));
  const results = await mediansAsync(
    [
      { name: 'floor', run: async () => JSON.parse(catalogText) },
      ...baselines.map((b) => ({ name: b.name, run: () => resolveProfile(b.profile, { loader, base: 'profile' }) })),
    ],
    ROUNDS,
  );
  const ms = (name: string) => results.get(name)!;
  console.log(
    `\n== Profile resolution: SP 800-53 rev5 baselines against the full catalog (JSON ${(catalogText.length / 1e6).toFixed(1)} MB), median of ${ROUNDS}`,
  );
  console.log(row('floor: JSON.parse of the catalog', ms('floor'), ms('floor'), 'floor'));
  for (const b of baselines)
    console.log(
      row(`resolve ${b.name}`, ms(b.name), ms('floor'), 'floor', b.name === 'HIGH' ? 'target < 50 ms' : undefined),
    );
}
