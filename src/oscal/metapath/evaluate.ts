/**
 * Compiles a Metapath syntax tree into a tree of closures, once; evaluating is then calling
 * the root closure with a context. Names (functions, variables, prefixes) are resolved here,
 * so an unknown function or an unbound variable is an error of the expression, found before
 * any document is read.
 */
import { arithmetic, subtractTemporalValues } from './arithmetic.js';
import type { Ast, AstOf, QName } from './ast.js';
import { castAs, isCastTarget } from './casts.js';
import { GENERAL_TO_VALUE, generalCompare, operatorCompare, type ValueOp } from './compare.js';
import { NS, varKey, type Ctx, type StaticContext } from './context.js';
import { MetapathError } from './errors.js';
import { oneFunction } from './functions/args.js';
import { aritiesOf, lookupFunction, type FunctionDef } from './functions/registry.js';
import {
  Atom,
  atomize,
  ebv,
  EMPTY,
  isNode,
  isNumeric,
  numericValue,
  stringOf,
  XArray,
  XFunction,
  XMap,
  type Atomic,
  type Item,
  type MetaNode,
  type Sequence,
} from './items.js';
import { arrayGet, mapGet, mapKey } from './lookup.js';
import { axisNodes, compareOrder, documentOrder, isReverse, nodeFilter, rootOf } from './steps.js';
import { matchesSequenceType, sequenceTypeText } from './types.js';
import { qnameText } from './parser.js';

export type Evaluator = (ctx: Ctx) => Sequence;

const BUILT_IN_PREFIXES: Record<string, string> = { ...NS };
/** Where an unprefixed function name is looked up, in turn: F&O first, then Metaschema's and OSCAL's own. */
const UNPREFIXED_FUNCTION_NAMESPACES = [NS.fn, NS.mp, NS.oscal];
const ABSTRACT_TYPES = new Set(['anyAtomicType', 'anySimpleType', 'NOTATION']);
/** Ranges beyond this would exhaust memory before they finish; no constraint needs one. */
const MAX_RANGE = 10_000_000;
/** Predicates that cannot be positional, so `//x[p]` may become descendant::x[p]. */
const BOOLEAN_FUNCTIONS = new Set([
  'not',
  'exists',
  'empty',
  'boolean',
  'true',
  'false',
  'starts-with',
  'ends-with',
  'contains',
  'matches',
  'has-oscal-namespace',
  'deep-equal',
]);

interface Scope {
  readonly name: string;
  readonly next: Scope | null;
}

export function compileAst(ast: Ast, sc: StaticContext = {}): Evaluator {
  let scope: Scope | null = null;
  for (const name of sc.variables ?? []) scope = { name, next: scope };
  return new Compiler(sc).compile(ast, scope);
}

class Compiler {
  private readonly prefixes: Record<string, string>;
  private readonly modelNamespace: string | undefined;

  constructor(sc: StaticContext) {
    this.prefixes = { ...BUILT_IN_PREFIXES, ...sc.namespaces };
    this.modelNamespace = sc.modelNamespace;
  }

  compile(ast: Ast, scope: Scope | null): Evaluator {
    switch (ast.t) {
      case 'empty':
        return () => EMPTY;
      case 'comma': {
        const items = ast.items.map((i) => this.compile(i, scope));
        return (ctx) => {
          const out: Item[] = [];
          for (const e of items) for (const item of e(ctx)) out.push(item);
          return out;
        };
      }
      case 'string':
      case 'integer':
        return constant(ast.value);
      case 'decimal':
        return constant(new Atom('decimal', ast.value));
      case 'double':
        return constant(new Atom('double', ast.value));
      case 'var': {
        const key = varKey(ast.name);
        if (!inScope(scope, key)) throw new MetapathError('XPST0008', `the variable $${key} is not bound here`, ast.at);
        return (ctx) => ctx.lookup(key);
      }
      case 'context':
        return (ctx) => [ctx.contextItem()];
      case 'root':
        return located(ast.at, (ctx) => [documentRoot(ctx.contextItem())]);
      case 'path':
        return this.path(ast, scope);
      case 'step':
        return this.step(ast, scope);
      case 'filter': {
        const base = this.compile(ast.base, scope);
        const predicates = ast.predicates.map((p) => this.predicate(p, scope));
        return (ctx) => {
          let items = base(ctx);
          for (const p of predicates) items = p(items, ctx);
          return items;
        };
      }
      case 'call':
        return this.call(ast.name, ast.args, scope, ast.at);
      case 'dynamic-call':
        return this.dynamicCall(this.compile(ast.fn, scope), ast.args, scope, ast.at);
      case 'lookup':
        return this.lookup(ast, scope);
      case 'for':
      case 'let':
      case 'quantified':
        return this.binding(ast, scope);
      case 'if': {
        const test = this.compile(ast.test, scope);
        const then = this.compile(ast.then, scope);
        const otherwise = this.compile(ast.else, scope);
        return (ctx) => (ebv(test(ctx)) ? then(ctx) : otherwise(ctx));
      }
      case 'or':
      case 'and': {
        const operands = ast.operands.map((o) => this.compile(o, scope));
        const stopAt = ast.t === 'or';
        const result = [stopAt];
        const other = [!stopAt];
        return located(ast.at, (ctx) => {
          for (const o of operands) if (ebv(o(ctx)) === stopAt) return result;
          return other;
        });
      }
      case 'compare':
        return this.comparison(ast, scope);
      case 'concat': {
        const operands = ast.operands.map((o) => this.compile(o, scope));
        return located(ast.at, (ctx) => {
          let text = '';
          for (const o of operands) {
            const atoms = atomize(o(ctx));
            if (atoms.length > 1)
              throw new MetapathError('XPTY0004', '|| joins single values, but one side is a sequence of several');
            if (atoms.length === 1) text += stringOf(atoms[0]!);
          }
          return [text];
        });
      }
      case 'range': {
        const from = this.compile(ast.from, scope);
        const to = this.compile(ast.to, scope);
        return located(ast.at, (ctx) => {
          const a = singleAtomic(from(ctx), 'the start of a range');
          const b = singleAtomic(to(ctx), 'the end of a range');
          if (a === undefined || b === undefined) return EMPTY;
          const x = integerOf(a, 'the start of a range');
          const y = integerOf(b, 'the end of a range');
          if (y - x >= MAX_RANGE)
            throw new MetapathError('FOAR0002', `the range ${x} to ${y} is too large (at most ${MAX_RANGE} integers)`);
          const out: number[] = [];
          for (let i = x; i <= y; i++) out.push(i);
          return out;
        });
      }
      case 'arithmetic': {
        const left = this.compile(ast.left, scope);
        const right = this.compile(ast.right, scope);
        const op = ast.op;
        return located(ast.at, (ctx) => {
          const a = singleAtomic(left(ctx), `the left operand of ${op}`);
          if (a === undefined) return EMPTY;
          const b = singleAtomic(right(ctx), `the right operand of ${op}`);
          if (b === undefined) return EMPTY;
          if (op === '-') {
            const difference = subtractTemporalValues(a, b, ctx.dyn.timezone);
            if (difference) return [difference];
          }
          return [arithmetic(op, a, b)];
        });
      }
      case 'unary': {
        const operand = this.compile(ast.operand, scope);
        const negate = ast.negate;
        return located(ast.at, (ctx) => {
          let value = singleAtomic(operand(ctx), 'the operand of a unary minus');
          if (value === undefined) return EMPTY;
          if (value instanceof Atom && value.type === 'untypedAtomic') value = castAs(value, 'double');
          if (!isNumeric(value)) throw new MetapathError('XPTY0004', 'a sign applies to numbers only');
          if (!negate) return [value];
          return [
            typeof value === 'number' ? -value : new Atom((value as Atom).type, -((value as Atom).value as number)),
          ];
        });
      }
      case 'union':
      case 'intersect':
      case 'except':
        return this.setOperation(ast, scope);
      case 'instance-of': {
        const expr = this.compile(ast.expr, scope);
        const type = ast.type;
        return (ctx) => [matchesSequenceType(expr(ctx), type)];
      }
      case 'treat': {
        const expr = this.compile(ast.expr, scope);
        const type = ast.type;
        return located(ast.at, (ctx) => {
          const value = expr(ctx);
          if (!matchesSequenceType(value, type))
            throw new MetapathError('XPDY0050', `the value is not an instance of ${sequenceTypeText(type)}`);
          return value;
        });
      }
      case 'cast':
      case 'castable':
        return this.cast(ast, scope);
      case 'arrow': {
        const args: (Ast | null)[] = [ast.base, ...ast.args];
        if ('local' in ast.fn) return this.call(ast.fn, args, scope, ast.at);
        return this.dynamicCall(this.compile(ast.fn, scope), args, scope, ast.at);
      }
      case 'simple-map': {
        const left = this.compile(ast.left, scope);
        const right = this.compile(ast.right, scope);
        return (ctx) => {
          const items = left(ctx);
          const out: Item[] = [];
          for (let i = 0; i < items.length; i++)
            for (const r of right(ctx.focus(items[i]!, i + 1, items.length))) out.push(r);
          return out;
        };
      }
      case 'map': {
        const entries = ast.entries.map(([k, v]) => [this.compile(k, scope), this.compile(v, scope)] as const);
        return located(ast.at, (ctx) => {
          const map = new Map<string, { key: Atomic; value: Item[] }>();
          for (const [k, v] of entries) {
            const key = singleAtomic(k(ctx), 'a map key');
            if (key === undefined)
              throw new MetapathError('XPTY0004', 'a map key must be one value, not an empty sequence');
            const id = mapKey(key);
            if (map.has(id)) throw new MetapathError('XQDY0137', `the map has the key ${stringOf(key)} twice`);
            map.set(id, { key, value: v(ctx) });
          }
          return [new XMap(map)];
        });
      }
      case 'array': {
        const members = ast.members.map((m) => this.compile(m, scope));
        if (ast.curly) {
          const content = members[0];
          return (ctx) => [new XArray(content ? content(ctx).map((item) => [item]) : [])];
        }
        return (ctx) => [new XArray(members.map((m) => m(ctx)))];
      }
      case 'function-ref':
        return this.functionRef(ast);
      case 'inline-function':
        return this.inlineFunction(ast, scope);
    }
  }

  private path(ast: AstOf<'path'>, scope: Scope | null): Evaluator {
    // `//name[p]` is `descendant::name[p]` (and `//(a|b)` the union of two such steps) when p cannot
    // depend on its position: one walk of the tree instead of a step from every node of it.
    const left = ast.left;
    const right = ast.right;
    const descendants = left.t === 'path' && isDescendantOrSelfNode(left.right) ? asDescendantSteps(right) : undefined;
    if (left.t === 'path' && descendants) return this.path({ ...ast, left: left.left, right: descendants }, scope);
    const first = this.compile(left, scope);
    const then = this.compile(right, scope);
    // A step from one node gives nodes in document order already; other expressions may not.
    const ordered = right.t === 'step';
    return located(ast.at, (ctx) => {
      const input = first(ctx);
      if (input.length === 0) return EMPTY;
      if (input.length === 1) {
        const item = input[0]!;
        if (!isNode(item)) throw pathOverNonNode();
        const result = then(ctx.focus(item, 1, 1));
        return ordered ? result : ordering(result);
      }
      const out: Item[] = [];
      for (let i = 0; i < input.length; i++) {
        const item = input[i]!;
        if (!isNode(item)) throw pathOverNonNode();
        const result = then(ctx.focus(item, i + 1, input.length));
        for (let j = 0; j < result.length; j++) out.push(result[j]!);
      }
      return ordering(out);
    });
  }

  private step(ast: AstOf<'step'>, scope: Scope | null): Evaluator {
    const foreign = ast.test.t === 'name' && this.isForeign(ast.test.name);
    const filter = nodeFilter(ast.test, ast.axis, foreign);
    const axis = ast.axis;
    const reverse = isReverse(axis);
    const predicates = ast.predicates.map((p) => this.predicate(p, scope));
    return located(ast.at, (ctx) => {
      const node = ctx.contextItem();
      if (!isNode(node))
        throw new MetapathError(
          'XPTY0020',
          `a path step needs a node to start from, but the context item is ${describeItem(node)}`,
        );
      let nodes: Sequence = axisNodes(axis, node, filter);
      for (const p of predicates) nodes = p(nodes, ctx);
      return reverse && nodes.length > 1 ? nodes.slice().reverse() : nodes;
    });
  }

  /** A name test's prefix bound to a namespace other than the documents' own matches nothing. */
  private isForeign(name: QName): boolean {
    if (this.modelNamespace === undefined || name.prefix === '*') return false;
    const uri = name.uri ?? (name.prefix !== undefined ? this.prefixes[name.prefix] : undefined);
    if (name.prefix !== undefined && uri === undefined)
      throw new MetapathError('XPST0081', `the prefix ${name.prefix} is not bound to a namespace`);
    return uri !== undefined && uri !== this.modelNamespace;
  }

  private predicate(ast: Ast, scope: Scope | null): (items: Sequence, ctx: Ctx) => Sequence {
    if (ast.t === 'integer') {
      const at = ast.value;
      return (items) => (at >= 1 && at <= items.length ? [items[at - 1]!] : EMPTY);
    }
    const test = this.compile(ast, scope);
    return (items, ctx) => {
      const size = items.length;
      if (size === 0) return items;
      const out: Item[] = [];
      for (let i = 0; i < size; i++) {
        const item = items[i]!;
        const r = test(ctx.focus(item, i + 1, size));
        if (r.length === 1 && isNumericItem(r[0]!)) {
          if (numericValue(r[0] as Atomic) === i + 1) out.push(item);
        } else if (ebv(r)) out.push(item);
      }
      return out.length === size ? items : out;
    };
  }

  private call(name: QName, argAsts: (Ast | null)[], scope: Scope | null, at: number): Evaluator {
    const args = argAsts.map((a) => (a === null ? null : this.compile(a, scope)));
    const def = this.resolveFunction(name, args.length, at);
    if (args.some((a) => a === null)) return this.partial(def, args, at);
    const evaluators = args as Evaluator[];
    const impl = def.impl;
    switch (evaluators.length) {
      case 0:
        return located(at, (ctx) => impl([], ctx));
      case 1: {
        const [a] = evaluators as [Evaluator];
        return located(at, (ctx) => impl([a(ctx)], ctx));
      }
      default:
        return located(at, (ctx) =>
          impl(
            evaluators.map((e) => e(ctx)),
            ctx,
          ),
        );
    }
  }

  /** `f(?, 1)`: a function of the arguments left open. */
  private partial(def: FunctionDef, args: (Evaluator | null)[], at: number): Evaluator {
    const open = args.filter((a) => a === null).length;
    return (ctx) => {
      const fixed = args.map((a) => (a === null ? null : a(ctx)));
      return [
        new XFunction(def.local, open, (given) => {
          let next = 0;
          return withPosition(at, () =>
            def.impl(
              fixed.map((f) => f ?? given[next++]!),
              ctx,
            ),
          );
        }),
      ];
    };
  }

  private resolveFunction(name: QName, arity: number, at: number): FunctionDef {
    const namespaces =
      name.uri !== undefined
        ? [name.uri]
        : name.prefix !== undefined
          ? [this.prefix(name.prefix, at)]
          : UNPREFIXED_FUNCTION_NAMESPACES;
    for (const ns of namespaces) {
      if (ns === NS.xs) return this.constructorFunction(name.local, arity, at);
      const def = lookupFunction(ns, name.local, arity);
      if (def) return def;
    }
    const arities = namespaces.flatMap((ns) => aritiesOf(ns, name.local));
    if (arities.length) {
      throw new MetapathError(
        'XPST0017',
        `${qnameText(name)}() takes ${arities.join(' or ')} argument${arities.join() === '1' ? '' : 's'}, not ${arity}`,
        at,
      );
    }
    throw new MetapathError('XPST0017', `there is no function ${qnameText(name)}()`, at);
  }

  private prefix(prefix: string, at: number): string {
    const uri = this.prefixes[prefix];
    if (uri === undefined) throw new MetapathError('XPST0081', `the prefix ${prefix} is not bound to a namespace`, at);
    return uri;
  }

  /** xs:type($value): a cast of one optional value (XPath 3.1 3.18.3). */
  private constructorFunction(type: string, arity: number, at: number): FunctionDef {
    if (!isCastTarget(type)) throw new MetapathError('XPST0017', `there is no constructor function xs:${type}()`, at);
    if (arity !== 1) throw new MetapathError('XPST0017', `xs:${type}() takes 1 argument, not ${arity}`, at);
    return {
      ns: NS.xs,
      local: type,
      min: 1,
      max: 1,
      impl: ([arg]) => {
        const value = singleAtomic(arg!, `the argument of xs:${type}()`);
        return value === undefined ? EMPTY : [castAs(value, type)];
      },
    };
  }

  private dynamicCall(fn: Evaluator, argAsts: (Ast | null)[], scope: Scope | null, at: number): Evaluator {
    const args = argAsts.map((a) => (a === null ? null : this.compile(a, scope)));
    return located(at, (ctx) => {
      const f = oneFunction(fn(ctx), 'a dynamic function call', 0, args.length);
      if (args.every((a) => a !== null)) return f.call((args as Evaluator[]).map((a) => a(ctx)));
      const fixed = args.map((a) => (a === null ? null : a(ctx)));
      const open = fixed.filter((a) => a === null).length;
      return [
        new XFunction(f.name, open, (given) => {
          let next = 0;
          return f.call(fixed.map((a) => a ?? given[next++]!));
        }),
      ];
    });
  }

  private lookup(ast: AstOf<'lookup'>, scope: Scope | null): Evaluator {
    const base = ast.base ? this.compile(ast.base, scope) : undefined;
    const key = ast.key === '*' ? undefined : this.compile(ast.key, scope);
    return located(ast.at, (ctx) => {
      const targets = base ? base(ctx) : [ctx.contextItem()];
      const out: Item[] = [];
      for (const target of targets) {
        if (!(target instanceof XMap) && !(target instanceof XArray))
          throw new MetapathError('XPTY0004', `? looks up maps and arrays, not ${describeItem(target)}`);
        if (!key) {
          if (target instanceof XMap) for (const entry of target.entries.values()) out.push(...entry.value);
          else for (const member of target.members) out.push(...member);
          continue;
        }
        for (const k of atomize(key(ctx))) {
          const found = target instanceof XMap ? mapGet(target, k) : arrayGet(target, k);
          for (const item of found) out.push(item);
        }
      }
      return out;
    });
  }

  private binding(ast: AstOf<'for' | 'let' | 'quantified'>, outer: Scope | null): Evaluator {
    const bindings: { key: string; expr: Evaluator }[] = [];
    let scope = outer;
    for (const b of ast.bindings) {
      bindings.push({ key: varKey(b.name), expr: this.compile(b.expr, scope) });
      scope = { name: varKey(b.name), next: scope };
    }
    const body = this.compile(ast.body, scope);
    if (ast.t === 'let') {
      return (ctx) => {
        let c = ctx;
        for (const b of bindings) c = c.bind(b.key, b.expr(c));
        return body(c);
      };
    }
    if (ast.t === 'for') {
      return (ctx) => {
        const out: Item[] = [];
        const loop = (i: number, c: Ctx): void => {
          if (i === bindings.length) {
            for (const item of body(c)) out.push(item);
            return;
          }
          const b = bindings[i]!;
          for (const item of b.expr(c)) loop(i + 1, c.bind(b.key, [item]));
        };
        loop(0, ctx);
        return out;
      };
    }
    const every = ast.every;
    return (ctx) => {
      const search = (i: number, c: Ctx): boolean => {
        if (i === bindings.length) return ebv(body(c)) !== every;
        const b = bindings[i]!;
        for (const item of b.expr(c)) if (search(i + 1, c.bind(b.key, [item]))) return true;
        return false;
      };
      // some: found a witness; every: found a counterexample.
      return [search(0, ctx) !== every];
    };
  }

  private comparison(ast: AstOf<'compare'>, scope: Scope | null): Evaluator {
    const left = this.compile(ast.left, scope);
    const right = this.compile(ast.right, scope);
    const op = ast.op;
    if (op === 'is' || op === '<<' || op === '>>') {
      return located(ast.at, (ctx) => {
        const a = singleNode(left(ctx), op);
        const b = singleNode(right(ctx), op);
        if (!a || !b) return EMPTY;
        return [op === 'is' ? a === b : op === '<<' ? compareOrder(a, b) < 0 : compareOrder(a, b) > 0];
      });
    }
    const general = GENERAL_TO_VALUE[op];
    if (general) {
      return located(ast.at, (ctx) => [
        generalCompare(general, atomize(left(ctx)), atomize(right(ctx)), ctx.dyn.timezone),
      ]);
    }
    const valueOp = op as ValueOp;
    return located(ast.at, (ctx) => {
      const a = singleAtomic(left(ctx), `the left operand of ${op}`);
      if (a === undefined) return EMPTY;
      const b = singleAtomic(right(ctx), `the right operand of ${op}`);
      if (b === undefined) return EMPTY;
      return [operatorCompare(valueOp, untypedAsString(a), untypedAsString(b), ctx.dyn.timezone)];
    });
  }

  private setOperation(ast: AstOf<'union' | 'intersect' | 'except'>, scope: Scope | null): Evaluator {
    const left = this.compile(ast.left, scope);
    const right = this.compile(ast.right, scope);
    const op = ast.t;
    return located(ast.at, (ctx) => {
      const a = nodesOf(left(ctx), op);
      const b = nodesOf(right(ctx), op);
      if (op === 'union') return documentOrder(a.length === 0 ? b : b.length === 0 ? a : [...a, ...b]);
      const other = new Set(b);
      return documentOrder(a.filter((n) => other.has(n) === (op === 'intersect')));
    });
  }

  private cast(ast: AstOf<'cast' | 'castable'>, scope: Scope | null): Evaluator {
    const expr = this.compile(ast.expr, scope);
    const uri = ast.type.uri ?? (ast.type.prefix !== undefined ? this.prefix(ast.type.prefix, ast.at) : NS.xs);
    const type = ast.type.local;
    // XPath 3.1 3.14.2: the abstract types are named, but nothing can be cast to them.
    if (uri === NS.xs && ABSTRACT_TYPES.has(type))
      throw new MetapathError('XPST0080', `nothing can be cast to the abstract type xs:${type}`, ast.at);
    if (uri !== NS.xs || !isCastTarget(type))
      throw new MetapathError(
        'XPST0052',
        `${qnameText(ast.type)} is not an atomic type a value can be cast to`,
        ast.at,
      );
    const optional = ast.optional;
    if (ast.t === 'castable') {
      return (ctx) => {
        const atoms = atomize(expr(ctx));
        if (atoms.length === 0) return [optional];
        if (atoms.length > 1) return [false];
        try {
          castAs(atoms[0]!, type);
          return [true];
        } catch (e) {
          if (e instanceof MetapathError) return [false];
          throw e;
        }
      };
    }
    return located(ast.at, (ctx) => {
      const value = singleAtomic(expr(ctx), 'the value of a cast');
      if (value === undefined) {
        if (optional) return EMPTY;
        throw new MetapathError(
          'XPTY0004',
          `an empty sequence cannot be cast to xs:${type} (write xs:${type}? to allow it)`,
        );
      }
      return [castAs(value, type)];
    });
  }

  private functionRef(ast: AstOf<'function-ref'>): Evaluator {
    const def = this.resolveFunction(ast.name, ast.arity, ast.at);
    const arity = ast.arity;
    // A reference to a focus-dependent function captures the focus where it is made (XPath 3.1 3.1.6).
    return (ctx) => [new XFunction(def.local, arity, (args) => withPosition(ast.at, () => def.impl(args, ctx)))];
  }

  private inlineFunction(ast: AstOf<'inline-function'>, outer: Scope | null): Evaluator {
    let scope = outer;
    const params = ast.params.map((p) => ({ key: varKey(p.name), type: p.type }));
    for (const p of params) scope = { name: p.key, next: scope };
    const body = this.compile(ast.body, scope);
    const returns = ast.returns;
    return (ctx) => [
      new XFunction('(anonymous)', params.length, (args) => {
        let c = ctx.withoutFocus();
        params.forEach((p, i) => {
          let value = args[i]!;
          if (p.type && p.type.item !== 'empty' && p.type.item.t === 'atomic') value = atomize(value);
          if (p.type && !matchesSequenceType(value, p.type)) {
            throw new MetapathError('XPTY0004', `the argument $${p.key} must be ${sequenceTypeText(p.type)}`, ast.at);
          }
          c = c.bind(p.key, value);
        });
        const result = body(c);
        if (returns && !matchesSequenceType(result, returns))
          throw new MetapathError('XPTY0004', `the function must return ${sequenceTypeText(returns)}`, ast.at);
        return result;
      }),
    ];
  }
}

function constant(value: Atomic): Evaluator {
  const seq = [value];
  return () => seq;
}

function inScope(scope: Scope | null, name: string): boolean {
  for (let s = scope; s; s = s.next) if (s.name === name) return true;
  return false;
}

function isDescendantOrSelfNode(ast: Ast): boolean {
  return (
    ast.t === 'step' &&
    ast.axis === 'descendant-or-self' &&
    ast.test.t === 'kind' &&
    ast.test.kind === 'node' &&
    ast.predicates.length === 0
  );
}

/** Child steps (or a union of them) as descendant steps, when no predicate is positional; otherwise undefined. */
function asDescendantSteps(ast: Ast): Ast | undefined {
  if (ast.t === 'step')
    return ast.axis === 'child' && ast.predicates.every(notPositional) ? { ...ast, axis: 'descendant' } : undefined;
  if (ast.t !== 'union') return undefined;
  const left = asDescendantSteps(ast.left);
  const right = asDescendantSteps(ast.right);
  return left && right ? { ...ast, left, right } : undefined;
}

function mentionsPosition(ast: unknown): boolean {
  if (typeof ast !== 'object' || ast === null) return false;
  const node = ast as { t?: string; name?: QName };
  if (node.t === 'call' && node.name && (node.name.local === 'position' || node.name.local === 'last')) return true;
  return Object.values(ast).some(mentionsPosition);
}

function notPositional(ast: Ast): boolean {
  if (mentionsPosition(ast)) return false;
  switch (ast.t) {
    case 'compare':
    case 'and':
    case 'or':
    case 'quantified':
    case 'instance-of':
    case 'castable':
    case 'step':
      return true;
    case 'path':
      return ast.right.t === 'step';
    case 'call':
      return ast.name.prefix === undefined && BOOLEAN_FUNCTIONS.has(ast.name.local);
    default:
      return false;
  }
}

/**
 * Adds the expression position to errors raised below this construct that have none yet:
 * the innermost construct that can fail names the place.
 */
function located(at: number, evaluator: Evaluator): Evaluator {
  return (ctx) => {
    try {
      return evaluator(ctx);
    } catch (e) {
      if (e instanceof MetapathError && e.position === undefined) e.position = at;
      throw e;
    }
  };
}

function withPosition<T>(at: number, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof MetapathError && e.position === undefined) e.position = at;
    throw e;
  }
}

function documentRoot(item: Item): MetaNode {
  if (!isNode(item))
    throw new MetapathError('XPTY0020', `/ needs a node as the context item, not ${describeItem(item)}`);
  const root = rootOf(item);
  if (root.kind !== 'document') throw new MetapathError('XPDY0050', 'the context node is not in a document');
  return root;
}

function pathOverNonNode(): MetapathError {
  return new MetapathError('XPTY0019', 'the left side of / must give nodes; use ! to apply an expression to values');
}

function ordering(items: Sequence): Sequence {
  let nodes = 0;
  for (const item of items) if (isNode(item)) nodes++;
  if (nodes === 0) return items;
  if (nodes !== items.length)
    throw new MetapathError('XPTY0018', 'the last step of a path gives both nodes and values');
  return documentOrder(items as MetaNode[]);
}

function singleAtomic(seq: Sequence, what: string): Atomic | undefined {
  const atoms = atomize(seq);
  if (atoms.length > 1)
    throw new MetapathError('XPTY0004', `${what} must be one value at most, but it is a sequence of ${atoms.length}`);
  return atoms[0];
}

function integerOf(value: Atomic, what: string): number {
  if (typeof value === 'number') return value;
  if (value instanceof Atom && value.type === 'untypedAtomic') return castAs(value, 'integer') as number;
  throw new MetapathError('XPTY0004', `${what} must be an integer`);
}

function untypedAsString(value: Atomic): Atomic {
  return value instanceof Atom && value.type === 'untypedAtomic' ? (value.value as string) : value;
}

function singleNode(seq: Sequence, op: string): MetaNode | undefined {
  if (seq.length > 1) throw new MetapathError('XPTY0004', `each side of ${op} must be one node at most`);
  const item = seq[0];
  if (item !== undefined && !isNode(item)) throw new MetapathError('XPTY0004', `each side of ${op} must be a node`);
  return item;
}

function nodesOf(seq: Sequence, op: string): MetaNode[] {
  for (const item of seq)
    if (!isNode(item)) throw new MetapathError('XPTY0004', `${op} combines nodes only, not ${describeItem(item)}`);
  return seq as MetaNode[];
}

function isNumericItem(item: Item): boolean {
  return typeof item === 'number' || (item instanceof Atom && isNumeric(item));
}

export function describeItem(item: Item): string {
  if (isNode(item))
    return item.kind === 'flag'
      ? `flag @${item.name}`
      : item.kind === 'document'
        ? 'a document'
        : `${item.kind} ${item.name}`;
  if (item instanceof XMap) return 'a map';
  if (item instanceof XArray) return 'an array';
  if (item instanceof XFunction) return 'a function';
  return typeof item === 'string'
    ? `the string "${item.length > 30 ? `${item.slice(0, 30)}…` : item}"`
    : `the value ${stringOf(item)}`;
}
