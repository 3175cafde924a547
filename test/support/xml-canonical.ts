import { SaxesParser } from 'saxes';

/** Inline elements whose edge whitespace renders the same inside or just outside them. */
const EMPHASIS = new Set(['em', 'strong', 'i', 'b', 'q']);

/** Elements whose text content is inline markup, where whitespace between child elements is content. */
const INLINE_CONTAINERS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'td',
  'th',
  'em',
  'strong',
  'i',
  'b',
  'code',
  'q',
  'sub',
  'sup',
  'a',
  'pre',
]);

interface Node {
  name: string;
  attrs: [string, string][];
  children: (Node | string)[];
}

/**
 * A comparable form of an XML document: attributes sorted, comments and processing
 * instructions dropped, whitespace-only text removed where it only separates elements
 * (indentation), and other runs of whitespace folded to one space as markup rendering does
 * (except inside pre, where whitespace is content).
 */
export function canonicalXml(text: string): Node {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Node[] = [];
  let root: Node | undefined;
  parser.on('opentag', (tag) => {
    const attrs = Object.values(tag.attributes)
      .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
      .map((a) => [`{${a.uri}}${a.local}`, a.value] as [string, string])
      .sort((x, y) => (x[0] < y[0] ? -1 : 1));
    const node: Node = { name: `{${tag.uri}}${tag.local}`, attrs, children: [] };
    stack.at(-1)?.children.push(node);
    stack.push(node);
  });
  parser.on('text', (t) => stack.at(-1)?.children.push(t));
  parser.on('closetag', () => {
    const node = stack.pop()!;
    const local = node.name.slice(node.name.indexOf('}') + 1);
    const merged: (Node | string)[] = [];
    for (const c of node.children) {
      if (typeof c === 'string' && typeof merged.at(-1) === 'string') merged[merged.length - 1] += c;
      else merged.push(c);
    }
    const hasElements = merged.some((c) => typeof c !== 'string');
    const mixed = merged.some((c) => typeof c === 'string' && c.trim() !== '');
    const kept =
      hasElements && !mixed && !INLINE_CONTAINERS.has(local)
        ? merged.filter((c) => typeof c !== 'string' || c.trim() !== '')
        : merged;
    const inPre = local === 'pre' || stack.some((n) => n.name.endsWith('}pre'));
    node.children = inPre
      ? kept
      : hoistEdgeSpaces(kept.map((c) => (typeof c === 'string' ? c.replace(/\s+/g, ' ') : c)));
    if (stack.length === 0) root = node;
  });
  parser.write(text).close();
  return root!;
}

/** `a<em> b </em>c` and `a <em>b</em> c` render alike: move such spaces out, then fold doubles. */
function hoistEdgeSpaces(children: (Node | string)[]): (Node | string)[] {
  const out: (Node | string)[] = [];
  const pushText = (t: string) => {
    if (typeof out.at(-1) === 'string') out[out.length - 1] = ((out.at(-1) as string) + t).replace(/ {2,}/g, ' ');
    else out.push(t);
  };
  for (const c of children) {
    if (typeof c === 'string') {
      pushText(c);
      continue;
    }
    const local = c.name.slice(c.name.indexOf('}') + 1);
    const first = c.children[0];
    const last = c.children.at(-1);
    const lead = EMPHASIS.has(local) && typeof first === 'string' && first.startsWith(' ');
    const trail = EMPHASIS.has(local) && typeof last === 'string' && last.endsWith(' ');
    if (lead) c.children[0] = (first as string).slice(1);
    if (trail) c.children[c.children.length - 1] = (c.children.at(-1) as string).replace(/ $/, '');
    c.children = c.children.filter((x) => x !== '');
    if (lead) pushText(' ');
    out.push(c);
    if (trail) pushText(' ');
  }
  return out;
}
