/**
 * The Metaschema data model over the OSCAL JSON form: a document node, and for every assembly,
 * field and flag a node named by its XML name, whatever format the document was read from.
 * Groups (JSON arrays and by-key objects, XML wrappers) are not nodes: `metadata/role` finds
 * each role however JSON or XML groups them. The tree is built whole, once per document, in
 * document order, so that ordering nodes is a comparison of two numbers.
 */
import type { DataType } from '../../metaschema/ir.js';
import { pointer } from '../errors.js';
import type { ParsedDocument } from '../formats/document.js';
import { valuesFromJson } from '../formats/groups.js';
import { scalarToText } from '../formats/scalars.js';
import { modelFor, type AssemblyBinding, type FieldBinding, type OscalModel } from '../model/model.js';
import { castFromText } from './casts.js';
import { MetapathError } from './errors.js';
import { Atom, type Atomic, type DocumentInfo, type MetaNode } from './items.js';

type Segment = string | number;

const NO_NODES: readonly MetaNode[] = [];

class Node implements MetaNode {
  readonly isNode = true as const;
  flagNodes: readonly MetaNode[] = NO_NODES;
  childNodes: readonly MetaNode[] = NO_NODES;
  private typed: Atomic | undefined | null = null;
  private path: string | undefined;

  constructor(
    readonly kind: MetaNode['kind'],
    readonly name: string,
    readonly parent: Node | undefined,
    readonly document: DocumentInfo,
    readonly order: number,
    readonly definition: number | undefined,
    /** The JSON value of a flag or field (its value only, for a field with flags); undefined otherwise. */
    readonly value: unknown,
    readonly type: DataType | undefined,
    /** Pointer segments from the parent's JSON value to this node's. */
    private readonly segments: readonly Segment[],
  ) {}

  flags(): readonly MetaNode[] {
    return this.flagNodes;
  }

  children(): readonly MetaNode[] {
    return this.childNodes;
  }

  typedValue(): Atomic | undefined {
    if (this.typed === null) this.typed = this.type === undefined ? undefined : typedValueOf(this.value, this.type);
    return this.typed;
  }

  stringValue(): string {
    if (this.type !== undefined) return textOf(this.value);
    // XPath's string value of an element: the text of every field below it, in order.
    let text = '';
    const visit = (node: MetaNode): void => {
      for (const child of node.children()) {
        if (child.kind === 'field') text += child.stringValue();
        else visit(child);
      }
    };
    visit(this);
    return text;
  }

  pointer(): string {
    if (this.path === undefined) this.path = (this.parent ? this.parent.pointer() : '') + pointer(this.segments);
    return this.path;
  }
}

function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? scalarToText(value)
    : '';
}

/**
 * The typed value of a field or flag (XPath's atomization with the Metaschema datatypes). A value
 * that is not valid for its datatype (the schema check reports it) is untyped, so comparisons
 * with it still work as on text.
 */
function typedValueOf(value: unknown, type: DataType): Atomic {
  try {
    return typed(value, type);
  } catch (e) {
    // A date beyond the years XPath can compute with, say: compared as text.
    if (e instanceof MetapathError) return new Atom('untypedAtomic', textOf(value));
    throw e;
  }
}

function typed(value: unknown, type: DataType): Atomic {
  switch (type) {
    case 'integer':
    case 'non-negative-integer':
    case 'positive-integer':
      return typeof value === 'number' && Number.isInteger(value)
        ? value
        : (castFromText(textOf(value), 'integer') ?? new Atom('untypedAtomic', textOf(value)));
    case 'decimal':
      return typeof value === 'number'
        ? new Atom('decimal', value)
        : (castFromText(textOf(value), 'decimal') ?? new Atom('untypedAtomic', textOf(value)));
    case 'boolean':
      return typeof value === 'boolean'
        ? value
        : (castFromText(textOf(value), 'boolean') ?? new Atom('untypedAtomic', textOf(value)));
    case 'date':
    case 'date-with-timezone':
      return castFromText(textOf(value), 'date') ?? new Atom('untypedAtomic', textOf(value));
    case 'date-time':
    case 'date-time-with-timezone':
      return castFromText(textOf(value), 'dateTime') ?? new Atom('untypedAtomic', textOf(value));
    case 'day-time-duration':
      return castFromText(textOf(value), 'dayTimeDuration') ?? new Atom('untypedAtomic', textOf(value));
    case 'year-month-duration':
      return castFromText(textOf(value), 'yearMonthDuration') ?? new Atom('untypedAtomic', textOf(value));
    default:
      return textOf(value);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shapeFits(value: unknown, group: AssemblyBinding['children'][number]['group']): boolean {
  if (group === 'ARRAY') return Array.isArray(value);
  if (group === 'BY_KEY') return isObject(value) && Object.values(value).every(isObject);
  return value !== null;
}

let documents = 0;

/** The node tree of a parsed document; `uri` is where it came from, for doc() and base-uri(). */
export function documentNode(doc: ParsedDocument, uri?: string): MetaNode {
  const model = modelFor(doc.version);
  const def = model.rootDef(doc.model);
  if (def === undefined) throw new Error(`${doc.model} is not a model of OSCAL ${doc.version}`);
  const info: DocumentInfo = { sequence: ++documents, uri, namespace: model.namespace };
  const builder = new TreeBuilder(model, info);
  const root = builder.make('document', '', undefined, undefined, undefined, undefined, []);
  const body = doc.content[doc.model];
  root.childNodes = [builder.assembly(isObject(body) ? body : {}, def, doc.model, root, [doc.model])];
  return root;
}

class TreeBuilder {
  private order = 0;

  constructor(
    private readonly model: OscalModel,
    private readonly info: DocumentInfo,
  ) {}

  make(
    kind: MetaNode['kind'],
    name: string,
    parent: Node | undefined,
    definition: number | undefined,
    value: unknown,
    type: DataType | undefined,
    segments: readonly Segment[],
  ): Node {
    return new Node(kind, name, parent, this.info, this.order++, definition, value, type, segments);
  }

  assembly(obj: Record<string, unknown>, def: number, name: string, parent: Node, segments: readonly Segment[]): Node {
    const binding = this.model.defs[def] as AssemblyBinding;
    const node = this.make('assembly', name, parent, def, undefined, undefined, segments);
    node.flagNodes = this.flags(obj, binding.flags, node);
    const children: MetaNode[] = [];
    for (const child of binding.children) {
      const value = obj[child.json];
      if (value === undefined) continue;
      const target = this.model.defs[child.def]!;
      // A value of the wrong shape (a validation reads past it, and reports it) is no node.
      if (!shapeFits(value, child.group)) continue;
      const values = child.group ? valuesFromJson(value, child, this.model) : [value];
      const keys = child.group === 'BY_KEY' ? Object.keys(value as object) : undefined;
      const indexed = child.group === 'ARRAY' || (child.group === 'SINGLETON_OR_ARRAY' && Array.isArray(value));
      for (let i = 0; i < values.length; i++) {
        const at: Segment[] = keys ? [child.json, keys[i]!] : indexed ? [child.json, i] : [child.json];
        if (target.kind === 'assembly' && !isObject(values[i])) continue;
        children.push(
          target.kind === 'assembly'
            ? this.assembly(values[i] as Record<string, unknown>, child.def, child.name, node, at)
            : this.field(values[i], child.def, child.name, node, at),
        );
      }
    }
    node.childNodes = children;
    return node;
  }

  private field(value: unknown, at: number, name: string, parent: Node, segments: readonly Segment[]): Node {
    const def = this.model.defs[at] as FieldBinding;
    if (def.flags.length === 0) return this.make('field', name, parent, at, value, def.type, segments);
    if (!isObject(value)) return this.make('field', name, parent, at, value, def.type, segments);
    const obj = value;
    if (!def.valueKeyFlag) {
      const node = this.make('field', name, parent, at, obj[def.valueKey], def.type, segments);
      node.flagNodes = this.flags(obj, def.flags, node);
      return node;
    }
    // The value sits under a property named by the value of one of its flags.
    const valueProp = Object.keys(obj).find((k) => !def.flags.some((f) => f.name === k));
    const node = this.make(
      'field',
      name,
      parent,
      at,
      valueProp === undefined ? undefined : obj[valueProp],
      def.type,
      segments,
    );
    const flags = this.flags(
      obj,
      def.flags.filter((f) => f.name !== def.valueKeyFlag),
      node,
    ) as MetaNode[];
    if (valueProp !== undefined) {
      const keyFlag = def.flags.find((f) => f.name === def.valueKeyFlag)!;
      flags.push(this.make('flag', keyFlag.name, node, undefined, valueProp, keyFlag.type, []));
    }
    node.flagNodes = flags;
    return node;
  }

  private flags(obj: Record<string, unknown>, flags: AssemblyBinding['flags'], owner: Node): readonly MetaNode[] {
    let out: MetaNode[] | undefined;
    for (const flag of flags) {
      const value = obj[flag.name];
      if (value === undefined) continue;
      (out ??= []).push(this.make('flag', flag.name, owner, undefined, value, flag.type, [flag.name]));
    }
    return out ?? NO_NODES;
  }
}
