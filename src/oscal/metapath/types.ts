/** Sequence types: `instance of`, `treat as` and the declared types of inline function parameters. */
import type { ItemType, SequenceType } from './ast.js';
import { Atom, isNode, typeOf, XArray, XFunction, XMap, type AtomicType, type Item, type Sequence } from './items.js';
import { nodeFilter } from './steps.js';

/** The atomic types each type name covers (a derived type is an instance of its bases). */
const COVERS: Record<string, readonly AtomicType[]> = {
  anyAtomicType: [
    'string',
    'boolean',
    'integer',
    'decimal',
    'double',
    'float',
    'untypedAtomic',
    'anyURI',
    'dateTime',
    'date',
    'time',
    'gYearMonth',
    'gYear',
    'gMonthDay',
    'gDay',
    'gMonth',
    'duration',
    'yearMonthDuration',
    'dayTimeDuration',
    'base64Binary',
    'hexBinary',
    'QName',
  ],
  numeric: ['integer', 'decimal', 'double', 'float'],
  decimal: ['integer', 'decimal'],
  duration: ['duration', 'yearMonthDuration', 'dayTimeDuration'],
};

export function atomicTypeCovers(name: string, value: Item): boolean {
  if (typeof value === 'object' && !(value instanceof Atom)) return false;
  const type = typeOf(value);
  const covered = COVERS[name];
  return covered ? covered.includes(type) : type === name;
}

function matchesItem(item: Item, type: ItemType): boolean {
  switch (type.t) {
    case 'item':
      return true;
    case 'atomic':
      return atomicTypeCovers(type.name.local, item);
    case 'node':
      return isNode(item) && nodeFilter(type.test, 'self', false)(item);
    case 'map': {
      if (!(item instanceof XMap)) return false;
      const { key, value } = type;
      if (!key || !value) return true;
      for (const entry of item.entries.values())
        if (!atomicTypeCovers(key.local, entry.key) || !matchesSequenceType(entry.value, value)) return false;
      return true;
    }
    case 'array': {
      if (!(item instanceof XArray)) return false;
      const member = type.member;
      return !member || item.members.every((m) => matchesSequenceType(m, member));
    }
    case 'function':
      return item instanceof XFunction || item instanceof XMap || item instanceof XArray;
  }
}

export function matchesSequenceType(seq: Sequence, type: SequenceType): boolean {
  if (type.item === 'empty') return seq.length === 0;
  switch (type.occurrence) {
    case '':
      if (seq.length !== 1) return false;
      break;
    case '?':
      if (seq.length > 1) return false;
      break;
    case '+':
      if (seq.length === 0) return false;
      break;
  }
  const item = type.item;
  return seq.every((i) => matchesItem(i, item));
}

export function sequenceTypeText(type: SequenceType): string {
  if (type.item === 'empty') return 'empty-sequence()';
  const item = type.item;
  let text: string;
  switch (item.t) {
    case 'atomic':
      text = `xs:${item.name.local}`;
      break;
    case 'node':
      text = item.test.t === 'kind' ? `${item.test.kind}()` : 'node()';
      break;
    default:
      text = `${item.t}(${item.t === 'item' ? '' : '*'})`;
  }
  return text + type.occurrence;
}
