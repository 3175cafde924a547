import { basename } from 'node:path';
import type {
  AssemblyDefinition,
  Constraint,
  DataType,
  Definition,
  FieldDefinition,
  FlagDefinition,
  FlagInstance,
  GroupAs,
  ModelInstance,
  ModelIR,
  NamedModelInstance,
} from './ir.js';
import { DEFINE_KIND, ModuleGraph, type Module } from './module-graph.js';
import { childElements, firstChild, textOf, type XmlElement } from './xml-tree.js';

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
  'string',
  'token',
  'uuid',
  'uri',
  'uri-reference',
  'email-address',
  'base64',
  'date',
  'date-time',
  'date-with-timezone',
  'date-time-with-timezone',
  'day-time-duration',
  'year-month-duration',
  'ncname',
  'ip-v4-address',
  'ip-v6-address',
  'hostname',
  'boolean',
  'integer',
  'non-negative-integer',
  'positive-integer',
  'decimal',
  'string-or-decimal',
  'markup-line',
  'markup-multiline',
];

const KNOWN_TYPES = new Set<string>(DATATYPES);

export function dataType(raw: string | undefined, where: string): DataType {
  const name = raw === undefined ? 'string' : (DATATYPE_ALIASES[raw] ?? raw);
  if (!KNOWN_TYPES.has(name)) throw new Error(`${where}: unknown datatype ${raw}`);
  return name as DataType;
}

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

/** What every definition has, whatever its kind. */
type CommonProperties = Omit<FlagDefinition, 'kind' | 'type' | 'default'>;

/**
 * Compiles the Metaschema module graph rooted at `completeModulePath` (NIST's
 * oscal_complete_metaschema.xml) into the IR, applying the specification's definition
 * name resolution (see ModuleGraph): each module sees its imports' global definitions,
 * later imports shadowing earlier ones, and its own definitions shadowing all imported ones.
 */
export function compileIR(completeModulePath: string): ModelIR {
  const graph = new ModuleGraph(completeModulePath);
  const compiler = new DefinitionCompiler(graph);
  for (const { module, el } of graph.topLevel.values()) compiler.definition(module, el, '');
  const complete = graph.root;
  return {
    version: textOf(firstChild(complete.root, 'schema-version'))!,
    namespace: textOf(firstChild(complete.root, 'namespace'))!,
    definitions: compiler.definitions,
    roots: compiler.roots,
    modules: Object.fromEntries([...graph.modules.values()].map((m) => [m.shortName, basename(m.path)])),
  };
}

/**
 * Turns definitions (top-level ones, and those defined inline in another) into the IR, each once,
 * and with them the instances of flags and model children they hold. A referenced definition is
 * compiled on first use, so that its name is known where it is used.
 */
class DefinitionCompiler {
  /** Every definition compiled, by key, in the order compiled. */
  readonly definitions: Record<string, Definition> = {};
  /** Root element name to the key of its assembly. */
  readonly roots: Record<string, string> = {};

  constructor(private readonly graph: ModuleGraph) {}

  // --- Definitions ------------------------------------------------------------------------------

  /** The definition `el` (a define-flag, -field or -assembly); `keyPrefix` is its owner's key and '/' for an inline one. */
  definition(module: Module, el: XmlElement, keyPrefix: string): Definition {
    const kind = DEFINE_KIND[el.name]!;
    const name = el.attrs.name!;
    const key = keyPrefix ? `${keyPrefix}${kind}:${name}` : `${module.shortName}:${kind}:${name}`;
    const existing = this.definitions[key];
    if (existing) return existing;
    const common = commonProperties(module, el, key, name);
    if (kind === 'flag') return this.flagDefinition(el, common);
    if (kind === 'field') return this.fieldDefinition(module, el, common);
    return this.assemblyDefinition(module, el, common);
  }

  private flagDefinition(el: XmlElement, common: CommonProperties): FlagDefinition {
    const def: FlagDefinition = { ...common, kind: 'flag', type: dataType(el.attrs['as-type'], common.key) };
    if (el.attrs.default !== undefined) def.default = el.attrs.default;
    this.definitions[common.key] = def;
    return def;
  }

  /** Registered before its flags are compiled, so that they can refer back to it. */
  private fieldDefinition(module: Module, el: XmlElement, common: CommonProperties): FieldDefinition {
    const key = common.key;
    const def: FieldDefinition = { ...common, kind: 'field', type: dataType(el.attrs['as-type'], key), flags: [] };
    this.definitions[key] = def;
    def.flags = this.flags(module, el, key);
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

  /** Registered before its flags and model are compiled, so that they can refer back to it. */
  private assemblyDefinition(module: Module, el: XmlElement, common: CommonProperties): AssemblyDefinition {
    const key = common.key;
    const def: AssemblyDefinition = { ...common, kind: 'assembly', flags: [], model: [] };
    this.definitions[key] = def;
    const rootName = textOf(firstChild(el, 'root-name'));
    if (rootName) {
      def.rootName = rootName;
      this.roots[rootName] = key;
    }
    def.flags = this.flags(module, el, key);
    def.model = this.model(module, firstChild(el, 'model'), key);
    const jsonKey = firstChild(el, 'json-key');
    if (jsonKey) def.jsonKey = jsonKey.attrs['flag-name']!;
    return def;
  }

  // --- Instances ----------------------------------------------------------------------------------

  /** The flags of a field or assembly: references to flag definitions, and flags defined inline. */
  private flags(module: Module, owner: XmlElement, ownerKey: string): FlagInstance[] {
    const flags: FlagInstance[] = [];
    for (const el of childElements(owner)) {
      if (el.name === 'flag') {
        const def = this.graph.lookup(module, 'flag', el.attrs.ref!, ownerKey);
        flags.push({
          name: this.instanceName(el, def),
          def,
          required: el.attrs.required === 'yes',
          constraints: constraintsOf(el),
          ...docs(el),
        });
      } else if (el.name === 'define-flag') {
        const def = this.definition(module, el, `${ownerKey}/`);
        flags.push({
          name: def.name,
          def: def.key,
          required: el.attrs.required === 'yes',
          constraints: [],
          ...docs(el),
        });
      }
    }
    return flags;
  }

  /** The model of an assembly (or the options of a choice in it). */
  private model(module: Module, model: XmlElement | undefined, ownerKey: string): ModelInstance[] {
    if (!model) return [];
    const out: ModelInstance[] = [];
    for (const el of childElements(model)) {
      if (el.name === 'choice') out.push({ kind: 'choice', options: this.model(module, el, ownerKey) });
      else if (el.name === 'any') out.push({ kind: 'any' });
      else if (
        el.name === 'assembly' ||
        el.name === 'field' ||
        el.name === 'define-assembly' ||
        el.name === 'define-field'
      ) {
        out.push(this.namedInstance(module, el, ownerKey));
      }
    }
    return out;
  }

  /** A field or assembly in a model: a reference to a definition, or one defined inline. */
  private namedInstance(module: Module, el: XmlElement, ownerKey: string): NamedModelInstance {
    const kind = el.name.endsWith('assembly') ? 'assembly' : 'field';
    const inline = el.name.startsWith('define-');
    const def = inline
      ? this.definition(module, el, `${ownerKey}/`).key
      : this.graph.lookup(module, kind, el.attrs.ref!, ownerKey);
    const groupEl = firstChild(el, 'group-as');
    const instance: NamedModelInstance = {
      kind,
      name: inline ? this.definitionName(def) : this.instanceName(el, def),
      def,
      minOccurs: occurs(el.attrs['min-occurs'], 0),
      maxOccurs: occurs(el.attrs['max-occurs'], 1),
      wrapped: el.attrs['in-xml'] !== 'UNWRAPPED',
      ...docs(el),
    };
    if (groupEl) instance.groupAs = groupAs(groupEl);
    if (el.attrs.deprecated) instance.deprecated = el.attrs.deprecated;
    return instance;
  }

  // --- Names --------------------------------------------------------------------------------------

  /** The name an instance has: its use-name, or else the name of its definition. */
  private instanceName(instance: XmlElement, defKey: string): string {
    return textOf(firstChild(instance, 'use-name')) ?? this.definitionName(defKey);
  }

  /** Referenced definitions are compiled on first use so their use-name is known. */
  private definitionName(key: string): string {
    const def = this.definitions[key];
    if (def) return def.name;
    const source = this.graph.topLevel.get(key)!;
    return this.definition(source.module, source.el, '').name;
  }
}

/** The properties of a definition of any kind, in the IR's order. */
function commonProperties(module: Module, el: XmlElement, key: string, name: string): CommonProperties {
  return {
    key,
    name: textOf(firstChild(el, 'use-name')) ?? name,
    module: module.shortName,
    constraints: constraintsOf(el),
    ...docs(el),
    ...(el.attrs.deprecated ? { deprecated: el.attrs.deprecated } : {}),
  };
}

function groupAs(groupEl: XmlElement): GroupAs {
  return {
    name: groupEl.attrs.name!,
    inJson: (groupEl.attrs['in-json'] as GroupAs['inJson'] | undefined) ?? 'SINGLETON_OR_ARRAY',
    inXml: (groupEl.attrs['in-xml'] as GroupAs['inXml'] | undefined) ?? 'UNGROUPED',
  };
}
