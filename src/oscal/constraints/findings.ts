import type { ConstraintKind, Level } from './model.js';

/** A constraint that does not hold for a node, or that could not be evaluated there. */
export interface Finding {
  constraintId: string;
  kind: ConstraintKind | 'let' | 'require' | 'context';
  level: Level;
  message: string;
  /** The node: its Metapath, and its JSON pointer into the OSCAL JSON form. */
  metapath: string;
  path: string;
  line?: number;
  column?: number;
  /** 'model' for the OSCAL release's own constraints, else the constraint set's name. */
  source: string;
  /**
   * The constraint could not be evaluated here (a Metapath error): a fault of the constraint,
   * which still leaves the document unproven (Metaschema: processing errors).
   */
  processingError?: true;
}
