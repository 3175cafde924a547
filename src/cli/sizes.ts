const UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `50MB`, `512kb`, `1048576` to bytes. */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?b?)$/i.exec(text.trim());
  if (!m) throw new Error(`"${text}" is not a size such as 50MB`);
  return Math.floor(Number(m[1]) * UNITS[m[2]!.toLowerCase()]!);
}
