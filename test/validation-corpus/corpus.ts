/**
 * The shape of a corpus entry, and the expansion of entries into cases (one per base).
 *
 * Verdicts are those of the release's JSON Schema as the OSCAL Metaschema defines it: structure,
 * datatypes and closed enumerations. Metaschema constraints that need a document-wide view
 * (uniqueness, references, allowed values scoped by a target expression) are not part of it,
 * so no entry relies on them; added props use a non-NIST namespace, which no constraint covers.
 */
import { BASES, baseById, type Base, type Model } from './bases.js';
import { absolute, type Edit, type Json } from './json-edit.js';

export type Verdict = 'valid' | 'invalid';

export const MUTATION_KINDS = [
  'wrong-type',
  'missing-required',
  'bad-uuid',
  'bad-token',
  'date-time',
  'bad-date',
  'bad-email',
  'bad-uri',
  'bad-string',
  'extra-property',
  'singleton-for-array',
  'empty-array',
  'bad-enum',
  'choice',
  'wrong-root',
  'oscal-version',
  'out-of-range',
  'markup-line',
  'cross-release',
  'valid-edit',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  kind: MutationKind;
  /** Says what changes, e.g. "port-range transport SCTP". */
  what: string;
  /** Base ids (`<model>@<release>`) the edits are applied to. */
  on: readonly string[];
  edits: readonly Edit[];
  /**
   * The verdict the OSCAL release gives; where releases differ, keyed by release line ("1.1")
   * and, for a release unlike the rest of its line, by release ("1.0.0").
   */
  expect: Verdict | Readonly<Record<string, Verdict>>;
  /** Also fed as XML and/or YAML (written with serializeOscal): only where those formats can carry the change. */
  alsoAs?: readonly ('xml' | 'yaml')[];
  /** JSON pointer (relative to the model, or absolute) that every issue our validator reports must have, in every format. */
  path?: string;
}

export interface CorpusCase {
  /** Unique and stable: the NIST schema bug list refers to cases by it. */
  name: string;
  base: Base;
  kind: MutationKind;
  edits: readonly Edit[];
  expect: Verdict;
  alsoAs: readonly ('xml' | 'yaml')[];
  path?: string;
}

function verdictFor(mutation: Mutation, base: Base): Verdict {
  const verdict =
    typeof mutation.expect === 'string'
      ? mutation.expect
      : (mutation.expect[base.version] ?? mutation.expect[base.line]);
  if (!verdict) throw new Error(`${mutation.what}: no expected verdict for ${base.id}`);
  return verdict;
}

export function expand(mutations: readonly Mutation[]): CorpusCase[] {
  return mutations.flatMap((m) =>
    m.on.map((id) => {
      const base = baseById(id);
      const entry: CorpusCase = {
        name: `${base.id} ${m.kind}: ${m.what}`,
        base,
        kind: m.kind,
        edits: m.edits,
        expect: verdictFor(m, base),
        alsoAs: m.alsoAs ?? [],
      };
      if (m.path !== undefined) entry.path = absolute(m.path, base.model);
      return entry;
    }),
  );
}

/** Every base of a model, for entries that apply to all of them. */
export function basesOf(model: Model): string[] {
  return BASES.filter((b) => b.model === model).map((b) => b.id);
}

/**
 * The OSCAL release a document declares in metadata/oscal-version, whatever its root is called
 * (so that a document with a misspelt root still declares one).
 */
export function declaredVersion(doc: Json): string | undefined {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  for (const [key, body] of Object.entries(doc)) {
    if (key === '$schema' || typeof body !== 'object' || body === null || Array.isArray(body)) continue;
    const metadata = body.metadata;
    if (
      typeof metadata === 'object' &&
      metadata !== null &&
      !Array.isArray(metadata) &&
      typeof metadata['oscal-version'] === 'string'
    ) {
      return metadata['oscal-version'];
    }
  }
  return undefined;
}
