/**
 * The documents of the search benchmark (bench/search.ts), made from the shared content: small
 * catalogs cut from NIST's MODERATE baseline (a group with a few of its controls, and the
 * back-matter resources they link to), NIST's example SSPs, component definitions, POA&M,
 * assessment plan and results, the Rev. 5 baseline profiles, and now and then a whole resolved
 * LOW or MODERATE baseline. Each is made distinct: a new root uuid and content identifier, a
 * retitled title, and words of an invented vocabulary in its metadata remarks and in one of its
 * prose or description texts.
 *
 * The invented words are drawn with Zipf's law (the k-th word about 1/k as often as the first),
 * so that a query can pick its selectivity: the first few are in most documents, the last in a
 * handful. They are not English words, so the natural text never matches them.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_UUID_SCHEME } from '../src/oscal/identifiers.js';
import { SHARED } from './measure.js';

const CONTENT = join(SHARED, 'content', 'oscal-content@88bb8de');
const EXAMPLES = join(CONTENT, 'examples');
const REV5 = join(CONTENT, 'nist.gov', 'SP800-53', 'rev5', 'json');

const EXAMPLE_FILES = [
  'ssp/json/ssp-example.json',
  'ssp/json/ifa_ssp-example.json',
  'ssp/json/oscal_leveraged-example_ssp.json',
  'ssp/json/oscal_leveraging-example_ssp.json',
  'component-definition/json/example-component-definition.json',
  'component-definition/json/example-component.json',
  'poam/json/ifa_plan-of-action-and-milestones.json',
  'ap/json/ifa_assessment-plan-example.json',
  'ar/json/ifa_assessment-results-example.json',
  'catalog/json/basic-catalog.json',
].map((f) => join(EXAMPLES, f));
const PROFILE_FILES = ['LOW', 'MODERATE', 'HIGH'].map((b) =>
  join(REV5, `NIST_SP-800-53_rev5_${b}-baseline_profile.json`),
);
const RESOLVED_FILES = ['LOW', 'MODERATE'].map((b) =>
  join(REV5, `NIST_SP-800-53_rev5_${b}-baseline-resolved-profile_catalog.json`),
);

/** One whole resolved baseline (2.6-3.9 MB) in this many documents. */
const LARGE_EVERY = 2500;
export const VOCABULARY = 3000;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** mulberry32: the same documents (and queries) every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tor',
  'vek',
  'zul',
  'qua',
  'phy',
  'sar',
  'nim',
  'bro',
  'dex',
  'gal',
  'hov',
];
const SYLLABLES2 = ['jun', 'xel', 'wyn', 'ost', 'ure', 'fip', 'yab', 'ciz', 'dru', 'mox', 'pev', 'lut', 'gry', 'sho'];

/** VOCABULARY invented words, the most frequent first. */
export const WORDS: readonly string[] = (() => {
  const rng = random(22);
  const seen = new Set<string>();
  while (seen.size < VOCABULARY) {
    const pick = (list: string[]) => list[Math.floor(rng() * list.length)]!;
    seen.add(pick(SYLLABLES) + pick(SYLLABLES2) + pick(SYLLABLES) + pick(SYLLABLES2));
  }
  return [...seen];
})();

/** A word's rank, drawn with P(k) proportional to 1/(k+1). */
function zipf(rng: () => number): number {
  return Math.min(VOCABULARY - 1, Math.floor(Math.exp(rng() * Math.log(VOCABULARY + 1))) - 1);
}

const words = (rng: () => number, n: number) => Array.from({ length: n }, () => WORDS[zipf(rng)]!).join(' ');

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Obj;

/** The first string under `key` in a walk of the tree, replaced by what `change` makes of it. */
function changeFirst(node: unknown, key: string, change: (s: string) => string): boolean {
  if (Array.isArray(node)) return node.some((item) => changeFirst(item, key, change));
  if (!isObject(node)) return false;
  if (typeof node[key] === 'string') {
    node[key] = change(node[key]);
    return true;
  }
  return Object.values(node).some((v) => changeFirst(v, key, change));
}

/** Removes the links to fragments that `keep` refuses, and the lists left empty. */
function dropLinks(node: unknown, keep: (target: string) => boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) dropLinks(item, keep);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'links' && Array.isArray(value)) {
      const kept = (value as Obj[]).filter((l) => {
        const href = String(l.href);
        return !href.startsWith('#') || keep(href.slice(1));
      });
      if (kept.length) node.links = kept;
      else delete node.links;
    } else dropLinks(value, keep);
  }
}

export interface Generated {
  /** The content identifier, which is the store's document id. */
  id: string;
  model: string;
  json: string;
  large: boolean;
}

export class Corpus {
  private readonly examples: Obj[];
  private readonly resolved: Obj[];
  private readonly groups: { group: Obj; resources: Map<string, Obj> }[];

  constructor() {
    this.examples = [...EXAMPLE_FILES, ...PROFILE_FILES].map(readJson);
    this.resolved = RESOLVED_FILES.map(readJson);
    const moderate = this.resolved[1]!.catalog as Obj;
    const resources = new Map(
      ((moderate['back-matter'] as { resources: Obj[] }).resources ?? []).map((r) => [String(r.uuid), r]),
    );
    this.groups = (moderate.groups as Obj[]).map((group) => ({ group, resources }));
  }

  /** The i-th document: the same template and words for the same i, a new uuid each call. */
  document(i: number): Generated {
    const rng = random(1000 + i);
    const large = i % LARGE_EVERY === LARGE_EVERY - 1;
    let content: Obj;
    if (large) content = structuredClone(this.resolved[Math.floor(i / LARGE_EVERY) % this.resolved.length]!);
    else if (i % 2 === 0) content = this.smallCatalog(rng);
    else content = structuredClone(this.examples[((i - 1) / 2) % this.examples.length]!);
    const model = Object.keys(content)[0]!;
    const root = content[model] as Obj;
    const id = randomUUID();
    root.uuid = randomUUID();
    const metadata = root.metadata as Obj;
    metadata.title = `${String(metadata.title)}, copy ${i} ${WORDS[zipf(rng)]!}`;
    metadata['last-modified'] = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
    metadata['document-ids'] = [{ scheme: CONTENT_UUID_SCHEME, identifier: id }];
    metadata.remarks = `Benchmark copy ${i}: ${words(rng, 6 + Math.floor(rng() * 7))}.`;
    const mixed = words(rng, 3 + Math.floor(rng() * 4));
    if (!changeFirst(root.groups ?? root, 'prose', (s) => `${s} ${mixed}`))
      changeFirst(root, 'description', (s) => `${s} ${mixed}`);
    return { id, model, json: JSON.stringify(content), large };
  }

  /** One family of the MODERATE baseline with one to four of its controls. */
  private smallCatalog(rng: () => number): Obj {
    const { group, resources } = this.groups[Math.floor(rng() * this.groups.length)]!;
    const all = group.controls as Obj[];
    const count = 1 + Math.floor(rng() * 4);
    const from = Math.floor(rng() * Math.max(1, all.length - count));
    const controls = structuredClone(all.slice(from, from + count));
    // The resources the controls link to come along; links to controls left out go, so that none dangles.
    const ids = new Set([...JSON.stringify(controls).matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]!));
    dropLinks(controls, (target) => resources.has(target) || ids.has(target));
    const linked = new Set([...JSON.stringify(controls).matchAll(/"href":"#([0-9a-f-]{36})"/g)].map((m) => m[1]!));
    const used = [...linked].flatMap((uuid) => (resources.has(uuid) ? [structuredClone(resources.get(uuid)!)] : []));
    const source = (this.resolved[1]!.catalog as Obj).metadata as Obj;
    const catalog: Obj = {
      uuid: '',
      metadata: {
        title: `${String(group.title)} controls`,
        'last-modified': '',
        version: String(source.version),
        'oscal-version': String(source['oscal-version']),
      },
      groups: [{ id: group.id, class: group.class, title: group.title, controls }],
    };
    if (used.length) catalog['back-matter'] = { resources: used };
    return { catalog };
  }
}
