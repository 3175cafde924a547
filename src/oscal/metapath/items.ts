/**
 * The values Metapath computes with. A sequence is a plain array of items. The atomic values
 * that occur most (strings, booleans, integers) are JavaScript primitives, so that comparing a
 * flag with a literal allocates nothing; every other atomic type is an Atom with its type's name.
 */
import { MetapathError } from './errors.js';
import type { DurationValue, TemporalValue } from './temporal.js';

export type AtomicType =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'decimal'
  | 'double'
  | 'float'
  | 'untypedAtomic'
  | 'anyURI'
  | 'dateTime'
  | 'date'
  | 'time'
  | 'gYearMonth'
  | 'gYear'
  | 'gMonthDay'
  | 'gDay'
  | 'gMonth'
  | 'duration'
  | 'yearMonthDuration'
  | 'dayTimeDuration'
  | 'base64Binary'
  | 'hexBinary'
  | 'QName';

type AtomValue<T extends AtomicType> = T extends
  'dateTime' | 'date' | 'time' | 'gYearMonth' | 'gYear' | 'gMonthDay' | 'gDay' | 'gMonth'
  ? TemporalValue
  : T extends 'duration' | 'yearMonthDuration' | 'dayTimeDuration'
    ? DurationValue
    : T extends 'decimal' | 'double' | 'float'
      ? number
      : T extends 'QName'
        ? { uri: string; local: string; prefix?: string }
        : string;

/** An atomic value of a type that has no JavaScript primitive of its own. */
export class Atom<T extends AtomicType = AtomicType> {
  constructor(
    readonly type: T,
    readonly value: AtomValue<T>,
  ) {}
}

/** xs:string, xs:boolean and xs:integer are JavaScript strings, booleans and numbers. */
export type Atomic = string | boolean | number | Atom;

/** A node of a document as Metapath sees it; implemented over the OSCAL JSON form in nodes.ts. */
export interface MetaNode {
  /** Tells nodes from the other object items at the cost of one property read. */
  readonly isNode: true;
  readonly kind: 'document' | 'assembly' | 'field' | 'flag';
  /** The XML name of a field, assembly or flag; '' for the document. */
  readonly name: string;
  readonly parent: MetaNode | undefined;
  readonly document: DocumentInfo;
  /** Position in the document: flags follow their owner, children follow its flags. */
  readonly order: number;
  /** The binding index of a field's or an assembly's definition (a flag's is its owner's, by name). */
  readonly definition: number | undefined;
  flags(): readonly MetaNode[];
  children(): readonly MetaNode[];
  /** The value a field or flag holds, typed by its Metaschema datatype; an assembly has none. */
  typedValue(): Atomic | undefined;
  stringValue(): string;
  /** JSON pointer into the OSCAL JSON form. */
  pointer(): string;
}

export interface DocumentInfo {
  /** Tells the documents of one evaluation apart, so nodes of two documents have an order. */
  readonly sequence: number;
  readonly uri: string | undefined;
  /** The namespace of the document's fields and assemblies (flags have none), for fn:namespace-uri. */
  readonly namespace: string;
}

export class XMap {
  /** Keys are held by their comparison key (keyOf), with the original key beside the value. */
  constructor(readonly entries: ReadonlyMap<string, { key: Atomic; value: Item[] }>) {}
}

export class XArray {
  constructor(readonly members: readonly Item[][]) {}
}

export class XFunction {
  constructor(
    readonly name: string,
    readonly arity: number,
    readonly call: (args: Item[][]) => Item[],
  ) {}
}

export type Item = Atomic | MetaNode | XMap | XArray | XFunction;
export type Sequence = Item[];

export const EMPTY: Sequence = [];

export function isNode(item: Item): item is MetaNode {
  return typeof item === 'object' && (item as MetaNode).isNode === true;
}

export function isAtomic(item: Item): item is Atomic {
  return typeof item !== 'object' || item instanceof Atom;
}

export function typeOf(value: Atomic): AtomicType {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'integer';
    default:
      return value.type;
  }
}

export function untyped(text: string): Atom<'untypedAtomic'> {
  return new Atom('untypedAtomic', text);
}

export function decimal(n: number): Atom<'decimal'> {
  return new Atom('decimal', n);
}

export function double(n: number): Atom<'double'> {
  return new Atom('double', n);
}

/** Atomization (XPath 2.4.2): nodes give their typed values; arrays their members', flattened. */
export function atomize(seq: readonly Item[]): Atomic[] {
  let out: Atomic[] | undefined;
  for (let i = 0; i < seq.length; i++) {
    const item = seq[i]!;
    if (typeof item !== 'object' || item instanceof Atom) {
      if (out) out.push(item);
      continue;
    }
    out ??= seq.slice(0, i) as Atomic[];
    atomizeItem(item, out);
  }
  return out ?? (seq as Atomic[]);
}

function atomizeItem(item: MetaNode | XMap | XArray | XFunction, out: Atomic[]): void {
  if (item instanceof XArray) {
    for (const member of item.members) for (const a of atomize(member)) out.push(a);
  } else if (item instanceof XMap || item instanceof XFunction) {
    throw new MetapathError('FOTY0013', `a ${item instanceof XMap ? 'map' : 'function'} has no atomic value`);
  } else {
    const value = item.typedValue();
    if (value === undefined) {
      throw new MetapathError(
        'FOTY0012',
        `${describeNode(item)} has no value of its own (it is ${item.kind === 'document' ? 'a document' : 'an assembly'})`,
      );
    }
    out.push(value);
  }
}

export function describeNode(node: MetaNode): string {
  if (node.kind === 'flag') return `flag @${node.name}`;
  if (node.kind === 'document') return 'the document';
  return `${node.kind} ${node.name}`;
}

/** The text of an atomic value, as fn:string gives it. */
export function stringOf(value: Atomic): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return integerText(value);
    default:
      return atomText(value);
  }
}

/** Filled in by casts.ts, which knows every type's canonical form; kept here to avoid an import cycle. */
let atomText: (atom: Atom) => string = (atom) => String(atom.value);

export function setAtomText(format: (atom: Atom) => string): void {
  atomText = format;
}

function integerText(n: number): string {
  return Object.is(n, -0) ? '0' : Number.isSafeInteger(n) ? String(n) : BigInt(Math.trunc(n)).toString();
}

/** fn:string of any item. */
export function stringValueOf(item: Item): string {
  if (typeof item !== 'object' || item instanceof Atom) return stringOf(item);
  if (item instanceof XMap || item instanceof XArray || item instanceof XFunction) {
    throw new MetapathError(
      'FOTY0014',
      `a ${item instanceof XMap ? 'map' : item instanceof XArray ? 'array' : 'function'} has no string value`,
    );
  }
  return item.stringValue();
}

/** Effective boolean value (XPath 2.4.3). */
export function ebv(seq: readonly Item[]): boolean {
  if (seq.length === 0) return false;
  const first = seq[0]!;
  if (typeof first === 'object' && (first as MetaNode).isNode === true) return true;
  if (seq.length > 1)
    throw new MetapathError(
      'FORG0006',
      'the effective boolean value of a sequence of more than one value that does not start with a node is undefined',
    );
  switch (typeof first) {
    case 'boolean':
      return first;
    case 'string':
      return first.length > 0;
    case 'number':
      return first !== 0 && !Number.isNaN(first);
    default:
      if (first instanceof Atom) {
        switch (first.type) {
          case 'untypedAtomic':
          case 'anyURI':
            return (first.value as string).length > 0;
          case 'decimal':
          case 'double':
          case 'float':
            return first.value !== 0 && !Number.isNaN(first.value as number);
        }
        throw new MetapathError('FORG0006', `a value of type xs:${first.type} has no effective boolean value`);
      }
      throw new MetapathError(
        'FORG0006',
        `${first instanceof XMap ? 'a map' : first instanceof XArray ? 'an array' : 'a function'} has no effective boolean value`,
      );
  }
}

export function isNumeric(value: Atomic): boolean {
  return (
    typeof value === 'number' ||
    (value instanceof Atom && (value.type === 'decimal' || value.type === 'double' || value.type === 'float'))
  );
}

export function numericValue(value: Atomic): number {
  return typeof value === 'number' ? value : ((value as Atom).value as number);
}
