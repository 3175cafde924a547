// Properties of the markup conversion over NIST's published content, XML/JSON pairs
// made by NIST's own converter:
//   (1) every Markdown value of the JSON survives Markdown -> XML -> Markdown unchanged;
//   (2) every markup value of the XML survives XML -> Markdown -> XML (canonicalised);
//   (3) XML -> Markdown gives NIST's JSON string, except where NIST's string does not
//       represent the XML (its converter lost content), which (2) shows ours does.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import { SaxesParser } from 'saxes';
import { markdownToXml, markupToMarkdown } from '../src/oscal/markup/index.js';
import type { MarkupElement, MarkupNode } from '../src/oscal/markup/index.js';

const CONTENT = '/work/shared/content';

// Markup fields of the OSCAL models (vendor/nist-oscal-metaschema: as-type="markup-…").
// Their XML elements carry no attributes, which tells the field "statement" from the
// SSP assembly of the same name. "prose" is unwrapped: the blocks sit in part/guideline.
const LINE_FIELDS = new Set(['title', 'label', 'text', 'choice', 'purpose', 'caption']);
const MULTILINE_FIELDS = new Set(['description', 'remarks', 'usage', 'statement', 'adjustment-justification']);
const PROSE_HOLDERS = new Set(['part', 'guideline']);
const BLOCKS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'pre',
  'hr',
  'blockquote',
  'table',
  'img',
]);
const INLINE = new Set(['a', 'insert', 'br', 'code', 'em', 'i', 'b', 'strong', 'sub', 'sup', 'q', 'img']);
// Where whitespace at the start and end of the content does not render.
const BLOCK_CONTENT = new Set([
  '#multiline',
  'p',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'td',
  'th',
  'blockquote',
  'ul',
  'ol',
  'table',
  'tr',
]);

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

function readXml(xml: string, fragment: boolean): MarkupNode[] {
  const parser = new SaxesParser({ fragment, position: true });
  const root: MarkupElement = { name: '#root', attrs: {}, children: [] };
  const stack = [root];
  parser.on('opentag', (tag) => {
    const attrs: Record<string, string> = {};
    for (const [name, value] of Object.entries(tag.attributes as Record<string, string>))
      if (!name.startsWith('xmlns')) attrs[localName(name)] = value;
    const el: MarkupElement = {
      name: localName(tag.name),
      attrs,
      children: [],
      line: parser.line,
      column: parser.column,
    };
    stack[stack.length - 1]?.children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (text) => {
    const children = (stack[stack.length - 1] as MarkupElement).children;
    if (typeof children[children.length - 1] === 'string') children[children.length - 1] += text;
    else children.push(text);
  });
  parser.write(xml).close();
  return root.children;
}

/** A markup value, keyed by the id/uuid of the nearest object holding it and the field's JSON name. */
interface XmlValue {
  key: string;
  nodes: MarkupNode[];
  multiline: boolean;
}

function isElement(node: MarkupNode): node is MarkupElement {
  return typeof node !== 'string';
}

function hasAttributes(el: MarkupElement): boolean {
  return Object.keys(el.attrs).length > 0;
}

function xmlValues(nodes: MarkupNode[], anchor: string, out: XmlValue[]): XmlValue[] {
  for (const el of nodes.filter(isElement)) {
    const here = el.attrs.id ?? el.attrs.uuid ?? anchor;
    if (LINE_FIELDS.has(el.name) && !hasAttributes(el)) {
      out.push({ key: `${here}|${el.name}`, nodes: el.children, multiline: false });
    } else if (
      MULTILINE_FIELDS.has(el.name) &&
      !hasAttributes(el) &&
      el.children.filter(isElement).every((c) => BLOCKS.has(c.name))
    ) {
      out.push({ key: `${here}|${el.name}`, nodes: el.children, multiline: true });
    } else if (PROSE_HOLDERS.has(el.name)) {
      const blockAt = el.children.flatMap((c, i) => (isElement(c) && BLOCKS.has(c.name) ? [i] : []));
      const first = blockAt[0];
      const last = blockAt[blockAt.length - 1];
      if (first === undefined || last === undefined) xmlValues(el.children, here, out);
      else {
        out.push({ key: `${here}|prose`, nodes: el.children.slice(first, last + 1), multiline: true });
        xmlValues([...el.children.slice(0, first), ...el.children.slice(last + 1)], here, out);
      }
    } else xmlValues(el.children, here, out);
  }
  return out;
}

interface JsonValue {
  key: string;
  markdown: string;
  multiline: boolean;
}

function jsonValues(value: unknown, anchor: string, field: string, out: JsonValue[]): JsonValue[] {
  if (typeof value === 'string') {
    const multiline = MULTILINE_FIELDS.has(field) || field === 'prose';
    if (multiline || LINE_FIELDS.has(field)) out.push({ key: `${anchor}|${field}`, markdown: value, multiline });
  } else if (Array.isArray(value)) {
    for (const item of value) jsonValues(item, anchor, field, out);
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const here = typeof obj.id === 'string' ? obj.id : typeof obj.uuid === 'string' ? obj.uuid : anchor;
    for (const [name, item] of Object.entries(obj)) jsonValues(item, here, name, out);
  }
  return out;
}

/**
 * A canonical text of markup, for "equal XML": attributes in name order; i/b as em/strong;
 * outside pre, whitespace runs as one space, and whitespace dropped where it does not
 * render (between blocks, at the start and end of a block's content, around br and block
 * children, and at the edges of em/strong/q, where it moves outside).
 */
function canonical(nodes: MarkupNode[], context: string): string {
  type Item = string | { name: string; attrs: string; inner: string; block: boolean };
  const items: Item[] = [];
  const pushText = (text: string): void => {
    const last = items[items.length - 1];
    if (typeof last === 'string') items[items.length - 1] = (last + text).replace(/ {2,}/g, ' ');
    else items.push(text);
  };
  for (const node of nodes) {
    if (typeof node === 'string') {
      pushText(context === 'pre' ? node : node.replace(/[ \t\n\r]+/g, ' '));
      continue;
    }
    const name = node.name === 'i' ? 'em' : node.name === 'b' ? 'strong' : node.name;
    const attrs = Object.keys(node.attrs)
      .sort()
      .map((a) => ` ${a}=${JSON.stringify(node.attrs[a])}`)
      .join('');
    if (name === 'em' || name === 'strong' || name === 'q') {
      const children = [...node.children];
      const first = children[0];
      const lead = typeof first === 'string' && /^[ \t\n\r]/.test(first);
      if (lead) children[0] = first.replace(/^[ \t\n\r]+/, '');
      const last = children[children.length - 1];
      const trail = typeof last === 'string' && /[ \t\n\r]$/.test(last);
      if (trail) children[children.length - 1] = last.replace(/[ \t\n\r]+$/, '');
      const inner = canonical(children, name);
      if (lead) pushText(' ');
      if (inner !== '') items.push({ name, attrs, inner, block: false });
      if (trail) pushText(' ');
      continue;
    }
    items.push({ name, attrs, inner: canonical(node.children, name), block: !INLINE.has(name) || name === 'br' });
  }
  const trimsEdges = BLOCK_CONTENT.has(context);
  return items
    .map((item, i) => {
      if (typeof item !== 'string') return `<${item.name}${item.attrs}>${item.inner}</${item.name}>`;
      const before = items[i - 1];
      const after = items[i + 1];
      let text = item;
      if (trimsEdges && (before === undefined || (typeof before !== 'string' && before.block)))
        text = text.replace(/^ /, '');
      if (trimsEdges && (after === undefined || (typeof after !== 'string' && after.block)))
        text = text.replace(/ $/, '');
      return text === '' ? '' : JSON.stringify(text);
    })
    .join('');
}

const canonicalXml = (nodes: MarkupNode[], multiline: boolean): string =>
  canonical(nodes, multiline ? '#multiline' : '#line');
const readBack = (markdown: string, multiline: boolean): MarkupNode[] =>
  readXml(markdownToXml(markdown, multiline), true);

function contentPairs(): Array<{ xmlFile: string; jsonFile: string | undefined }> {
  const pairs: Array<{ xmlFile: string; jsonFile: string | undefined }> = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.xml')) {
        const jsonFile = path.replace('/xml/', '/json/').replace(/\.xml$/, '.json');
        pairs.push({ xmlFile: path, jsonFile: existsSync(jsonFile) ? jsonFile : undefined });
      }
    }
  };
  walk(CONTENT);
  return pairs.sort((a, b) => a.xmlFile.localeCompare(b.xmlFile));
}

/** What in the XML NIST's Markdown loses, for the report. */
function lossKind(nodes: MarkupNode[]): string {
  const all: MarkupElement[] = [];
  const collect = (ns: MarkupNode[]): void => {
    for (const n of ns.filter(isElement)) {
      all.push(n);
      collect(n.children);
    }
  };
  collect(nodes);
  const edgeSpace = (el: MarkupElement): boolean => {
    const first = el.children[0];
    const last = el.children[el.children.length - 1];
    return (
      (typeof first === 'string' && /^[ \t\n\r]/.test(first)) || (typeof last === 'string' && /[ \t\n\r]$/.test(last))
    );
  };
  if (all.some((el) => ['em', 'i', 'strong', 'b', 'q'].includes(el.name) && edgeSpace(el)))
    return 'emphasis with whitespace inside its edges';
  if (all.some((el) => el.name === 'li' && el.children.some((c) => isElement(c) && c.name === 'p')))
    return 'list items holding paragraphs';
  for (const name of ['sub', 'sup', 'blockquote', 'br', 'hr'])
    if (all.some((el) => el.name === name)) return `<${name}>`;
  if (all.some((el) => el.name === 'a' && el.attrs.title !== undefined)) return 'link title';
  return 'other';
}

describe('NIST published content', { skip: existsSync(CONTENT) ? false : `${CONTENT} is not available` }, () => {
  const pairs = existsSync(CONTENT) ? contentPairs() : [];

  test('property (2): XML -> Markdown -> XML keeps every XML markup value', (t) => {
    let values = 0;
    const failures: string[] = [];
    for (const { xmlFile } of pairs) {
      for (const value of xmlValues(readXml(readFileSync(xmlFile, 'utf8'), false), '', [])) {
        values++;
        const back = readBack(markupToMarkdown(value.nodes, value.multiline), value.multiline);
        if (canonicalXml(back, value.multiline) !== canonicalXml(value.nodes, value.multiline))
          failures.push(`${basename(xmlFile)} ${value.key}`);
      }
    }
    t.diagnostic(`${pairs.length} XML files, ${values} markup values, ${failures.length} not preserved`);
    assert.ok(values > 30000, `expected the NIST content, found ${values} values`);
    assert.deepEqual(failures, []);
  });

  test('properties (1) and (3) over the XML/JSON pairs', (t) => {
    let jsonCount = 0;
    let paired = 0;
    let equalToNist = 0;
    const notRoundTripped: string[] = [];
    const unexplained: string[] = [];
    const differences = new Map<string, number>();
    for (const { xmlFile, jsonFile } of pairs) {
      if (jsonFile === undefined) continue;
      const fromXml = new Map<string, XmlValue[]>();
      for (const value of xmlValues(readXml(readFileSync(xmlFile, 'utf8'), false), '', [])) {
        fromXml.set(value.key, [...(fromXml.get(value.key) ?? []), value]);
      }
      const fromJson = jsonValues(JSON.parse(readFileSync(jsonFile, 'utf8')), '', '', []);
      jsonCount += fromJson.length;
      for (const value of fromJson) {
        const again = markupToMarkdown(readBack(value.markdown, value.multiline), value.multiline);
        if (again !== value.markdown)
          notRoundTripped.push(
            `${basename(jsonFile)} ${value.key}: ${JSON.stringify(value.markdown)} -> ${JSON.stringify(again)}`,
          );
      }
      // Pair each JSON value with an XML value of the same object and field: equal ones first.
      const rest: JsonValue[] = [];
      for (const value of fromJson) {
        const candidates = fromXml.get(value.key) ?? [];
        const i = candidates.findIndex((c) => markupToMarkdown(c.nodes, c.multiline) === value.markdown);
        if (i < 0) rest.push(value);
        else {
          candidates.splice(i, 1);
          paired++;
          equalToNist++;
        }
      }
      for (const value of rest) {
        const twin = fromXml.get(value.key)?.shift();
        if (twin === undefined) continue;
        paired++;
        // NIST's string must read back as something else than the XML, i.e. it lost content, or
        // as the same markup but for runs of spaces, which NIST's converter collapses.
        const ours = markupToMarkdown(twin.nodes, twin.multiline);
        const nistLost =
          canonicalXml(readBack(value.markdown, value.multiline), value.multiline) !==
          canonicalXml(twin.nodes, twin.multiline);
        const collapsed = ours.replace(/ {2,}/g, ' ') === value.markdown;
        if (!nistLost && !collapsed)
          unexplained.push(
            `${basename(jsonFile)} ${value.key}: NIST ${JSON.stringify(value.markdown)}, ours ${JSON.stringify(ours)}`,
          );
        const kind = nistLost ? lossKind(twin.nodes) : 'runs of spaces (NIST collapses them)';
        differences.set(kind, (differences.get(kind) ?? 0) + 1);
      }
    }
    t.diagnostic(
      `(1) ${jsonCount} JSON markup values, ${jsonCount - notRoundTripped.length} unchanged by Markdown -> XML -> Markdown`,
    );
    t.diagnostic(`(3) ${paired} values paired with their XML, ${equalToNist} equal to NIST's string`);
    for (const [kind, count] of differences)
      t.diagnostic(`(3) differs where NIST's string loses content: ${kind}: ${count}`);
    assert.ok(
      jsonCount > 25000 && paired > 24000,
      `expected the NIST content, found ${jsonCount} values, ${paired} paired`,
    );
    assert.deepEqual(notRoundTripped, []);
    assert.deepEqual(unexplained, []);
    assert.deepEqual([...differences.keys()].sort(), [
      'emphasis with whitespace inside its edges',
      'list items holding paragraphs',
      'runs of spaces (NIST collapses them)',
    ]);
  });
});
