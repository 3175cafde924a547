/**
 * The shape of a corpus entry, and the expansion of entries into cases (one per base).
 *
 * Verdicts are those of the release's JSON Schema as the OSCAL Metaschema defines it: structure,
 * datatypes and closed enumerations. Metaschema constraints that need a document-wide view
 * (uniqueness, references, allowed values scoped by a target expression) are not part of it,
 * so no entry relies on them; added props use a non-NIST namespace, which no constraint covers.
 */
import { BASES, baseById, lineOf, type Base, type Line, type Model } from './bases.js';
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
  /** The verdict the OSCAL release gives, per release line where the lines differ. */
  expect: Verdict | Readonly<Partial<Record<Line, Verdict>>>;
  /** Also fed as XML and/or YAML (written with serializeOscal): only where those formats can carry the change. */
  alsoAs?: readonly ('xml' | 'yaml')[];
  /** JSON pointer (relative to the model, or absolute) that every issue our validator reports must have. */
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

function verdictFor(mutation: Mutation, line: Line): Verdict {
  const verdict = typeof mutation.expect === 'string' ? mutation.expect : mutation.expect[line];
  if (!verdict) throw new Error(`${mutation.what}: no expected verdict for release line ${line}`);
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
        expect: verdictFor(m, base.line),
        alsoAs: m.alsoAs ?? [],
      };
      if (m.path !== undefined) entry.path = absolute(m.path, base.model);
      return entry;
    }),
  );
}

/** Bases by model and line, for entries that apply to all of them. */
export function basesOf(model: Model, lines: readonly Line[] = ['1.0', '1.1', '1.2']): string[] {
  return BASES.filter((b) => b.model === model && lines.includes(b.line)).map((b) => b.id);
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
    if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && typeof metadata['oscal-version'] === 'string') {
      return metadata['oscal-version'];
    }
  }
  return undefined;
}

export { lineOf };
