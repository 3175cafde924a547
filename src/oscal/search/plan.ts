// What each Metaschema definition gives the search index, worked out once per definition.
import type { DataType } from '../../metaschema/ir.js';
import type { DefinitionBinding } from '../model/model.js';

/**
 * How a flag's or field's value is taken: as words; as a control id (also words); as the id of
 * a control's part or parameter, whose control it is about (also words); as Markdown; or as the
 * fragment of a link, which names an object of the document.
 */
export type Role = 'text' | 'control' | 'part' | 'markup-line' | 'markup-multiline' | 'fragment';

export interface Plan {
  name: string;
  /** The flags that name an object across the document, in the order identity.ts prefers them. */
  keys: readonly string[];
  /** Flags whose values are searched, with how. */
  flags: readonly (readonly [string, Role])[];
  /** For a field, how its value is searched; undefined when it is not (dates, uuids, hashes...). */
  value?: Role;
  /** The child that titles objects of an assembly: `title`, or `name` for those without one (party). */
  titleChild?: string;
}

const KEYS = ['uuid', 'id'];

/** A property's uuid names the statement it makes about its parent, not something to find on its own. */
const NEVER_ENTRIES = new Set(['prop']);

const FLAG_ROLES: Readonly<Record<string, Role>> = {
  'control-id': 'control',
  'statement-id': 'part',
  'param-id': 'part',
  'target-id': 'part',
  'objective-id': 'part',
  'by-id': 'text',
  value: 'text',
};

const FIELD_ROLES: Readonly<Record<string, Role>> = {
  'with-id': 'control',
  'statement-id': 'part',
};

/** Text-typed fields that no one searches for: digests, and the release every document states. */
const UNSEARCHED_FIELDS = new Set(['hash', 'oscal-version']);

const WORD_TYPES = new Set<DataType>(['string', 'token', 'email-address']);

function flagRole(def: DefinitionBinding, name: string, type: DataType): Role | undefined {
  if (Object.hasOwn(FLAG_ROLES, name)) return FLAG_ROLES[name];
  // A free-text name (capability, protocol); token names (part, prop, facet) are vocabulary.
  if (name === 'name' && type === 'string') return 'text';
  if (name === 'href' && def.name === 'link') return 'fragment';
  return undefined;
}

function fieldRole(def: DefinitionBinding & { kind: 'field' }): Role | undefined {
  if (Object.hasOwn(FIELD_ROLES, def.name)) return FIELD_ROLES[def.name];
  if (def.type === 'markup-line' || def.type === 'markup-multiline') return def.type;
  return WORD_TYPES.has(def.type) && !UNSEARCHED_FIELDS.has(def.name) ? 'text' : undefined;
}

function planFor(def: DefinitionBinding): Plan {
  const flagNames = new Set(def.flags.map((f) => f.name));
  const flags: (readonly [string, Role])[] = [];
  for (const flag of def.flags) {
    const role = flagRole(def, flag.name, flag.type);
    if (role) flags.push([flag.name, role]);
  }
  const plan: Plan = {
    name: def.name,
    keys: NEVER_ENTRIES.has(def.name) ? [] : KEYS.filter((k) => flagNames.has(k)),
    flags,
  };
  if (def.kind === 'field') {
    const role = fieldRole(def);
    if (role) plan.value = role;
  } else {
    const children = new Set(def.children.map((c) => c.json));
    if (children.has('title')) plan.titleChild = 'title';
    else if (children.has('name')) plan.titleChild = 'name';
  }
  return plan;
}

const plans = new WeakMap<DefinitionBinding, Plan>();

export function planOf(def: DefinitionBinding): Plan {
  let plan = plans.get(def);
  if (!plan) {
    plan = planFor(def);
    plans.set(def, plan);
  }
  return plan;
}
