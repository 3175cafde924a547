import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SaxesParser } from 'saxes';

/**
 * A plain element tree of a Metaschema document: NIST's modules at build time, and the external
 * constraint sets people give the CLI and the server (which parseXmlTree reads without a DTD).
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: (XmlElement | string)[];
  /** Where the start tag is, for messages about the element. */
  line: number;
  column: number;
}

/** Deeper than any Metaschema document: a hostile file cannot exhaust the stack of those that walk the tree. */
const MAX_DEPTH = 100;

const ENTITY_DECL = /<!ENTITY\s+([\w.-]+)\s+SYSTEM\s+"([^"]+)"\s*>/g;
const DOCTYPE = /<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/;

/**
 * NIST's modules pull shared allowed-values lists in through external entities declared in the
 * DOCTYPE. saxes does not process DTDs (deliberately), so the declared files are spliced in as
 * text before parsing. This is done only for our own vendored modules at build time.
 */
function expandEntityIncludes(path: string, text: string): string {
  const doctype = DOCTYPE.exec(text);
  if (!doctype) return text;
  const includes = new Map<string, string>();
  for (const [, name, href] of (doctype[1] ?? '').matchAll(ENTITY_DECL)) {
    includes.set(name!, readFileSync(resolve(dirname(path), href!), 'utf8'));
  }
  // The DOCTYPE's lines stay as blank lines and an include's text joins the line that names it,
  // so the lines elements report are those of the module file.
  const blankLines = doctype[0].replace(/[^\n]/g, '');
  const body = text.slice(0, doctype.index) + blankLines + text.slice(doctype.index + doctype[0].length);
  return body.replace(/&([\w.-]+);/g, (whole, name: string) => includes.get(name)?.replace(/\r?\n/g, ' ') ?? whole);
}

/** A vendored NIST module, its entity includes spliced in. */
export function readXmlTree(path: string): XmlElement {
  return parseXmlTree(expandEntityIncludes(path, readFileSync(path, 'utf8')), path);
}

/**
 * Reads XML into an element tree, naming `source` in errors. A DOCTYPE is refused, so no entity
 * is ever declared or expanded (saxes itself knows only the five predefined ones).
 */
export function parseXmlTree(text: string, source: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const fail = (message: string): never => {
    throw new XmlTreeError(`${source}:${parser.line}:${parser.column + 1}: ${message}`, parser.line, parser.column + 1);
  };
  parser.on('doctype', () => fail('a DOCTYPE is not accepted: entities are never expanded'));
  parser.on('opentag', (tag) => {
    if (stack.length >= MAX_DEPTH) fail(`elements are nested more than ${MAX_DEPTH} deep`);
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) {
      if (a.prefix !== 'xmlns' && a.name !== 'xmlns') attrs[a.local] = a.value;
    }
    const el: XmlElement = { name: tag.local, attrs, children: [], line: parser.line, column: parser.column + 1 };
    stack.at(-1)?.children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => {
    const el = stack.pop()!;
    if (stack.length === 0) root = el;
  });
  parser.on('text', (t) => stack.at(-1)?.children.push(t));
  parser.on('error', (e) => fail(e.message.replace(/^(?:[^:\s]*:)?\d+:\d+: /, '')));
  parser.write(text).close();
  if (!root) throw new XmlTreeError(`${source}: no root element`, 1, 1);
  return root;
}

export class XmlTreeError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'XmlTreeError';
  }
}

export function childElements(el: XmlElement, name?: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string' && (name === undefined || c.name === name));
}

export function firstChild(el: XmlElement, name: string): XmlElement | undefined {
  return childElements(el, name)[0];
}

/** Text content with whitespace runs collapsed, as a person reads it. */
export function textOf(el: XmlElement | undefined): string | undefined {
  if (!el) return undefined;
  const parts: string[] = [];
  const walk = (n: XmlElement | string) => (typeof n === 'string' ? parts.push(n) : n.children.forEach(walk));
  walk(el);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
