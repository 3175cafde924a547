/**
 * The syntax tree of a Metapath expression. Plain JSON, so the build step can parse the
 * expressions of NIST's Metaschema modules once and ship the trees with the constraint tables.
 * `at` is the character offset of the construct in the expression, for error messages.
 */

export type Axis =
  | 'child'
  | 'descendant'
  | 'attribute'
  | 'self'
  | 'descendant-or-self'
  | 'following-sibling'
  | 'following'
  | 'parent'
  | 'ancestor'
  | 'preceding-sibling'
  | 'preceding'
  | 'ancestor-or-self';

/** A name as written: its prefix (undefined when none), its namespace when given as Q{uri}, and its local part. */
export interface QName {
  prefix?: string;
  uri?: string;
  local: string;
}

export type NodeTest =
  /** A name test; `local` '*' is a wildcard, as is a prefix '*'. */
  | { t: 'name'; name: QName }
  /** A kind test: node(), document-node(), flag()/attribute(), field(), assembly(), element() (field or assembly). */
  | { t: 'kind'; kind: 'node' | 'document' | 'flag' | 'field' | 'assembly' | 'element'; name?: string };

/** A sequence type, as in `instance of` and function signatures. */
export interface SequenceType {
  /** 'empty' is empty-sequence(). */
  item: ItemType | 'empty';
  occurrence: '' | '?' | '*' | '+';
}

export type ItemType =
  | { t: 'item' }
  | { t: 'atomic'; name: QName }
  | { t: 'node'; test: NodeTest }
  /** map(*), or map(K, V): keys of atomic type K, values of V. */
  | { t: 'map'; key?: QName; value?: SequenceType }
  /** array(*), or array(T): every member a T. */
  | { t: 'array'; member?: SequenceType }
  | { t: 'function' };

export type ComparisonOp =
  '=' | '!=' | '<' | '<=' | '>' | '>=' | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'is' | '<<' | '>>';

export interface Binding {
  name: QName;
  expr: Ast;
}

export type Ast = { at: number } & (
  | { t: 'empty' }
  | { t: 'comma'; items: Ast[] }
  | { t: 'string'; value: string }
  | { t: 'integer'; value: number }
  | { t: 'decimal'; value: number }
  | { t: 'double'; value: number }
  | { t: 'var'; name: QName }
  | { t: 'context' }
  /** `/` at the start of a path: the root of the context node's document. */
  | { t: 'root' }
  | { t: 'path'; left: Ast; right: Ast }
  | { t: 'step'; axis: Axis; test: NodeTest; predicates: Ast[] }
  | { t: 'filter'; base: Ast; predicates: Ast[] }
  | { t: 'call'; name: QName; args: (Ast | null)[] }
  | { t: 'dynamic-call'; fn: Ast; args: (Ast | null)[] }
  | { t: 'lookup'; base: Ast | null; key: Ast | '*' }
  | { t: 'for'; bindings: Binding[]; body: Ast }
  | { t: 'let'; bindings: Binding[]; body: Ast }
  | { t: 'quantified'; every: boolean; bindings: Binding[]; body: Ast }
  | { t: 'if'; test: Ast; then: Ast; else: Ast }
  | { t: 'or' | 'and'; operands: Ast[] }
  | { t: 'compare'; op: ComparisonOp; left: Ast; right: Ast }
  | { t: 'concat'; operands: Ast[] }
  | { t: 'range'; from: Ast; to: Ast }
  | { t: 'arithmetic'; op: '+' | '-' | '*' | 'div' | 'idiv' | 'mod'; left: Ast; right: Ast }
  | { t: 'unary'; negate: boolean; operand: Ast }
  | { t: 'union' | 'intersect' | 'except'; left: Ast; right: Ast }
  | { t: 'instance-of' | 'treat'; expr: Ast; type: SequenceType }
  | { t: 'castable' | 'cast'; expr: Ast; type: QName; optional: boolean }
  | { t: 'arrow'; base: Ast; fn: QName | Ast; args: (Ast | null)[] }
  | { t: 'simple-map'; left: Ast; right: Ast }
  | { t: 'map'; entries: [Ast, Ast][] }
  | { t: 'array'; members: Ast[]; curly: boolean }
  | { t: 'function-ref'; name: QName; arity: number }
  | { t: 'inline-function'; params: { name: QName; type?: SequenceType }[]; returns?: SequenceType; body: Ast }
);

export type AstOf<T extends Ast['t']> = Extract<Ast, { t: T }>;
