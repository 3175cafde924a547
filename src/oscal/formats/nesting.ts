import { OscalError, type ErrorLocation } from '../errors.js';
import { positionAt } from './positions.js';

/**
 * How deep objects, arrays or elements may nest. OSCAL content nests a few dozen levels at most;
 * the readers, the validators and the writers all recurse, so a bound here keeps hostile input
 * from exhausting the stack anywhere after the reader.
 */
export const MAX_NESTING = 200;

export function tooDeep(where: ErrorLocation): OscalError {
  return new OscalError('forbidden-construct', `nesting deeper than ${MAX_NESTING} levels is not accepted`, where);
}

const JSON_TOKEN = /["[\]{}]/g;

/** Refuses JSON text whose brackets nest deeper than MAX_NESTING; strings are skipped whole. */
export function checkJsonNesting(text: string): void {
  let depth = 0;
  JSON_TOKEN.lastIndex = 0;
  for (let m = JSON_TOKEN.exec(text); m; m = JSON_TOKEN.exec(text)) {
    const c = m[0];
    if (c === '"') JSON_TOKEN.lastIndex = stringEnd(text, m.index + 1);
    else if (c === '{' || c === '[') {
      if (++depth > MAX_NESTING) throw tooDeep(positionAt(text, m.index));
    } else depth--;
  }
}

/** Just past the quote closing a string whose content starts at `from` (the text's end if none does). */
function stringEnd(text: string, from: number): number {
  for (let i = text.indexOf('"', from); i !== -1; i = text.indexOf('"', i + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return i + 1;
  }
  return text.length;
}
