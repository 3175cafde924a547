import type { Level } from '../constraints/model.js';

/**
 * One thing wrong with a document, whether the schema or a constraint found it: what, how
 * serious, where in the OSCAL JSON form, and where in the source.
 */
export interface ValidationIssue {
  /**
   * Stable code: a reader error code (malformed, unknown-property, …), schema-<keyword>, or
   * constraint-<kind> (constraint-expect, …); constraint-error when a constraint could not be evaluated.
   */
  code: string;
  /** JSON pointer into the OSCAL JSON form; '' for the document as a whole. */
  path: string;
  message: string;
  line?: number;
  column?: number;
  /** How serious it is; reading and schema problems are ERROR. */
  level?: Level;
  /** The constraint that found it. */
  constraintId?: string;
  /** The node's Metapath, for constraint findings. */
  metapath?: string;
  /** Where the constraint comes from: 'model' (the release's own) or a constraint set's name. */
  source?: string;
}

/** A constraint as reports describe it, and how it fared on the document. */
export interface ConstraintSummary {
  id: string;
  kind: string;
  level: Level;
  source: string;
  formalName?: string;
  description?: string;
  /** A help page for the constraint: its prop named help-url (in SARIF's namespace, or none). */
  helpUrl?: string;
  /** Whether it was evaluated on anything at all. */
  applied: boolean;
  /** Whether it held on at least one node; a pass is a rule that held and never failed. */
  held: boolean;
  /** Whether it failed on a node, or could not be evaluated. */
  failed: boolean;
}

export interface ValidationResult {
  /** Nothing at ERROR or above. */
  valid: boolean;
  /** The model and release, when the document could be read that far. */
  model?: string;
  version?: string;
  format?: 'json' | 'xml' | 'yaml';
  issues: ValidationIssue[];
  /** Whether constraints were checked: not asked for, or not reached because the schema check failed. */
  constraintsChecked?: boolean;
  /** The constraints that were evaluated, when they were. */
  constraints?: ConstraintSummary[];
}
