export interface Position {
  line: number;
  column: number;
}

/** Where a JSON pointer's value is in some source text, if it is there. */
export type Locator = (path: string) => Position | undefined;

/** 1-based line and column of a character offset. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * positionAt for many offsets of one text: its line starts are found once, then each offset's
 * line by binary search (thousands of findings located one scan each took seconds).
 */
export function positionsIn(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}

/** JSON pointer to path segments, with array indexes as numbers. */
export function pointerSegments(path: string): (string | number)[] {
  if (path === '') return [];
  return path
    .slice(1)
    .split('/')
    .map((s) => {
      const decoded = s.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^\d+$/.test(decoded) ? Number(decoded) : decoded;
    });
}
