// markdown-it's paragraph rule trims the paragraph's text. NIST's converter keeps the
// (collapsed) whitespace at the edges of a block, e.g. " {{ insert: param, ac-1_prm_2 }} access
// control policy that:", so to read such Markdown back to the same string this rule keeps it
// as (insignificant) XML whitespace.
import type { StateBlock } from 'markdown-it';

const SPACE = 0x20;
const LIST_MARKER_ENDS = new Set(['*', '-', '+', '.', ')'].map((c) => c.charCodeAt(0)));

/**
 * In the first line of a list item markdown-it counts every space after the marker as
 * indentation. NIST writes "*  text" for an item starting with whitespace, so all but
 * one of those spaces are the item's leading whitespace.
 */
function spacesAfterListMarker(state: StateBlock, line: number): string {
  const lineStart = state.bMarks[line] as number;
  const contentStart = lineStart + (state.tShift[line] as number);
  let pos = contentStart;
  while (pos > lineStart && state.src.charCodeAt(pos - 1) === SPACE) pos--;
  if (pos === lineStart || !LIST_MARKER_ENDS.has(state.src.charCodeAt(pos - 1))) return '';
  return ' '.repeat(Math.max(0, contentStart - pos - 1));
}

export function paragraphKeepingEdgeSpace(state: StateBlock, startLine: number, endLine: number): boolean {
  const terminators = state.md.block.ruler.getRules('paragraph');
  const parentType = state.parentType;
  state.parentType = 'paragraph';
  let nextLine = startLine + 1;
  for (; nextLine < endLine && !state.isEmpty(nextLine); nextLine++) {
    // Lines indented as code, or lazy blockquote lines (negative indent), cannot start a new block.
    const indent = state.sCount[nextLine] as number;
    if (indent - state.blkIndent > 3 || indent < 0) continue;
    if (terminators.some((rule) => rule(state, nextLine, endLine, true))) break;
  }
  const lead = parentType === 'list' ? spacesAfterListMarker(state, startLine) : '';
  state.line = nextLine;
  const open = state.push('paragraph_open', 'p', 1);
  open.map = [startLine, nextLine];
  const inline = state.push('inline', '', 0);
  inline.content = lead + state.getLines(startLine, nextLine, state.blkIndent, false);
  inline.map = [startLine, nextLine];
  inline.children = [];
  state.push('paragraph_close', 'p', -1);
  state.parentType = parentType;
  return true;
}
