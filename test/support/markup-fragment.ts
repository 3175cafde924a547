import { SaxesParser } from 'saxes';
import type { MarkupElement, MarkupNode } from '../../src/oscal/markup/index.js';

/** Reads an XML fragment into markup nodes as the XML reader would: names, decoded text, positions. */
export function readMarkupFragment(xml: string): MarkupNode[] {
  const parser = new SaxesParser({ fragment: true, position: true });
  const root: MarkupElement = { name: '#root', attrs: {}, children: [] };
  const stack = [root];
  parser.on('opentag', (tag) => {
    const el: MarkupElement = {
      name: tag.name,
      attrs: { ...(tag.attributes as Record<string, string>) },
      children: [],
      line: parser.line,
      column: parser.column,
    };
    stack[stack.length - 1]?.children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (text) => void stack[stack.length - 1]?.children.push(text));
  parser.write(xml).close();
  return root.children;
}
