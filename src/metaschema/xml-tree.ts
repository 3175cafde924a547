import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SaxesParser } from 'saxes';

/** A plain element tree of a Metaschema module: build-time input only, never user data. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: (XmlElement | string)[];
}

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
  const body = text.slice(0, doctype.index) + text.slice(doctype.index + doctype[0].length);
  return body.replace(/&([\w.-]+);/g, (whole, name: string) => includes.get(name) ?? whole);
}

export function readXmlTree(path: string): XmlElement {
  const text = expandEntityIncludes(path, readFileSync(path, 'utf8'));
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) {
      if (a.prefix !== 'xmlns' && a.name !== 'xmlns') attrs[a.local] = a.value;
    }
    const el: XmlElement = { name: tag.local, attrs, children: [] };
    stack.at(-1)?.children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => {
    const el = stack.pop()!;
    if (stack.length === 0) root = el;
  });
  parser.on('text', (t) => stack.at(-1)?.children.push(t));
  parser.on('error', (e) => {
    throw new Error(`${path}: ${e.message}`);
  });
  parser.write(text).close();
  if (!root) throw new Error(`${path}: no root element`);
  return root;
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
