// What a catalog's links may point at within the page: its controls and its back-matter resources.
import { anchor, propValue, recordsOf, textOf } from './anchors.js';
import { resourcesOf, type Resources } from './back-matter.js';

export interface ControlEntry {
  label: string;
  title: string;
}

export interface CatalogIndex {
  controls: ReadonlyMap<string, ControlEntry>;
  resources: Resources;
  /** "#ac-2" or "#<resource uuid>" as this page's anchor; undefined for anything else. */
  resolve: (href: string) => string | undefined;
}

function collect(owner: Record<string, unknown>, into: Map<string, ControlEntry>): void {
  for (const group of recordsOf(owner['groups'])) collect(group, into);
  for (const control of recordsOf(owner['controls'])) {
    const id = textOf(control['id']);
    if (id !== undefined)
      into.set(id, { label: propValue(control, 'label') ?? id, title: textOf(control['title']) ?? '' });
    collect(control, into);
  }
}

export function catalogIndex(catalog: Record<string, unknown>): CatalogIndex {
  const controls = new Map<string, ControlEntry>();
  collect(catalog, controls);
  const resources = resourcesOf(catalog);
  const resolve = (href: string): string | undefined => {
    if (!href.startsWith('#')) return undefined;
    const target = href.slice(1);
    if (controls.has(target)) return '#' + anchor('control', target);
    if (resources.titles.has(target)) return '#' + anchor('resource', target);
    return undefined;
  };
  return { controls, resources, resolve };
}
