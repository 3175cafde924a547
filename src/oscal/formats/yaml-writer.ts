import { createRequire } from 'node:module';
import type { ParsedDocument } from './document.js';

// Loaded when YAML is first written (see yaml-reader.ts).
const require = createRequire(import.meta.url);

/**
 * The default schema is used for writing so any string another YAML reader would take for a
 * number, boolean or date (`version: "1.0"`) is quoted. noRefs: OSCAL trees share no nodes, so
 * js-yaml's duplicate-object scan is wasted work; lines are not folded, to keep prose diffable.
 */
export function writeYaml(doc: ParsedDocument): string {
  const { dump } = require('js-yaml') as typeof import('js-yaml');
  return '---\n' + dump(doc.content, { noRefs: true, lineWidth: -1 });
}
