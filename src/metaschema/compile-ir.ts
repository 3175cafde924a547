import { basename, dirname, resolve } from 'node:path';
import type {
  AssemblyDefinition, Constraint, DataType, Definition, FieldDefinition, FlagDefinition, FlagInstance,
  GroupAs, ModelInstance, ModelIR, NamedModelInstance,
} from './ir.js';
import { childElements, firstChild, readXmlTree, textOf, type XmlElement } from './xml-tree.js';

type Kind = 'flag' | 'field' | 'assembly';
type NameTable = Record<Kind, Map<string, string>>;

interface Module {
  path: string;
  shortName: string;
  root: XmlElement;
  imports: Module[];
  /** Global definitions this module offers to importers, after its own imports. */
  exported: NameTable;
  /** Every definition a reference inside this module can reach. */
  visible: NameTable;
}

/** Older releases spell some datatypes the XSD way; the IR uses the current names. */
export const DATATYPE_ALIASES: Record<string, DataType> = {
  dateTime: 'date-time',
  'dateTime-with-timezone': 'date-time-with-timezone',
  nonNegativeInteger: 'non-negative-integer',
  positiveInteger: 'positive-integer',
  base64Binary: 'base64',
  email: 'email-address',
  NCName: 'ncname',
  dayTimeDuration: 'day-time-duration',
  yearMonthDuration: 'year-month-duration',
};

export const DATATYPES: readonly DataType[] = [
  'string', 'token', 'uuid', 'uri', 'uri-reference', 'email-address', 'base64', 'date', 'date-time',
  'date-with-timezone', 'date-time-with-timezone', 'day-time-duration', 'year-month-duration', 'ncname',
  'ip-v4-address', 'ip-v6-address', 'hostname', 'boolean', 'integer', 'non-negative-integer',
  'positive-integer', 'decimal', 'string-or-decimal', 'markup-line', 'markup-multiline',
];

const KNOWN_TYPES = new Set<string>(DATATYPES);

export function dataType(raw: string | undefined, where: string): DataType {
  const name = raw === undefined ? 'string' : (DATATYPE_ALIASES[raw] ?? raw);
  if (!KNOWN_TYPES.has(name)) throw new Error(`${where}: unknown datatype ${raw}`);
  return name as DataType;
}

function emptyTable(): NameTable {
  return { flag: new Map(), field: new Map(), assembly: new Map() };
}

function copyInto(target: NameTable, source: NameTable): void {
  for (const kind of ['flag', 'field', 'assembly'] as const) {
    for (const [name, key] of source[kind]) target[kind].set(name, key);
  }
}

const DEFINE_KIND: Record<string, Kind> = { 'define-flag': 'flag', 'define-field': 'field', 'define-assembly': 'assembly' };

function occurs(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return value === 'unbounded' ? -1 : Number(value);
}

function docs(el: XmlElement): { formalName?: string; description?: string } {
  const out: { formalName?: string; description?: string } = {};
  const formalName = textOf(firstChild(el, 'formal-name'));
  const description = textOf(firstChild(el, 'description'));
  if (formalName) out.formalName = formalName;
  if (description) out.description = description;
  return out;
}

function constraintsOf(el: XmlElement): Constraint[] {
  const c = firstChild(el, 'constraint');
  return c ? childElements(c) : [];
}

/**
 * Compiles the Metaschema module graph rooted at `completeModulePath` (NIST's
 * oscal_complete_metaschema.xml) into the IR, applying the specification's definition
 * name resolution: each module sees its imports' global definitions, later imports shadowing
 * earlier ones, and its own definitions shadowing all imported ones.
 */
export function compileIR(completeModulePath: string): ModelIR {
  const modules = new Map<string, Module>();
  const definitions: Record<string, Definition> = {};
  const roots: Record<string, string> = {};
  const topLevel = new Map<string, { module: Module; el: XmlElement }>();

  function load(path: string): Module {
    const existing = modules.get(path);
    if (existing) return existing;
    const root = readXmlTree(path);
    const shortName = textOf(firstChild(root, 'short-name')) ?? path;
    const module: Module = { path, shortName, root, imports: [], exported: emptyTable(), visible: emptyTable() };
    modules.set(path, module);
    for (const imp of childElements(root, 'import')) {
      module.imports.push(load(resolve(dirname(path), imp.attrs.href!)));
    }
    for (const imported of module.imports) copyInto(module.exported, imported.exported);
    copyInto(module.visible, module.exported);
    for (const def of childElements(root)) {
      const kind = DEFINE_KIND[def.name];
      if (!kind) continue;
      const key = `${shortName}:${kind}:${def.attrs.name}`;
      topLevel.set(key, { module, el: def });
      module.visible[kind].set(def.attrs.name!, key);
      if (def.attrs.scope !== 'local') module.exported[kind].set(def.attrs.name!, key);
    }
    return module;
  }

  function lookup(module: Module, kind: Kind, name: string, where: string): string {
    const key = module.visible[kind].get(name);
    if (!key) throw new Error(`${where}: no ${kind} definition named ${name} is visible in ${module.shortName}`);
    return key;
  }

  function effectiveName(instance: XmlElement, defKey: string): string {
    return textOf(firstChild(instance, 'use-name')) ?? definitionName(defKey);
  }

  /** Referenced definitions are compiled on first use so their use-name is known. */
  function definitionName(key: string): string {
    const def = definitions[key];
    if (def) return def.name;
    const source = topLevel.get(key)!;
    return compileDefinition(source.module, source.el, '').name;
  }

  function compileFlags(module: Module, owner: XmlElement, ownerKey: string): FlagInstance[] {
    const flags: FlagInstance[] = [];
    for (const el of childElements(owner)) {
      if (el.name === 'flag') {
        const def = lookup(module, 'flag', el.attrs.ref!, ownerKey);
        flags.push({ name: effectiveName(el, def), def, required: el.attrs.required === 'yes', constraints: constraintsOf(el), ...docs(el) });
      } else if (el.name === 'define-flag') {
        const def = compileDefinition(module, el, `${ownerKey}/`);
        flags.push({ name: def.name, def: def.key, required: el.attrs.required === 'yes', constraints: [], ...docs(el) });
      }
    }
    return flags;
  }

  function compileModel(module: Module, model: XmlElement | undefined, ownerKey: string): ModelInstance[] {
    if (!model) return [];
    const out: ModelInstance[] = [];
    for (const el of childElements(model)) {
      if (el.name === 'choice') out.push({ kind: 'choice', options: compileModel(module, el, ownerKey) });
      else if (el.name === 'any') out.push({ kind: 'any' });
      else if (el.name === 'assembly' || el.name === 'field' || el.name === 'define-assembly' || el.name === 'define-field') {
        out.push(compileNamedInstance(module, el, ownerKey));
      }
    }
    return out;
  }

  function compileNamedInstance(module: Module, el: XmlElement, ownerKey: string): NamedModelInstance {
    const kind = el.name.endsWith('assembly') ? 'assembly' : 'field';
    const inline = el.name.startsWith('define-');
    const def = inline ? compileDefinition(module, el, `${ownerKey}/`).key : lookup(module, kind, el.attrs.ref!, ownerKey);
    const groupEl = firstChild(el, 'group-as');
    const instance: NamedModelInstance = {
      kind,
      name: inline ? definitionName(def) : effectiveName(el, def),
      def,
      minOccurs: occurs(el.attrs['min-occurs'], 0),
      maxOccurs: occurs(el.attrs['max-occurs'], 1),
      wrapped: el.attrs['in-xml'] !== 'UNWRAPPED',
      ...docs(el),
    };
    if (groupEl) {
      const group: GroupAs = {
        name: groupEl.attrs.name!,
        inJson: (groupEl.attrs['in-json'] as GroupAs['inJson'] | undefined) ?? 'SINGLETON_OR_ARRAY',
        inXml: (groupEl.attrs['in-xml'] as GroupAs['inXml'] | undefined) ?? 'UNGROUPED',
      };
      instance.groupAs = group;
    }
    if (el.attrs.deprecated) instance.deprecated = el.attrs.deprecated;
    return instance;
  }

  function compileDefinition(module: Module, el: XmlElement, keyPrefix: string): Definition {
    const kind = DEFINE_KIND[el.name]!;
    const name = el.attrs.name!;
    const key = keyPrefix ? `${keyPrefix}${kind}:${name}` : `${module.shortName}:${kind}:${name}`;
    const existing = definitions[key];
    if (existing) return existing;
    const base = {
      key,
      name: textOf(firstChild(el, 'use-name')) ?? name,
      module: module.shortName,
      constraints: constraintsOf(el),
      ...docs(el),
      ...(el.attrs.deprecated ? { deprecated: el.attrs.deprecated } : {}),
    };
    if (kind === 'flag') {
      const def: FlagDefinition = { ...base, kind, type: dataType(el.attrs['as-type'], key) };
      if (el.attrs.default !== undefined) def.default = el.attrs.default;
      definitions[key] = def;
      return def;
    }
    if (kind === 'field') {
      const def: FieldDefinition = { ...base, kind, type: dataType(el.attrs['as-type'], key), flags: [] };
      definitions[key] = def;
      def.flags = compileFlags(module, el, key);
      const valueKey = firstChild(el, 'json-value-key');
      if (valueKey?.attrs['flag-name']) def.valueKeyFlag = valueKey.attrs['flag-name'];
      else if (valueKey) def.valueKey = textOf(valueKey)!;
      const valueKeyFlag = firstChild(el, 'json-value-key-flag');
      if (valueKeyFlag) def.valueKeyFlag = valueKeyFlag.attrs['flag-name']!;
      const jsonKey = firstChild(el, 'json-key');
      if (jsonKey) def.jsonKey = jsonKey.attrs['flag-name']!;
      if (el.attrs.default !== undefined) def.default = el.attrs.default;
      return def;
    }
    const def: AssemblyDefinition = { ...base, kind: 'assembly', flags: [], model: [] };
    definitions[key] = def;
    const rootName = textOf(firstChild(el, 'root-name'));
    if (rootName) {
      def.rootName = rootName;
      roots[rootName] = key;
    }
    def.flags = compileFlags(module, el, key);
    def.model = compileModel(module, firstChild(el, 'model'), key);
    const jsonKey = firstChild(el, 'json-key');
    if (jsonKey) def.jsonKey = jsonKey.attrs['flag-name']!;
    return def;
  }

  const complete = load(completeModulePath);
  for (const { module, el } of topLevel.values()) compileDefinition(module, el, '');
  return {
    version: textOf(firstChild(complete.root, 'schema-version'))!,
    namespace: textOf(firstChild(complete.root, 'namespace'))!,
    definitions,
    roots,
    modules: Object.fromEntries([...modules.values()].map((m) => [m.shortName, basename(m.path)])),
  };
}
