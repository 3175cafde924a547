export type Format = 'json' | 'xml' | 'yaml';

export const FORMATS: readonly Format[] = ['json', 'xml', 'yaml'];

/** An OSCAL document in its canonical in-memory form: the OSCAL JSON object. */
export interface ParsedDocument {
  /** Root name, e.g. catalog or system-security-plan. */
  model: string;
  /** The OSCAL release it declares and was read against. */
  version: string;
  /** `{ [model]: {...} }`, exactly as the OSCAL JSON format holds it. */
  content: Record<string, unknown>;
}
