/**
 * Binding tables: the compact, per-release form of the model that the runtime converters use.
 * Definitions are addressed by index so the tables stay small and lookups stay cheap.
 */
import type { DataType, Definition, ModelInstance, ModelIR, NamedModelInstance } from './ir.js';

export interface FlagBinding {
  name: string;
  type: DataType;
  required?: true;
}

export interface ChildBinding {
  /** XML element name. */
  name: string;
  /** JSON / YAML property name. */
  json: string;
  def: number;
  min: number;
  /** -1 for unbounded. */
  max: number;
  /** How several values are held in JSON; absent for a single value. */
  group?: 'ARRAY' | 'SINGLETON_OR_ARRAY' | 'BY_KEY';
  /** XML element that wraps the values (in-xml GROUPED). */
  wrapper?: string;
  /** markup-multiline whose blocks sit directly in the parent element. */
  unwrapped?: true;
  /** Children that share a number are alternatives of one choice. */
  choice?: number;
}

export interface AssemblyBinding {
  kind: 'assembly';
  name: string;
  flags: FlagBinding[];
  children: ChildBinding[];
  jsonKey?: string;
}

export interface FieldBinding {
  kind: 'field';
  name: string;
  type: DataType;
  flags: FlagBinding[];
  /** JSON property of the value when the field is an object (it has flags). */
  valueKey: string;
  valueKeyFlag?: string;
  jsonKey?: string;
}

export type DefinitionBinding = AssemblyBinding | FieldBinding;

export interface Bindings {
  version: string;
  namespace: string;
  /** Root element / property name to the index of its assembly. */
  roots: Record<string, number>;
  defs: DefinitionBinding[];
}

function defaultValueKey(type: DataType): string {
  if (type === 'markup-line') return 'RICHTEXT';
  if (type === 'markup-multiline') return 'prose';
  return 'STRVALUE';
}

export function bindingsFromIR(ir: ModelIR): Bindings {
  return bindIR(ir).bindings;
}

/** The bindings, and each bound definition's index by its IR key (constraints are keyed by it). */
export function bindIR(ir: ModelIR): { bindings: Bindings; index: ReadonlyMap<string, number> } {
  const index = new Map<string, number>();
  const defs: DefinitionBinding[] = [];
  const flagType = (key: string): DataType => {
    const def = ir.definitions[key]!;
    if (def.kind !== 'flag') throw new Error(`${key} is not a flag`);
    return def.type;
  };
  const flagsOf = (def: Extract<Definition, { flags: unknown }>) =>
    def.flags.map((f) => ({ name: f.name, type: flagType(f.def), ...(f.required ? { required: true as const } : {}) }));

  function bind(key: string): number {
    const known = index.get(key);
    if (known !== undefined) return known;
    const def = ir.definitions[key]!;
    const at = defs.length;
    index.set(key, at);
    if (def.kind === 'flag') throw new Error(`flag ${key} used as a model instance`);
    if (def.kind === 'field') {
      const field: FieldBinding = {
        kind: 'field',
        name: def.name,
        type: def.type,
        flags: flagsOf(def),
        valueKey: def.valueKey ?? defaultValueKey(def.type),
      };
      if (def.valueKeyFlag) field.valueKeyFlag = def.valueKeyFlag;
      if (def.jsonKey) field.jsonKey = def.jsonKey;
      defs.push(field);
      return at;
    }
    const assembly: AssemblyBinding = { kind: 'assembly', name: def.name, flags: flagsOf(def), children: [] };
    if (def.jsonKey) assembly.jsonKey = def.jsonKey;
    defs.push(assembly);
    let choices = 0;
    const add = (instance: ModelInstance, choice?: number): void => {
      if (instance.kind === 'any') return;
      if (instance.kind === 'choice') {
        const n = choices++;
        for (const option of instance.options) add(option, n);
        return;
      }
      assembly.children.push(childBinding(instance, choice));
    };
    for (const instance of def.model) add(instance);
    return at;
  }

  function childBinding(instance: NamedModelInstance, choice: number | undefined): ChildBinding {
    const child: ChildBinding = {
      name: instance.name,
      json: instance.groupAs?.name ?? instance.name,
      def: bind(instance.def),
      min: instance.minOccurs,
      max: instance.maxOccurs,
    };
    if (instance.groupAs) {
      child.group = instance.groupAs.inJson;
      if (instance.groupAs.inXml === 'GROUPED') child.wrapper = instance.groupAs.name;
    }
    const target = ir.definitions[instance.def]!;
    if (!instance.wrapped && target.kind === 'field' && target.type === 'markup-multiline') child.unwrapped = true;
    if (choice !== undefined) child.choice = choice;
    return child;
  }

  const roots: Record<string, number> = {};
  for (const [name, key] of Object.entries(ir.roots)) roots[name] = bind(key);
  return { bindings: { version: ir.version, namespace: ir.namespace, roots, defs }, index };
}
