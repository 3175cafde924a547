/**
 * Constraints in their compiled form: what the build step writes for each OSCAL release's own
 * constraints, and what an external constraint set is read into. Expressions are syntax trees.
 */
import type { Ast } from '../metapath/ast.js';

export const LEVELS = ['CRITICAL', 'ERROR', 'WARNING', 'INFORMATIONAL', 'DEBUG'] as const;
export type Level = (typeof LEVELS)[number];

/** Higher is more severe. */
export function severity(level: Level): number {
  return LEVELS.length - LEVELS.indexOf(level);
}

export interface Expression {
  /** The expression as written, for messages. */
  text: string;
  ast: Ast;
}

/** Where a constraint is written: a module or constraint-set file, and the line of its element. */
export interface SourceRef {
  file: string;
  line: number;
}

export interface ConstraintProp {
  namespace?: string;
  name: string;
  value: string;
}

interface Common {
  /** The constraint's own id, or a stable one made from where it stands when it has none. */
  id: string;
  /** Whether the id was made here, not written by the constraint's author. */
  generatedId?: true;
  level: Level;
  /** `.` when the constraint names none. */
  target: Expression;
  formalName?: string;
  description?: string;
  props?: ConstraintProp[];
  /** The author's message for a violation; allowed-values has its own wording, as in metaschema-java. */
  message?: MessagePart[];
  source: SourceRef;
}

export interface KeyField {
  target: Expression;
  /** A regular expression whose first group is the key, e.g. #(.*) for the uuid of a #uuid reference. */
  pattern?: string;
}

/** A message with `{ expression }` templates, evaluated with the failing node as the focus. */
export type MessagePart = string | Expression;

export type Constraint = Common &
  (
    | { kind: 'allowed-values'; values: string[]; allowOther: boolean; extensible: 'none' | 'model' | 'external' }
    | { kind: 'matches'; regex?: string; datatype?: string }
    | { kind: 'expect'; test: Expression }
    | { kind: 'has-cardinality'; minOccurs?: number; maxOccurs?: number }
    | { kind: 'index'; name: string; keyFields: KeyField[] }
    | { kind: 'index-has-key'; name: string; keyFields: KeyField[] }
    | { kind: 'is-unique'; keyFields: KeyField[] }
  );

export type ConstraintKind = Constraint['kind'];

/** A variable bound for the constraints after it, on this node and the nodes below it. */
export interface Let {
  kind: 'let';
  name: string;
  expression: Expression;
  source: SourceRef;
}

/** Metaschema 0.x's conditional constraints, which OSCAL 1.0.0 still uses: the rules hold where `when` is true. */
export interface Require {
  kind: 'require';
  when: Expression;
  rules: Rule[];
  source: SourceRef;
}

export type Rule = Constraint | Let | Require;

/** The constraints of one OSCAL release, as the build step writes them. */
export interface ModelConstraints {
  version: string;
  /** Every constraint and let once, in declaration order. */
  rules: Rule[];
  /** Definition (binding index) to the rules declared on it, by index into `rules`. */
  byDefinition: Record<number, number[]>;
  /** Definition (binding index) to its flags' rules, by flag name. */
  byFlag: Record<number, Record<string, number[]>>;
}

/** An external constraint set (metaschema-meta-constraints), its imports already read in. */
export interface ConstraintSet {
  /** How people name it: the registered name, or the file it was read from. */
  name: string;
  contexts: ConstraintContext[];
  /** Namespace bindings the set declares, for the prefixes its expressions use. */
  namespaces: Record<string, string>;
}

export interface ConstraintContext {
  targets: Expression[];
  rules: Rule[];
  contexts: ConstraintContext[];
}
