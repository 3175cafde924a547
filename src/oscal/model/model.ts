import { readFileSync } from 'node:fs';
import type {
  AssemblyBinding,
  Bindings,
  ChildBinding,
  DefinitionBinding,
  FieldBinding,
  FlagBinding,
} from '../../metaschema/bindings.js';
import { OscalError } from '../errors.js';
import { SUPPORTED_VERSIONS, generatedFile } from './versions.js';

export type { AssemblyBinding, ChildBinding, DefinitionBinding, FieldBinding, FlagBinding };

/** An XML element a definition may contain: a child, or the wrapper element of one. */
export interface XmlEntry {
  name: string;
  child: ChildBinding;
  /** Position of the child in the definition's children. */
  position: number;
  isWrapper: boolean;
}

/** Lookup indexes built once per definition when a release's tables are first used. */
export interface DefinitionIndex {
  flags: Map<string, FlagBinding>;
  /**
   * The elements it may contain, in the definition's order: searched in turn rather than by
   * hash, since children arrive in this order and the parser's names are fresh strings.
   */
  xml: XmlEntry[];
  json: Map<string, ChildBinding>;
  unwrapped?: ChildBinding;
}

export class OscalModel {
  readonly version: string;
  readonly namespace: string;
  readonly defs: readonly DefinitionBinding[];
  readonly roots: Readonly<Record<string, number>>;
  private readonly indexes: DefinitionIndex[] = [];

  constructor(bindings: Bindings) {
    this.version = bindings.version;
    this.namespace = bindings.namespace;
    this.defs = bindings.defs;
    this.roots = bindings.roots;
    for (const def of bindings.defs) this.indexes.push(indexOf(def));
  }

  index(def: number): DefinitionIndex {
    return this.indexes[def]!;
  }

  rootDef(name: string): number | undefined {
    return Object.hasOwn(this.roots, name) ? this.roots[name] : undefined;
  }
}

function indexOf(def: DefinitionBinding): DefinitionIndex {
  const index: DefinitionIndex = { flags: new Map(def.flags.map((f) => [f.name, f])), xml: [], json: new Map() };
  if (def.kind === 'assembly') {
    const xml = new Map<string, XmlEntry>();
    def.children.forEach((child, position) => {
      index.json.set(child.json, child);
      if (child.unwrapped) index.unwrapped = child;
      else if (child.wrapper) xml.set(child.wrapper, { name: child.wrapper, child, position, isWrapper: true });
      else xml.set(child.name, { name: child.name, child, position, isWrapper: false });
    });
    index.xml = [...xml.values()];
  }
  return index;
}

const loaded = new Map<string, OscalModel>();

export function isSupportedVersion(version: unknown): version is string {
  return typeof version === 'string' && SUPPORTED_VERSIONS.includes(version);
}

/** The model of one OSCAL release; tables are read on first use and kept. */
export function modelFor(version: unknown, root = '*'): OscalModel {
  let model = typeof version === 'string' ? loaded.get(version) : undefined;
  if (!model) {
    if (!isSupportedVersion(version)) throw unsupportedVersion(version, root);
    model = new OscalModel(JSON.parse(readFileSync(generatedFile(`bindings/v${version}.json`), 'utf8')));
    loaded.set(version, model);
  }
  return model;
}

export function unsupportedVersion(version: unknown, root: string): OscalError {
  const shown = version === undefined ? 'no oscal-version' : `oscal-version ${JSON.stringify(version)}`;
  return new OscalError(
    'unsupported-version',
    `${shown} is not supported: metadata/oscal-version must be one of ${SUPPORTED_VERSIONS.join(', ')}`,
    { path: `/${root}/metadata/oscal-version` },
  );
}
