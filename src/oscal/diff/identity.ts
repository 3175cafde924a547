import type { DefinitionBinding } from '../model/model.js';

/**
 * How an object is recognised on both sides: by the flags that identify it. A uuid or an id names
 * an object across the whole document, so it is found again wherever it moved; the other keys name
 * it among its siblings only. Objects with none of these are matched by their whole content.
 */
const DOCUMENT_KEYS = ['uuid', 'id'];

/** Whether objects of a definition may be named by a uuid or id (so found again wherever they moved). */
export function hasDocumentKey(def: DefinitionBinding): boolean {
  return keyFlagsOf(def).document.length > 0;
}

/** Objects without a uuid or id, keyed as OSCAL's own uniqueness constraints and common sense key them. */
const SIBLING_KEYS: Readonly<Record<string, readonly string[]>> = {
  prop: ['name', 'ns', 'class', 'value'],
  link: ['href', 'rel'],
  'set-parameter': ['param-id'],
  alter: ['control-id'],
  'responsible-role': ['role-id'],
  'responsible-party': ['role-id'],
  import: ['href'],
  'import-profile': ['href'],
  'import-ssp': ['href'],
  'import-ap': ['href'],
  'document-id': ['scheme', 'identifier'],
  rlink: ['href'],
  hash: ['algorithm'],
  'external-id': ['scheme'],
  annotation: ['name', 'ns', 'value'],
};

export type Identity =
  | { scope: 'document'; key: string; label: string }
  | { scope: 'siblings'; key: string; label: string }
  | { scope: 'content'; key: string };

/** Object keys sorted at every level: the same content read from XML, JSON or YAML gives the same text. */
export function canonical(value: unknown, text: (s: string) => string = (s) => s): string {
  if (typeof value === 'string') return JSON.stringify(text(value));
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, text)).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], text)}`);
  return `{${entries.join(',')}}`;
}

/** The flags that name objects of a definition, worked out once per definition. */
interface KeyFlags {
  document: readonly string[];
  /** Whether objects of the definition have a name flag to fall back on. */
  named: boolean;
  siblings?: readonly string[];
}
const keyFlags = new WeakMap<DefinitionBinding, KeyFlags>();

function keyFlagsOf(def: DefinitionBinding): KeyFlags {
  let known = keyFlags.get(def);
  if (!known) {
    const flags = new Set(def.flags.map((f) => f.name));
    known = { document: DOCUMENT_KEYS.filter((k) => flags.has(k)), named: flags.has('name') };
    const siblings = SIBLING_KEYS[def.name];
    if (siblings) known.siblings = siblings;
    keyFlags.set(def, known);
  }
  return known;
}

export function identityOf(def: DefinitionBinding | undefined, node: unknown): Identity {
  if (def && node !== null && typeof node === 'object' && !Array.isArray(node)) {
    const object = node as Record<string, unknown>;
    const keys = keyFlagsOf(def);
    for (const name of keys.document) {
      const value = object[name];
      if (typeof value === 'string') return { scope: 'document', key: `${def.name}|${value}`, label: value };
    }
    // A part, or any object that may carry an id but has none here, is known among its siblings by its name.
    if (keys.document.length > 0 && keys.named && typeof object.name === 'string')
      return { scope: 'siblings', key: `${object.name}|${object.ns ?? ''}|${object.class ?? ''}`, label: object.name };
    if (keys.siblings) {
      const values = keys.siblings.map((k) => (object[k] === undefined ? '' : String(object[k])));
      return { scope: 'siblings', key: values.join('|'), label: values.filter((v) => v !== '').join(' ') };
    }
  }
  return { scope: 'content', key: canonical(node) };
}
