/**
 * Metapath: XPath 3.1 over the Metaschema data model. Compile an expression once, then evaluate
 * it against any node (or none) as often as needed.
 */
import type { Ast } from './ast.js';
import { Ctx, Dynamic, type DynamicOptions, type StaticContext } from './context.js';
import { compileAst, type Evaluator } from './evaluate.js';
import './functions/library.js';
import type { Item, Sequence } from './items.js';
import { parseMetapath } from './parser.js';

export {
  Ctx,
  Dynamic,
  DocumentNeeded,
  NS,
  type DocumentAccess,
  type DynamicOptions,
  type StaticContext,
} from './context.js';
export { MetapathError } from './errors.js';
export { compileAst, describeItem, type Evaluator } from './evaluate.js';
export {
  atomize,
  ebv,
  isAtomic,
  isNode,
  stringOf,
  stringValueOf,
  type Atomic,
  type Item,
  type MetaNode,
  type Sequence,
} from './items.js';
export { documentNode } from './nodes.js';
export { parseMetapath } from './parser.js';
export { metapathOf } from './functions/nodes.js';

export interface Metapath {
  readonly source: string;
  readonly evaluator: Evaluator;
  evaluate(focus?: Item, options?: DynamicOptions | Dynamic, variables?: ReadonlyMap<string, Sequence>): Sequence;
}

export function compileMetapath(source: string | Ast, sc: StaticContext = {}, text?: string): Metapath {
  const ast = typeof source === 'string' ? parseMetapath(source) : source;
  const evaluator = compileAst(ast, sc);
  return {
    source: typeof source === 'string' ? source : (text ?? ''),
    evaluator,
    evaluate(focus, options, variables) {
      const dynamic = options instanceof Dynamic ? options : new Dynamic(options);
      return evaluator(Ctx.start(focus, dynamic, variables));
    },
  };
}
