/** Where the tag that `at` is inside starts: the '<' at or before it. */
export function tagStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && text.charCodeAt(i) !== 0x3c) i--;
  return i;
}

/**
 * Whether `text` from `from` to `to` holds nothing but XML whitespace, comments and processing
 * instructions. Meant for a stretch saxes has already parsed, so each construct is complete;
 * anything else (character data, an entity or character reference, CDATA) answers false.
 */
export function onlySpace(text: string, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) {
      i++;
      continue;
    }
    const close = text.startsWith('<!--', i) ? '-->' : text.startsWith('<?', i) ? '?>' : undefined;
    if (close === undefined) return false;
    const end = text.indexOf(close, i + (close === '-->' ? 4 : 2));
    if (end === -1 || end + close.length > to) return false;
    i = end + close.length;
  }
  return true;
}
