import { dump } from 'js-yaml';
import type { ParsedDocument } from './document.js';

/**
 * The default schema is used for writing so any string another YAML reader would take for a
 * number, boolean or date (`version: "1.0"`) is quoted. noRefs: OSCAL trees share no nodes, so
 * js-yaml's duplicate-object scan is wasted work; lines are not folded, to keep prose diffable.
 */
export function writeYaml(doc: ParsedDocument): string {
  return '---\n' + dump(doc.content, { noRefs: true, lineWidth: -1 });
}
