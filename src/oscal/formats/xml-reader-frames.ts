import type { MarkupElement, MarkupNode } from '../markup/index.js';
import type { ChildBinding, FieldBinding, XmlEntry } from '../model/model.js';

/**
 * The open elements of an XML read, one frame each, innermost last. An assembly gathers its
 * children's values; a wrapper (the XML grouping element of a child) only passes its items on to
 * the assembly it stands in; a field gathers its text or markup; an element inside markup content
 * is the markup element itself, which has no `kind`.
 */
export type Frame = AssemblyFrame | WrapperFrame | FieldFrame | MarkupElement;

export interface AssemblyFrame {
  kind: 'assembly';
  def: number;
  name: string;
  obj: Record<string, unknown>;
  /** Where the search for the next child element starts: the entry of the last one found. */
  next: number;
  /** Each child's value (or list of values, when it repeats), by position in the definition's children. */
  values: unknown[];
  unwrapped?: MarkupNode[];
  /** JSON pointer of the object, kept only when positions are being recorded. */
  pointer?: string;
}

export interface WrapperFrame {
  kind: 'wrapper';
  child: ChildBinding;
  position: number;
  parent: AssemblyFrame;
}

/** Fields never nest, so one of these serves every field of a read in turn. */
export interface FieldFrame {
  kind: 'field';
  child: ChildBinding;
  position: number;
  parent: AssemblyFrame;
  def: FieldBinding;
  flags: Record<string, unknown>;
  text: string;
  isMarkup: boolean;
  /** Reused: the markup converter keeps nothing of it. */
  markup: MarkupNode[];
  /** JSON pointer of the value, kept only when positions are being recorded. */
  pointer: string | undefined;
}

export const NO_FLAGS: Record<string, unknown> = Object.freeze({});
/** Assemblies with flags only (props, links) are common; their value list is made on first child. */
export const NO_VALUES: unknown[] = Object.freeze([]) as unknown as unknown[];

export function emptyFieldFrame(): FieldFrame {
  return {
    kind: 'field',
    child: undefined!,
    position: 0,
    parent: undefined!,
    def: undefined!,
    flags: NO_FLAGS,
    text: '',
    isMarkup: false,
    markup: [],
    pointer: undefined,
  };
}

/**
 * Compares a name from the document with one from the model character by character: V8 compares
 * a two-byte string (any slice of a document with a character beyond Latin-1) with a one-byte
 * one of the same length in its runtime, far slower than this loop over a short name.
 */
export function sameName(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/** The entry an element is, searched from the last one found (the same child often repeats). */
export function entryFor(frame: AssemblyFrame, entries: XmlEntry[], name: string): XmlEntry | undefined {
  const count = entries.length;
  for (let tried = 0, i = frame.next; tried < count; tried++, i = i + 1 === count ? 0 : i + 1) {
    if (sameName(entries[i]!.name, name)) {
      frame.next = i;
      return entries[i];
    }
  }
  return undefined;
}
