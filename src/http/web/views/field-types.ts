// What a JSON property of an OSCAL document holds, from the Metaschema bindings of the document's
// release: which properties are markup, uuids or URIs. A document of an unknown release, or a
// property the bindings do not name, falls back to a guess by the property's name.
import type { DataType } from '../../../metaschema/ir.js';
import { isSupportedVersion, modelFor, type OscalModel } from '../../../oscal/model/model.js';

/** Where a value sits in the model: the definition that holds it, when the bindings know it. */
export interface Place {
  model: OscalModel | undefined;
  def: number | undefined;
}

export function rootPlace(rootKey: string, version: unknown): Place {
  if (!isSupportedVersion(version)) return { model: undefined, def: undefined };
  const model = modelFor(version);
  return { model, def: model.rootDef(rootKey) };
}

/** The place of the value under `key` of an object at `place`. */
export function childPlace(place: Place, key: string): Place {
  const { model, def } = place;
  if (model === undefined || def === undefined || model.defs[def]?.kind !== 'assembly')
    return { model, def: undefined };
  return { model, def: model.index(def).json.get(key)?.def };
}

const MULTILINE_NAMES = new Set(['description', 'remarks', 'prose', 'guidance', 'guidelines', 'statement']);
const LINE_NAMES = new Set(['title', 'label', 'choice', 'text']);

/** The data type of the scalar under `key` of an object at `place`. */
export function scalarType(place: Place, key: string): DataType | undefined {
  const { model, def } = place;
  const binding = model !== undefined && def !== undefined ? model.defs[def] : undefined;
  if (binding !== undefined) {
    const flag = binding.flags.find((f) => f.name === key);
    if (flag !== undefined) return flag.type;
    if (binding.kind === 'field' && key === binding.valueKey) return binding.type;
    if (binding.kind === 'assembly') {
      const child = model!.index(def!).json.get(key);
      const target = child === undefined ? undefined : model!.defs[child.def];
      if (target?.kind === 'field') return target.type;
      if (target !== undefined) return undefined;
    }
  }
  if (MULTILINE_NAMES.has(key)) return 'markup-multiline';
  if (LINE_NAMES.has(key)) return 'markup-line';
  if (key === 'uuid' || key.endsWith('-uuid')) return 'uuid';
  if (key === 'href') return 'uri-reference';
  return undefined;
}
