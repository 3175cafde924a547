type Token = { star: true } | { star?: false; accepts: (c: string) => boolean };

/**
 * A glob over a whole id: `*` any run of characters, `?` one, `[abc]`, `[a-z]` and `[!…]` a
 * class; anything else itself. Matched without regular expressions, in time proportional to
 * id length times pattern length whatever the pattern, so a profile cannot make matching hang.
 */
export function globMatcher(pattern: string): (id: string) => boolean {
  const tokens = tokenize(pattern);
  return (id) => {
    let p = 0;
    let i = 0;
    let starP = -1;
    let starI = 0;
    while (i < id.length) {
      const t = tokens[p];
      if (t && !t.star && t.accepts(id[i]!)) {
        p++;
        i++;
      } else if (t?.star) {
        starP = p++;
        starI = i;
      } else if (starP >= 0) {
        p = starP + 1;
        i = ++starI;
      } else return false;
    }
    while (tokens[p]?.star) p++;
    return p === tokens.length;
  };
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const end = c === '[' ? pattern.indexOf(']', i + 2) : -1;
    if (c === '*') tokens.push({ star: true });
    else if (c === '?') tokens.push({ accepts: () => true });
    else if (end > 0) {
      tokens.push({ accepts: characterClass(pattern.slice(i + 1, end)) });
      i = end;
    } else tokens.push({ accepts: (x) => x === c });
  }
  return tokens;
}

function characterClass(body: string): (c: string) => boolean {
  const negated = body.startsWith('!');
  const set = negated ? body.slice(1) : body;
  const ranges: [string, string][] = [];
  for (let i = 0; i < set.length; i++) {
    if (set[i + 1] === '-' && i + 2 < set.length) {
      ranges.push([set[i]!, set[i + 2]!]);
      i += 2;
    } else ranges.push([set[i]!, set[i]!]);
  }
  return (c) => ranges.some(([from, to]) => c >= from && c <= to) !== negated;
}
