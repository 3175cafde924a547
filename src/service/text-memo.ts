/**
 * A pure function of a header value, remembered: clients send the same few values over and
 * over, and parsing one costs more than finding it. At most `limit` values are kept; past that
 * the memory starts afresh, so a client sending endless new values gains nothing and costs little.
 */
export function memoizeText<T>(parse: (text: string) => T, limit = 256): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    if (known.has(text)) return known.get(text) as T;
    const value = parse(text);
    if (known.size >= limit) known.clear();
    known.set(text, value);
    return value;
  };
}
