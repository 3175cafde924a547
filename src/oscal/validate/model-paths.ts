import type { DataType } from '../../metaschema/ir.js';
import type { ChildBinding, OscalModel } from '../model/model.js';

/** What the model says sits at a JSON pointer of a document, for messages. */
export interface PathTarget {
  kind: 'assembly' | 'field' | 'flag' | 'list' | 'unknown';
  /** The property name as it appears in JSON. */
  name: string;
  /** Datatype of a flag or of a field's value. */
  type?: DataType;
  def?: number;
  child?: ChildBinding;
}

/** Walks the model along a pointer's segments (the first is the root model name). */
export function targetAt(model: OscalModel, segments: readonly string[]): PathTarget {
  const root = segments[0];
  if (root === undefined) return { kind: 'unknown', name: 'the document' };
  let def = model.rootDef(root);
  if (def === undefined) return { kind: 'unknown', name: root };
  let target: PathTarget = { kind: 'assembly', name: root, def };
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    const binding = model.defs[def!]!;
    const index = model.index(def!);
    if (target.kind === 'list') {
      target = itemTarget(model, target.child!, target.name);
      if (target.kind !== 'assembly' && target.kind !== 'field') return target;
      def = target.def;
      continue;
    }
    const flag = index.flags.get(segment);
    if (flag) return { kind: 'flag', name: segment, type: flag.type };
    if (binding.kind === 'field') {
      return { kind: 'field', name: target.name, type: binding.type, def: def! };
    }
    const child = index.json.get(segment);
    if (!child) return { kind: 'unknown', name: segment };
    if (child.group) {
      target = { kind: 'list', name: segment, child };
      const next = segments[i + 1];
      const isItem = next !== undefined && (child.group === 'BY_KEY' || /^\d+$/.test(next));
      if (!isItem && child.group === 'SINGLETON_OR_ARRAY' && next !== undefined) {
        // A singleton stands where the array would: the next segment is already inside the item.
        target = itemTarget(model, child, segment);
        def = target.def;
      }
      continue;
    }
    target = itemTarget(model, child, segment);
    def = target.def;
  }
  return target;
}

function itemTarget(model: OscalModel, child: ChildBinding, name: string): PathTarget {
  const def = model.defs[child.def]!;
  if (def.kind === 'assembly') return { kind: 'assembly', name, def: child.def, child };
  return { kind: 'field', name, type: def.flags.length === 0 ? def.type : undefined, def: child.def, child };
}

/** The value at a pointer, for quoting in messages. */
export function valueAt(content: unknown, segments: readonly string[]): unknown {
  let node = content;
  for (const s of segments) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node;
}
