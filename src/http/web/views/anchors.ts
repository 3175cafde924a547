// Anchors of a rendered document: OSCAL ids and uuids become HTML ids (and fragment links) that
// stay one token, whatever a document puts in them.

/** `prefix-id`, with every character outside [A-Za-z0-9_.-] replaced, so the id is one token. */
export function anchor(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value of the first prop with this name (such as a control's `label`). */
export function propValue(owner: Record<string, unknown>, name: string): string | undefined {
  return textOf(recordsOf(owner['props']).find((p) => p['name'] === name)?.['value']);
}

/** "assessment-objective" as "Assessment objective", for headings made from names. */
export function humanise(name: string): string {
  const words = name
    .replace(/[-_]+/g, ' ')
    .trim()
    .replace(/\b(uuid|id|oscal)(s?)\b/g, (_, word: string, plural: string) => word.toUpperCase() + plural);
  return words.charAt(0).toUpperCase() + words.slice(1);
}
