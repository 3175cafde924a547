/**
 * The valid documents the corpus mutates. All are NIST's published content, except the
 * mapping-collection, for which NIST publishes no example: it is written here from the 1.2.x
 * mapping Metaschema modules.
 *
 * NIST's 1.1.2 examples also serve as the bases of the other release lines. For 1.0.x this is
 * no given (1.1 added to the models), so each such base is checked against NIST's official
 * schema of its release by the test; the examples pass unchanged once they declare the older
 * release, except under 1.0.5 (see NIST_1_0_5_CLOSED_LISTS). For 1.1.x and 1.2.x there is no
 * official schema here: the 1.1 patch releases differ from 1.1.2 in constraints only, not in
 * the model, and OSCAL's semantic versioning keeps 1.1 documents valid in 1.2.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT, REV5_A849 } from '../support/shared.js';
import { applyEdits, remove, type Edit, type JsonObject } from './json-edit.js';

export const MODELS = [
  'catalog',
  'profile',
  'component-definition',
  'system-security-plan',
  'assessment-plan',
  'assessment-results',
  'plan-of-action-and-milestones',
  'mapping-collection',
] as const;
export type Model = (typeof MODELS)[number];

export const LINES = ['1.0', '1.1', '1.2'] as const;
export type Line = (typeof LINES)[number];

export function lineOf(version: string): Line {
  const line = version.split('.').slice(0, 2).join('.');
  if (!(LINES as readonly string[]).includes(line))
    throw new Error(`OSCAL ${version} is in no release line of the corpus`);
  return line as Line;
}

const EXAMPLES = join(CONTENT, 'oscal-content@88bb8de', 'examples');
const REV5_1_0_0 = join(REV5_A849, 'json');
const REV5_1_1_2 = join(CONTENT, 'oscal-content@88bb8de', 'nist.gov', 'SP800-53', 'rev5', 'json');

interface Source {
  model: Model;
  /** Where the document comes from, for test names and messages. */
  from: string;
  read(): JsonObject;
}

const parsed = new Map<string, JsonObject>();

function file(model: Model, path: string, from: string): Source {
  return {
    model,
    from,
    read() {
      let json = parsed.get(path);
      if (!json) {
        json = JSON.parse(readFileSync(path, 'utf8')) as JsonObject;
        parsed.set(path, json);
      }
      return structuredClone(json);
    },
  };
}

const catalogExample = file(
  'catalog',
  join(EXAMPLES, 'catalog', 'json', 'basic-catalog.json'),
  'examples/basic-catalog',
);
const profileLow100 = file(
  'profile',
  join(REV5_1_0_0, 'NIST_SP-800-53_rev5_LOW-baseline_profile.json'),
  'a849dbc LOW baseline profile',
);
const profileLow112 = file(
  'profile',
  join(REV5_1_1_2, 'NIST_SP-800-53_rev5_LOW-baseline_profile.json'),
  '88bb8de LOW baseline profile',
);
const componentExample = file(
  'component-definition',
  join(EXAMPLES, 'component-definition', 'json', 'example-component-definition.json'),
  'examples/example-component-definition',
);
const ifaSsp = file(
  'system-security-plan',
  join(EXAMPLES, 'ssp', 'json', 'ifa_ssp-example.json'),
  'examples/ifa_ssp-example',
);
const sspExample = file(
  'system-security-plan',
  join(EXAMPLES, 'ssp', 'json', 'ssp-example.json'),
  'examples/ssp-example',
);
const apExample = file(
  'assessment-plan',
  join(EXAMPLES, 'ap', 'json', 'ifa_assessment-plan-example.json'),
  'examples/ifa_assessment-plan-example',
);
const arExample = file(
  'assessment-results',
  join(EXAMPLES, 'ar', 'json', 'ifa_assessment-results-example.json'),
  'examples/ifa_assessment-results-example',
);
const poamExample = file(
  'plan-of-action-and-milestones',
  join(EXAMPLES, 'poam', 'json', 'ifa_plan-of-action-and-milestones.json'),
  'examples/ifa_plan-of-action-and-milestones',
);

/**
 * The full SP 800-53 rev5 catalog of the 1.0.0 set, cut down to two controls of its first
 * group (one enhancement kept) and three back-matter resources: copying, converting and
 * validating 3 MB for every case would cost minutes, and a schema judges every control alike.
 */
const rev5Catalog100: Source = (() => {
  let trimmed: JsonObject | undefined;
  return {
    model: 'catalog',
    from: 'a849dbc SP 800-53 rev5 catalog, trimmed',
    read() {
      if (!trimmed) {
        const doc = JSON.parse(
          readFileSync(join(REV5_1_0_0, 'NIST_SP-800-53_rev5_catalog.json'), 'utf8'),
        ) as JsonObject;
        const catalog = doc.catalog as JsonObject;
        const group = (catalog.groups as JsonObject[])[0]!;
        const controls = (group.controls as JsonObject[]).slice(0, 2);
        for (const control of controls)
          if (Array.isArray(control.controls)) control.controls = control.controls.slice(0, 1);
        catalog.groups = [{ ...group, controls }];
        const backMatter = catalog['back-matter'] as JsonObject;
        backMatter.resources = (backMatter.resources as JsonObject[]).slice(0, 3);
        trimmed = doc;
      }
      return structuredClone(trimmed);
    },
  };
})();

/** No NIST example exists; the smallest document the 1.2.x mapping modules allow, plus a qualifier. */
const mappingCollection: Source = {
  model: 'mapping-collection',
  from: 'written from the 1.2.x mapping Metaschema',
  read: () => ({
    'mapping-collection': {
      uuid: '2d7b1e0c-3f3a-4c55-9a8e-6a1f0d1c2b3e',
      metadata: {
        title: 'SP 800-53 rev5 to ISO/IEC 27002 excerpt',
        'last-modified': '2024-05-01T12:00:00Z',
        version: '1.0',
        'oscal-version': '1.2.2',
      },
      provenance: {
        method: 'human',
        'matching-rationale': 'semantic',
        status: 'draft',
        'mapping-description': 'Maps two access control requirements of the basic example catalog.',
      },
      // SINGLETON_OR_ARRAY (the Metaschema default for a group-as without in-json): one mapping is written bare.
      mappings: {
        uuid: '6c1e9f0a-8b2d-4e7f-9a3c-5d4b2a1f0e9d',
        'source-resource': { type: 'catalog', href: 'https://example.org/rev5-catalog.json' },
        'target-resource': { type: 'catalog', href: '../catalog/json/basic-catalog.json' },
        maps: [
          {
            uuid: '0f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b',
            relationship: 'intersects-with',
            sources: [{ type: 'control', 'id-ref': 'ac-1' }],
            targets: [{ type: 'control', 'id-ref': 's2.1.1' }],
            qualifiers: [
              {
                subject: 'target',
                predicate: 'has-requirement',
                category: 'addressable',
                description: 'Only the policy part applies.',
              },
            ],
          },
        ],
      },
    },
  }),
};

export interface Base {
  /** `<model>@<release>`, e.g. catalog@1.0.0. */
  id: string;
  model: Model;
  version: string;
  line: Line;
  from: string;
  /** A fresh copy, declaring `version`. */
  json(): JsonObject;
}

/** `adjustments` take out what NIST's schema of the release will not accept, so that it can judge the mutations. */
function base(source: Source, version: string, adjustments: readonly Edit[] = []): Base {
  return {
    id: `${source.model}@${version}`,
    model: source.model,
    version,
    line: lineOf(version),
    from: adjustments.length ? `${source.from}, adjusted` : source.from,
    json() {
      const doc = applyEdits(source.read(), source.model, adjustments) as JsonObject;
      const metadata = (doc[source.model] as JsonObject).metadata as JsonObject;
      metadata['oscal-version'] = version;
      return doc;
    },
  };
}

/**
 * NIST's 1.0.5 JSON Schema closes every allowed-values list, also those the release leaves open
 * (allow-other="yes"), so it rejects the example's link rel "website" and activity prop "method";
 * both are optional and are left out. The corpus shows that schema bug in cases of its own.
 */
const NIST_1_0_5_CLOSED_LISTS: readonly Edit[] = [
  remove('metadata/parties/1/links/0/rel'),
  remove('local-definitions/activities/0/props'),
];

/** Releases are spread over the bases so that every compiled schema of a line is exercised. */
export const BASES: readonly Base[] = [
  base(rev5Catalog100, '1.0.0'),
  base(catalogExample, '1.0.4'),
  base(profileLow100, '1.0.0'),
  base(profileLow112, '1.0.3'),
  base(componentExample, '1.0.2'),
  base(ifaSsp, '1.0.1'),
  base(sspExample, '1.0.4'),
  base(apExample, '1.0.2'),
  base(arExample, '1.0.5', NIST_1_0_5_CLOSED_LISTS),
  base(poamExample, '1.0.6'),

  base(catalogExample, '1.1.2'),
  base(profileLow112, '1.1.2'),
  base(componentExample, '1.1.2'),
  base(ifaSsp, '1.1.2'),
  base(sspExample, '1.1.0'),
  base(apExample, '1.1.2'),
  base(arExample, '1.1.3'),
  base(poamExample, '1.1.1'),

  base(catalogExample, '1.2.1'),
  base(profileLow112, '1.2.0'),
  base(componentExample, '1.2.2'),
  base(ifaSsp, '1.2.0'),
  base(apExample, '1.2.2'),
  base(arExample, '1.2.1'),
  base(poamExample, '1.2.2'),
  base(mappingCollection, '1.2.0'),
  base(mappingCollection, '1.2.2'),
];

export function baseById(id: string): Base {
  const found = BASES.find((b) => b.id === id);
  if (!found) throw new Error(`no base ${id}`);
  return found;
}
