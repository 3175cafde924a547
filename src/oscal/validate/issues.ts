/** One thing wrong with a document: what, where in the OSCAL JSON form, and where in the source. */
export interface ValidationIssue {
  /** Stable code: a reader error code (malformed, unknown-property, …) or schema-<keyword>. */
  code: string;
  /** JSON pointer into the OSCAL JSON form; '' for the document as a whole. */
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export interface ValidationResult {
  valid: boolean;
  /** The model and release, when the document could be read that far. */
  model?: string;
  version?: string;
  format?: 'json' | 'xml' | 'yaml';
  issues: ValidationIssue[];
}
