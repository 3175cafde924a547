import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { OscalError } from '../errors.js';
import { BLOCK_ELEMENTS, knownName, MarkupError, markupToMarkdown, type MarkupElement, type MarkupNode } from '../markup/index.js';
import { modelFor, modelNames, type AssemblyBinding, type ChildBinding, type FieldBinding, type OscalModel, type XmlEntry } from '../model/model.js';
import type { ParsedDocument } from './document.js';
import { MAX_NESTING, tooDeep } from './nesting.js';
import { groupForJson } from './groups.js';
import { positionAt, type Position } from './positions.js';
import { onlySpace, tagStart } from './xml-space.js';
import { isDeclaration, localName, NamespaceScopes, XMLNS_NS, type Attribute } from './xml-namespaces.js';
import { describeType, scalarFromText } from './scalars.js';

export const OSCAL_NS = 'http://csrc.nist.gov/ns/oscal/1.0';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

const VERSION_ELEMENT = /<(?:[\w.-]+:)?oscal-version\s*>\s*([^<]*?)\s*<\//;

/**
 * A DOCTYPE can only stand in the prolog, so the prolog is checked before parsing: the parser
 * then never sees one, and no entity can be declared, let alone expanded. Returns where the
 * root element starts (-1 for an unterminated prolog, which the parser then reports).
 */
function checkProlog(text: string): number {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('<?', i)) i = text.indexOf('?>', i) + 2;
    else if (text.startsWith('<!--', i)) i = text.indexOf('-->', i) + 3;
    else break;
    if (i < 2) return -1;
  }
  if (text.startsWith('<!DOCTYPE', i) || text.startsWith('<!doctype', i)) {
    const { line, column } = positionAt(text, i);
    throw new OscalError('forbidden-construct', 'a DOCTYPE is not accepted: OSCAL XML needs no DTD, and entities are never expanded', { line, column });
  }
  return i;
}

/**
 * Without a declared version there is no model to read with; before saying so, make sure the
 * text is XML at all, so that (say) JSON sent as XML is reported as not well-formed.
 */
function assertWellFormed(text: string): void {
  const parser = new SaxesParser({ xmlns: false, position: true });
  try {
    parser.write(text).close();
  } catch (e) {
    throw notWellFormed(parser, e);
  }
}

/** saxes' own messages start with "line:column: "; ours carry the position apart. */
const SAXES_POSITION = /^(?:[^:\s]*:)?\d+:\d+: /;

function notWellFormed(parser: SaxesParser, e: unknown): OscalError {
  const message = e instanceof Error ? e.message.replace(SAXES_POSITION, '') : String(e);
  return new OscalError('malformed', `not well-formed XML: ${message}`, { line: parser.line, column: parser.column });
}

/** The root element's local name, read off the text where the prolog ends. */
function rootName(text: string, at: number): string {
  const name = /^<([^\s/>]+)/.exec(text.slice(at, at + 200))?.[1] ?? '*';
  return name.slice(name.indexOf(':') + 1);
}

/** The declared release is needed before the first element is interpreted. */
function declaredVersion(text: string): string | undefined {
  return VERSION_ELEMENT.exec(text)?.[1];
}

interface AssemblyFrame {
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

interface WrapperFrame {
  kind: 'wrapper';
  child: ChildBinding;
  position: number;
  parent: AssemblyFrame;
}

/** Fields never nest, so one of these serves every field of a parse in turn. */
interface FieldFrame {
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
}

/** An element inside markup content is its own frame. */
type Frame = AssemblyFrame | WrapperFrame | FieldFrame | MarkupElement;

const NO_FLAGS: Record<string, unknown> = Object.freeze({});
/** Assemblies with flags only (props, links) are common; their value list is made on first child. */
const NO_VALUES: unknown[] = Object.freeze([]) as unknown as unknown[];
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NOT_WHITESPACE = /\S/;

/**
 * Compares a name from the document with one from the model character by character: V8 compares
 * a two-byte string (any slice of a document with a character beyond Latin-1) with a one-byte
 * one of the same length in its runtime, far slower than this loop over a short name.
 */
function sameName(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/** The entry an element is, searched from the last one found (the same child often repeats). */
function entryFor(frame: AssemblyFrame, entries: XmlEntry[], name: string): XmlEntry | undefined {
  const count = entries.length;
  for (let tried = 0, i = frame.next; tried < count; tried++, i = i + 1 === count ? 0 : i + 1) {
    if (sameName(entries[i]!.name, name)) {
      frame.next = i;
      return entries[i];
    }
  }
  return undefined;
}

function appendText(nodes: MarkupNode[], text: string): void {
  const last = nodes.length - 1;
  if (last >= 0 && typeof nodes[last] === 'string') nodes[last] = (nodes[last] as string) + text;
  else nodes.push(text);
}

/**
 * Reads OSCAL XML into the OSCAL JSON form in one streaming pass. Strict: an element, attribute
 * or text the model does not allow is an error with its line and column, and a DOCTYPE is
 * refused outright so no entity is ever declared, let alone expanded.
 */
export function readXml(text: string, positions?: Map<string, Position>): ParsedDocument {
  const rootAt = checkProlog(text);
  const version = declaredVersion(text);
  if (version === undefined) assertWellFormed(text);
  const model: OscalModel = modelFor(version, rootAt < 0 ? '*' : rootName(text, rootAt));
  try {
    return parseXml(text, model, positions, false);
  } catch {
    // Whatever stopped the quick pass, the pass that is handed every text reports it, and
    // exactly where and as it always has.
    positions?.clear();
    return parseXml(text, model, positions, true);
  }
}

/**
 * The streaming pass. Between the elements of an assembly only whitespace may stand, and saxes
 * would slice out every indentation run to hand it over; unless `everyText` is set, its text
 * handler is unset there and each run is looked at in the document instead, when the next tag
 * comes. A run that is more than whitespace, comments and processing instructions throws, for
 * the caller to read the document again with every text handed over.
 */
function parseXml(text: string, model: OscalModel, positions: Map<string, Position> | undefined, everyText: boolean): ParsedDocument {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const namespaces = new NamespaceScopes([OSCAL_NS, XSI_NS]);
  // The attributes of the element being opened, the first attributeCount of these, collected as
  // saxes reports them: the object it gathers them in is in dictionary mode, slow to enumerate.
  const attributes: Attribute[] = [];
  let attributeCount = 0;
  let declares = false;
  const stack: Frame[] = [];
  const field: FieldFrame = { kind: 'field', child: undefined!, position: 0, parent: undefined!, def: undefined!, flags: NO_FLAGS, text: '', isMarkup: false, markup: [] };
  let result: ParsedDocument | undefined;
  let tagLine = 1;
  let tagColumn = 1;
  let textHandled = true;
  /** Where the text after the last tag starts. */
  let textFrom = 0;

  const fail = (code: ConstructorParameters<typeof OscalError>[0], message: string, line = tagLine, column = tagColumn): never => {
    throw new OscalError(code, message, { line, column });
  };

  const flagValues = (def: number, target: Record<string, unknown>, element: string): void => {
    const flags = model.index(def).flags;
    for (let i = 0; i < attributeCount; i++) {
      const { name, value: raw } = attributes[i]!;
      const uri = namespaces.attributeUri(name);
      if (uri === XMLNS_NS || uri === XSI_NS) continue;
      const flag = uri === '' ? flags.get(name) : undefined;
      if (!flag) {
        const allowed = [...flags.keys()];
        fail('unknown-element', `attribute ${name} is not allowed on <${element}>` +
          (allowed.length ? `; allowed: ${allowed.join(', ')}` : '; it takes no attributes'));
      } else {
        const value = scalarFromText(raw, flag.type);
        if (value === undefined) fail('invalid-value', `attribute ${name} of <${element}> must be ${describeType(flag.type)}, not ${JSON.stringify(raw)}`);
        target[flag.name] = value;
      }
    }
  };

  const openMarkup = (tag: SaxesTagPlain, uri: string | undefined, local: string, into: MarkupNode[]): void => {
    let attrs = NO_ATTRIBUTES;
    for (let i = 0; i < attributeCount; i++) {
      const { name, value } = attributes[i]!;
      if (namespaces.attributeUri(name) === XMLNS_NS) continue;
      if (attrs === NO_ATTRIBUTES) attrs = {};
      attrs[name] = value;
    }
    if (uri !== OSCAL_NS) fail('invalid-markup', `element <${tag.name}> is not in the OSCAL namespace ${OSCAL_NS}`);
    const element: MarkupElement = { name: knownName(local), attrs, children: [], line: tagLine, column: tagColumn };
    into.push(element);
    stack.push(element);
  };

  /** Records where the value of a child starts, under the pointer it will have in the JSON form. */
  const record = (parent: AssemblyFrame, child: ChildBinding, position: number): string => {
    const base = `${parent.pointer}/${child.json}`;
    const pointer = child.group ? `${base}/${(parent.values[position] as unknown[] | undefined)?.length ?? 0}` : base;
    positions!.set(pointer, { line: tagLine, column: tagColumn });
    return pointer;
  };

  const openChild = (parent: AssemblyFrame, child: ChildBinding, position: number): void => {
    const target = model.defs[child.def]!;
    const pointer = positions ? record(parent, child, position) : undefined;
    if (target.kind === 'assembly') {
      const frame: AssemblyFrame = { kind: 'assembly', def: child.def, name: child.name, obj: {}, next: 0, values: NO_VALUES, pointer };
      flagValues(child.def, frame.obj, child.name);
      addValue(parent, child, position, frame.obj);
      stack.push(frame);
      return;
    }
    field.child = child;
    field.position = position;
    field.parent = parent;
    field.def = target;
    // Most fields have no flags; they share one frozen object (any attribute on them is an error).
    field.flags = target.flags.length ? {} : NO_FLAGS;
    field.text = '';
    field.isMarkup = target.type === 'markup-line' || target.type === 'markup-multiline';
    field.markup.length = 0;
    flagValues(child.def, field.flags, child.name);
    stack.push(field);
  };

  /** Hands text over where the open element takes any, or always when `everyText` is set. */
  const handleText = (): void => {
    const top = stack[stack.length - 1];
    const wanted = everyText || (top !== undefined && (!('kind' in top) || top.kind === 'field'));
    if (wanted === textHandled) return;
    textHandled = wanted;
    if (wanted) parser.on('text', onText);
    else parser.off('text');
  };

  /** The text before the tag just read, when it was not handed over. */
  const checkUnhandledText = (): void => {
    if (!textHandled && stack.length > 0 && !onlySpace(text, textFrom, tagStart(text, parser.position - 1))) throw new Error('text between elements');
  };

  // Fired just past the name (and the character after it): step back to the '<'.
  parser.on('opentagstart', (tag) => {
    checkUnhandledText();
    tagLine = parser.line;
    tagColumn = parser.column - tag.name.length - 1;
    attributeCount = 0;
    declares = false;
  });

  parser.on('attribute', (attribute) => {
    attributes[attributeCount++] = attribute;
    if (isDeclaration(attribute.name)) declares = true;
  });

  parser.on('opentag', (tag) => {
    openElement(tag);
    handleText();
    textFrom = parser.position;
  });

  const openElement = (tag: SaxesTagPlain): void => {
    if (stack.length >= MAX_NESTING) throw tooDeep({ line: tagLine, column: tagColumn });
    const top = stack[stack.length - 1];
    if (declares) namespaces.open(attributes.slice(0, attributeCount), stack.length + 1);
    const uri = namespaces.elementUri(tag.name);
    if (uri === undefined) fail('malformed', `the prefix of <${tag.name}> is not declared`);
    const local = localName(tag.name);
    if (top === undefined) {
      if (result) fail('malformed', 'only one root element is allowed');
      if (uri !== OSCAL_NS) fail('unknown-root', `root element <${tag.name}> is not in the OSCAL namespace ${OSCAL_NS}`);
      const def = model.rootDef(local);
      if (def === undefined) {
        if (modelNames().includes(local)) fail('model-not-in-version', `<${local}> is not a model of OSCAL ${model.version}; it has: ${Object.keys(model.roots).join(', ')}`);
        fail('unknown-root', `<${local}> is not an OSCAL model; expected one of: ${modelNames().join(', ')}`);
      }
      const frame: AssemblyFrame = { kind: 'assembly', def: def!, name: local, obj: {}, next: 0, values: [], pointer: `/${local}` };
      positions?.set('', { line: tagLine, column: tagColumn }).set(frame.pointer!, { line: tagLine, column: tagColumn });
      flagValues(def!, frame.obj, local);
      stack.push(frame);
      return;
    }
    if (!('kind' in top)) {
      openMarkup(tag, uri, local, top.children);
      return;
    }
    switch (top.kind) {
      case 'field':
        if (!top.isMarkup) fail('unknown-element', `<${top.child.name}> holds only text; element <${tag.name}> is not allowed in it`);
        openMarkup(tag, uri, local, top.markup);
        return;
      case 'wrapper': {
        if (uri !== OSCAL_NS || !sameName(local, top.child.name)) fail('unknown-element', `<${top.child.wrapper}> may contain only <${top.child.name}> elements, not <${tag.name}>`);
        openChild(top.parent, top.child, top.position);
        return;
      }
      case 'assembly': {
        const index = model.index(top.def);
        const entry = uri === OSCAL_NS ? entryFor(top, index.xml, local) : undefined;
        if (entry) {
          if (entry.isWrapper) stack.push({ kind: 'wrapper', child: entry.child, position: entry.position, parent: top });
          else openChild(top, entry.child, entry.position);
          return;
        }
        if (index.unwrapped && uri === OSCAL_NS && BLOCK_ELEMENTS.has(local)) {
          if (positions && !top.unwrapped) positions.set(`${top.pointer}/${index.unwrapped.json}`, { line: tagLine, column: tagColumn });
          openMarkup(tag, uri, local, (top.unwrapped ??= []));
          return;
        }
        const allowed = index.xml.map((e) => e.name);
        fail('unknown-element', `element <${tag.name}> is not allowed in <${top.name}>` +
          (allowed.length ? `; allowed: ${allowed.join(', ')}` : '') + (index.unwrapped ? ', and prose blocks' : ''));
      }
    }
  };

  const onText = (t: string): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) return;
    if (!('kind' in top)) {
      appendText(top.children, t);
      return;
    }
    switch (top.kind) {
      case 'field':
        if (top.isMarkup) appendText(top.markup, t);
        else top.text += t;
        return;
      default:
        if (NOT_WHITESPACE.test(t)) {
          const where = top.kind === 'assembly' ? top.name : top.child.wrapper;
          fail('unknown-element', `text ${JSON.stringify(t.trim().slice(0, 40))} is not allowed directly in <${where}>`, parser.line, parser.column);
        }
    }
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  handleText();

  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) checkUnhandledText();
    closeElement();
    handleText();
    textFrom = parser.position;
  });

  const closeElement = (): void => {
    namespaces.close(stack.length);
    const frame = stack.pop()!;
    if (!('kind' in frame)) return;
    switch (frame.kind) {
      case 'wrapper':
        return;
      case 'field':
        addValue(frame.parent, frame.child, frame.position, fieldValue(frame));
        return;
      case 'assembly':
        finishAssembly(frame);
        if (stack.length === 0) result = { model: frame.name, version: model.version, content: { [frame.name]: frame.obj } };
    }
  };

  const storeValue = (parent: AssemblyFrame, child: ChildBinding, position: number, value: unknown): void => {
    if (child.group) {
      const list = parent.values[position] as unknown[] | undefined;
      if (list) list.push(value);
      else parent.values[position] = [value];
    } else {
      if (parent.values[position] !== undefined) fail('invalid-structure', `<${child.name}> may appear only once in <${parent.name}>`);
      parent.values[position] = value;
    }
  };

  const addValue = (parent: AssemblyFrame, child: ChildBinding, position: number, value: unknown): void => {
    if (parent.values === NO_VALUES) parent.values = new Array((model.defs[parent.def] as AssemblyBinding).children.length);
    storeValue(parent, child, position, value);
  };

  const fieldValue = (frame: FieldFrame): unknown => {
    const def = frame.def;
    let value: unknown;
    if (frame.isMarkup) {
      value = markdownOf(frame.markup, def.type === 'markup-multiline');
    } else {
      value = scalarFromText(frame.text, def.type);
      if (value === undefined) fail('invalid-value', `<${frame.child.name}> must be ${describeType(def.type)}, not ${JSON.stringify(frame.text)}`);
    }
    if (def.flags.length === 0) return value;
    if (def.valueKeyFlag) {
      const { [def.valueKeyFlag]: key, ...rest } = frame.flags;
      if (typeof key !== 'string') fail('invalid-structure', `<${frame.child.name}> needs its ${def.valueKeyFlag} attribute`);
      return { [key as string]: value, ...rest };
    }
    frame.flags[def.valueKey] = value;
    return frame.flags;
  };

  const markdownOf = (nodes: MarkupNode[], multiline: boolean): string => {
    try {
      return markupToMarkdown(nodes, multiline);
    } catch (e) {
      if (e instanceof MarkupError) fail('invalid-markup', e.message, e.line ?? tagLine, e.column ?? tagColumn);
      throw e;
    }
  };

  const finishAssembly = (frame: AssemblyFrame): void => {
    const def = model.defs[frame.def]!;
    if (def.kind !== 'assembly') return;
    const index = model.index(frame.def);
    const children = def.children;
    for (let position = 0; position < children.length; position++) {
      const child = children[position]!;
      if (child === index.unwrapped) {
        if (frame.unwrapped) frame.obj[child.json] = markdownOf(frame.unwrapped, true);
        continue;
      }
      const value = frame.values[position];
      if (value === undefined) continue;
      frame.obj[child.json] = child.group ? groupForJson(value as unknown[], child, model) : value;
      if (positions && child.group === 'SINGLETON_OR_ARRAY' && (value as unknown[]).length === 1) {
        // JSON holds a lone item without the array, so its pointer has no index.
        const base = `${frame.pointer}/${child.json}`;
        positions.set(base, positions.get(`${base}/0`)!);
      }
    }
  };

  // No 'error' or 'doctype' handler: saxes throws on errors by itself, and each extra handler
  // property measurably slows its character loop (a 5x slowdown was seen with all of them set).
  // The document goes in as one chunk, so saxes' position is an index into `text`.
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof OscalError) throw e;
    throw notWellFormed(parser, e);
  }
  if (!result) throw new OscalError('malformed', 'no root element found');
  return result;
}

/** Where each value of a (well-formed, readable) document starts, by its JSON pointer. */
export function xmlPositions(text: string): Map<string, Position> {
  const positions = new Map<string, Position>();
  readXml(text, positions);
  return positions;
}
