import { dirname, resolve } from 'node:path';
import { childElements, firstChild, readXmlTree, textOf, type XmlElement } from './xml-tree.js';

export type Kind = 'flag' | 'field' | 'assembly';
/** Definition keys by kind and name. */
type NameTable = Record<Kind, Map<string, string>>;

export interface Module {
  path: string;
  shortName: string;
  root: XmlElement;
  imports: Module[];
  /** Global definitions this module offers to importers, after its own imports. */
  exported: NameTable;
  /** Every definition a reference inside this module can reach. */
  visible: NameTable;
}

/** A definition at the top level of a module (global, or local to the module). */
export interface TopLevelDefinition {
  module: Module;
  el: XmlElement;
}

export const DEFINE_KIND: Record<string, Kind> = {
  'define-flag': 'flag',
  'define-field': 'field',
  'define-assembly': 'assembly',
};

function emptyTable(): NameTable {
  return { flag: new Map(), field: new Map(), assembly: new Map() };
}

function copyInto(target: NameTable, source: NameTable): void {
  for (const kind of ['flag', 'field', 'assembly'] as const) {
    for (const [name, key] of source[kind]) target[kind].set(name, key);
  }
}

/**
 * The Metaschema modules reachable from one module through its imports, each read once, with the
 * specification's definition name resolution: each module sees its imports' global definitions,
 * later imports shadowing earlier ones, and its own definitions shadowing all imported ones.
 */
export class ModuleGraph {
  /** Every module, by path, in the order they were first reached. */
  readonly modules = new Map<string, Module>();
  /** Every top-level definition, by key, in the order the modules declare them (imports first). */
  readonly topLevel = new Map<string, TopLevelDefinition>();
  /** The module the graph was read from. */
  readonly root: Module;

  constructor(rootModulePath: string) {
    this.root = this.load(rootModulePath);
  }

  /** The key of the definition `name` of `kind` that a reference in `module` reaches. */
  lookup(module: Module, kind: Kind, name: string, where: string): string {
    const key = module.visible[kind].get(name);
    if (!key) throw new Error(`${where}: no ${kind} definition named ${name} is visible in ${module.shortName}`);
    return key;
  }

  /** Reads a module and (first) everything it imports; a module reached again is the one already read. */
  private load(path: string): Module {
    const existing = this.modules.get(path);
    if (existing) return existing;
    const root = readXmlTree(path);
    const shortName = textOf(firstChild(root, 'short-name')) ?? path;
    const module: Module = { path, shortName, root, imports: [], exported: emptyTable(), visible: emptyTable() };
    this.modules.set(path, module);
    for (const imp of childElements(root, 'import')) {
      module.imports.push(this.load(resolve(dirname(path), imp.attrs.href!)));
    }
    this.takeImportedNames(module);
    this.declareOwnDefinitions(module);
    return module;
  }

  /** What the imports export, later imports shadowing earlier ones, is exported and visible in turn. */
  private takeImportedNames(module: Module): void {
    for (const imported of module.imports) copyInto(module.exported, imported.exported);
    copyInto(module.visible, module.exported);
  }

  /** The module's own top-level definitions shadow imported ones; only global ones are exported. */
  private declareOwnDefinitions(module: Module): void {
    for (const def of childElements(module.root)) {
      const kind = DEFINE_KIND[def.name];
      if (!kind) continue;
      const key = `${module.shortName}:${kind}:${def.attrs.name}`;
      this.topLevel.set(key, { module, el: def });
      module.visible[kind].set(def.attrs.name!, key);
      if (def.attrs.scope !== 'local') module.exported[kind].set(def.attrs.name!, key);
    }
  }
}
