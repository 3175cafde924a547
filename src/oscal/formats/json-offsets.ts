/**
 * Where the values at some JSON pointers start in a JSON text, found in one pass that builds no
 * tree: subtrees that hold none of the pointers are skipped (strings by indexOf), so locating a
 * few findings in a 10 MB catalog costs a scan, not a parse. A value inside an object is placed at
 * its key, as editors show it. Text that is not JSON ends the pass with what was found so far.
 */
export function jsonOffsets(text: string, pointers: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  const wanted = new Set(pointers);
  const prefixes = new Set<string>();
  for (const p of pointers) {
    for (let at = p.length; ; at = Math.max(0, p.lastIndexOf('/', at - 1))) {
      prefixes.add(p.slice(0, at));
      if (at === 0) break;
    }
  }
  let i = 0;

  const space = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) i++;
      else return;
    }
  };
  /** i at an opening quote: moves past the closing one. */
  const skipString = () => {
    let j = i + 1;
    for (;;) {
      const k = text.indexOf('"', j);
      if (k === -1) throw new Error('unterminated string');
      let slashes = 0;
      while (text.charCodeAt(k - 1 - slashes) === 0x5c) slashes++;
      j = k + 1;
      if (slashes % 2 === 0) break;
    }
    i = j;
  };
  /** Moves past one value, not looking inside it. */
  const skipValue = () => {
    let depth = 0;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) throw new Error('unexpected end');
      if (c === 0x22) skipString();
      else if (c === 0x7b || c === 0x5b) {
        depth++;
        i++;
      } else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) return;
        depth--;
        i++;
      } else if (c === 0x2c && depth === 0) return;
      else i++;
      if (depth === 0 && (c === 0x22 || c === 0x7d || c === 0x5d)) return;
    }
  };
  const value = (pointer: string, at: number): void => {
    if (wanted.has(pointer)) found.set(pointer, at);
    if (!prefixes.has(pointer)) return skipValue();
    const c = text.charCodeAt(i);
    if (c === 0x7b) {
      i++;
      space();
      if (text.charCodeAt(i) === 0x7d) return void i++;
      for (;;) {
        space();
        const keyAt = i;
        skipString();
        const raw = text.slice(keyAt + 1, i - 1);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        space();
        if (text.charCodeAt(i) !== 0x3a) throw new Error('expected a colon');
        i++;
        space();
        value(`${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, keyAt);
        space();
        if (text.charCodeAt(i++) !== 0x2c) return;
      }
    }
    if (c === 0x5b) {
      i++;
      space();
      if (text.charCodeAt(i) === 0x5d) return void i++;
      for (let n = 0; ; n++) {
        space();
        value(`${pointer}/${n}`, i);
        space();
        if (text.charCodeAt(i++) !== 0x2c) return;
      }
    }
    skipValue();
  };

  try {
    space();
    value('', i);
  } catch {
    // not JSON past here: what was found stands
  }
  return found;
}
