// What the generic blocks need to know about the whole document before rendering any part of it.
import { anchor, isRecord, textOf } from './anchors.js';
import { resourcesOf } from './back-matter.js';
import type { Walk } from './blocks.js';

function collectNames(value: unknown, into: Map<string, string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectNames(item, into);
    return;
  }
  if (!isRecord(value)) return;
  const uuid = textOf(value['uuid']);
  const name = textOf(value['title']) ?? textOf(value['name']);
  if (uuid !== undefined && name !== undefined && !into.has(uuid)) into.set(uuid, name);
  for (const child of Object.values(value)) if (typeof child === 'object') collectNames(child, into);
}

export function documentWalk(root: Record<string, unknown>): Walk {
  const names = new Map<string, string>();
  collectNames(root, names);
  const { titles } = resourcesOf(root);
  return {
    names,
    resolve: (href) =>
      href.startsWith('#') && titles.has(href.slice(1)) ? '#' + anchor('resource', href.slice(1)) : undefined,
  };
}
