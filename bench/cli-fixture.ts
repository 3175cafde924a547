import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REV5_CATALOG, SHARED } from './measure.js';

const SSP_EXAMPLE = join(SHARED, 'content', 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json');
export const HIGH_PROFILE = join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_HIGH-baseline_profile.json');
const HIGH_RESOLVED = join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_HIGH-baseline-resolved-profile_catalog.json');
export const CATALOG_JSON = join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_catalog.json');

/** The URL the generated SSP imports its profile from; --map sends it to NIST's HIGH baseline. */
export const PROFILE_URL = 'https://example.org/oscal/NIST_SP-800-53_rev5_HIGH-baseline_profile.json';
/** What the HIGH baseline's import of the catalog names, once resolved against the profile's file. */
export const CATALOG_URL = new URL('NIST_SP-800-53_rev5_catalog.xml', pathToFileURL(HIGH_PROFILE)).href;

const COMPONENTS = 24;
const INVENTORY_ITEMS = 60;

interface Part {
  id?: string;
  name: string;
  parts?: Part[];
}
interface Control {
  id: string;
  params?: { id: string }[];
  parts?: Part[];
  controls?: Control[];
}

/** A fixed v4-form UUID for each name, so that every run generates the same document. */
function uuidOf(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function* controlsOf(controls: readonly Control[] | undefined): Generator<Control> {
  for (const c of controls ?? []) {
    yield c;
    yield* controlsOf(c.controls);
  }
}

function statementIds(parts: readonly Part[] | undefined): string[] {
  const statement = parts?.find((p) => p.name === 'statement');
  if (!statement?.id) return [];
  const ids: string[] = [];
  const walk = (p: Part) => {
    if (p.id) ids.push(p.id);
    for (const child of p.parts ?? []) walk(child);
  };
  walk(statement);
  return ids;
}

/**
 * An SSP of about 1.3 MB from NIST's content: NIST's example SSP (release 1.1.2) with its profile
 * import pointed at the HIGH baseline, an implemented requirement for every control of that
 * baseline (each statement by two components, each parameter set), more components and inventory.
 */
export function largeSsp(): Record<string, unknown> {
  const example = JSON.parse(readFileSync(SSP_EXAMPLE, 'utf8')) as {
    'system-security-plan': Record<string, unknown> & {
      'system-implementation': { components: { uuid: string; type: string }[]; 'inventory-items': unknown[] };
    };
  };
  const ssp = example['system-security-plan'];
  ssp['import-profile'] = { href: PROFILE_URL };
  const implementation = ssp['system-implementation'];
  const components = Array.from({ length: COMPONENTS }, (_, i) => ({
    uuid: uuidOf(`component ${i}`),
    type: i % 3 === 0 ? 'software' : i % 3 === 1 ? 'service' : 'policy',
    title: `Component ${i}`,
    description: `Component ${i} of the system: it carries out part of each control assigned to it.`,
    status: { state: 'operational' },
  }));
  implementation.components.push(...components);
  for (let i = 0; i < INVENTORY_ITEMS; i++) {
    implementation['inventory-items'].push({
      uuid: uuidOf(`inventory ${i}`),
      description: `Host ${i} of the system's production environment.`,
      props: [
        { name: 'asset-id', value: `asset-${i}` },
        { name: 'ipv4-address', value: `10.0.${i >> 8}.${i & 255}` },
        { name: 'is-scanned', value: 'yes' },
      ],
      'implemented-components': [
        { 'component-uuid': components[i % COMPONENTS]!.uuid, props: [{ name: 'asset-id', value: `asset-${i}` }] },
      ],
    });
  }
  const thisSystem = implementation.components.find((c) => c.type === 'this-system')!.uuid;
  const high = JSON.parse(readFileSync(HIGH_RESOLVED, 'utf8')) as { catalog: { groups: { controls: Control[] }[] } };
  const requirements = [];
  let n = 0;
  for (const control of high.catalog.groups.flatMap((g) => [...controlsOf(g.controls)])) {
    const by = (what: string) =>
      [thisSystem, components[n % COMPONENTS]!.uuid].map((uuid, k) => ({
        'component-uuid': uuid,
        uuid: uuidOf(`${what} by ${k}`),
        description: `How ${k ? `component ${n % COMPONENTS}` : 'the system'} meets ${what}.`,
        'responsible-roles': [{ 'role-id': 'maintainer' }],
      }));
    requirements.push({
      uuid: uuidOf(`requirement ${control.id}`),
      'control-id': control.id,
      ...(control.params?.length
        ? {
            'set-parameters': control.params.map((p) => ({
              'param-id': p.id,
              values: [`the value the organization chose for ${p.id}`],
            })),
          }
        : {}),
      statements: statementIds(control.parts).map((id) => ({
        'statement-id': id,
        uuid: uuidOf(`statement ${id}`),
        'by-components': by(id),
      })),
    });
    n++;
  }
  (ssp['control-implementation'] as Record<string, unknown>)['implemented-requirements'] = requirements;
  return example;
}

/** Writes the SSP into `dir` and returns its path. */
export function writeLargeSsp(dir: string): string {
  const path = join(dir, 'ssp-high.json');
  writeFileSync(path, JSON.stringify(largeSsp(), null, 2));
  return path;
}
