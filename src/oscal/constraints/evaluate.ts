/**
 * Evaluates constraints over a document's node tree, depth first in document order, as the
 * Metaschema specification's "Constraint Processing" describes: each node's definition's
 * constraints (the model's, then those external sets attach to it), with the variables its own
 * lets and its ancestors' bind. Index lookups and allowed-values are settled once the whole
 * document has been seen, because an index may be filled after a reference to it is read, and a
 * value's allowed-values may come from constraints on several nodes.
 */
import { compileWholeMatch } from '../metapath/regex.js';
import {
  atomize,
  compileAst,
  Ctx,
  DocumentNeeded,
  ebv,
  isAtomic,
  isNode,
  MetapathError,
  metapathOf,
  stringOf,
  type Dynamic,
  type Evaluator,
  type Item,
  type MetaNode,
  type Sequence,
  type StaticContext,
} from '../metapath/index.js';
import { datatypeAccepts } from './datatypes.js';
import type { DataType } from '../../metaschema/ir.js';
import type { Finding } from './findings.js';
import { describeConstraint, nodeLabel, quote } from './messages.js';
import {
  severity,
  type Constraint,
  type ConstraintContext,
  type ConstraintSet,
  type Expression,
  type KeyField,
  type ModelConstraints,
  type Rule,
} from './model.js';

type AllowedValues = Extract<Constraint, { kind: 'allowed-values' }>;

/** How each constraint fared, for reports that list the constraints that held as well as those that failed. */
export interface RuleOutcome {
  constraint: Constraint;
  source: string;
  /** Evaluated on at least one target (has-cardinality: on at least one node). */
  applied: boolean;
  /** Held on at least one target: what a "pass" result reports. */
  held: boolean;
  /** Failed on a target, or could not be evaluated. */
  failed: boolean;
}

export interface ConstraintResult {
  findings: Finding[];
  outcomes: Map<Constraint, RuleOutcome>;
}

interface Attached {
  rules: Rule[];
  source: string;
  sc: StaticContext;
}

/** A reference waiting for the indexes to be complete. */
interface KeyReference {
  constraint: Extract<Constraint, { kind: 'index-has-key' }>;
  source: string;
  node: MetaNode;
  keys: string[];
  /** Where the reference was read, for the constraint's message once the indexes are complete. */
  ctx: Ctx;
  sc: StaticContext;
}

interface IndexEntry {
  node: MetaNode;
  constraint: Constraint;
}

export class ConstraintRun {
  private readonly findings: Finding[] = [];
  private readonly outcomes = new Map<Constraint, RuleOutcome>();
  private readonly compiled = new WeakMap<Expression, Evaluator>();
  private readonly attached = new Map<MetaNode, Attached[]>();
  private readonly allowed = new Map<MetaNode, { constraint: AllowedValues; source: string }[]>();
  private readonly indexes = new Map<string, Map<string, IndexEntry>>();
  private readonly references: KeyReference[] = [];
  /** A constraint that fails to evaluate fails alike on each node: one finding, with a count. */
  private readonly processingErrors = new Map<string, { finding: Finding; more: number }>();
  private readonly modelSc: StaticContext;

  constructor(
    private readonly root: MetaNode,
    private readonly model: ModelConstraints,
    private readonly sets: readonly ConstraintSet[],
    private readonly dynamic: Dynamic,
    modelNamespace: string,
  ) {
    this.modelSc = { modelNamespace, variables: letNames(model.rules) };
  }

  private indexNamesKnown: Set<string> | undefined;

  /** Every index the model and the sets define, whether or not this document instantiates it. */
  private indexNames(): Set<string> {
    if (!this.indexNamesKnown) {
      this.indexNamesKnown = new Set();
      indexNamesOf(this.model.rules, this.indexNamesKnown);
      for (const set of this.sets) contextIndexNames(set.contexts, this.indexNamesKnown);
    }
    return this.indexNamesKnown;
  }

  run(): ConstraintResult {
    const start = Ctx.start(this.root, this.dynamic);
    for (const set of this.sets) this.attachSet(set, start);
    this.visit(this.root, start);
    this.settleAllowedValues();
    this.settleReferences();
    for (const { finding, more } of this.processingErrors.values()) {
      if (more > 0) finding.message += ` (the same on ${more} more node${more === 1 ? '' : 's'})`;
      this.findings.push(finding);
    }
    return { findings: this.findings, outcomes: this.outcomes };
  }

  // ---- which rules apply where ----

  private attachSet(set: ConstraintSet, start: Ctx): void {
    const sc: StaticContext = {
      ...this.modelSc,
      namespaces: set.namespaces,
      variables: [...this.modelSc.variables!, ...set.contexts.flatMap(contextLets)],
    };
    const walk = (contexts: ConstraintSet['contexts'], from: MetaNode[], path: string): void => {
      contexts.forEach((context, i) => {
        const where = `${path}/context[${i + 1}]`;
        const nodes: MetaNode[] = [];
        for (const origin of from) {
          for (const target of context.targets) {
            const found = this.guard(() => this.evaluate(target, start.focus(origin, 1, 1), sc), {
              id: `${set.name}${where}`,
              kind: 'context',
              source: set.name,
              node: origin,
              what: `the context's target "${target.text}"`,
            });
            for (const item of found ?? []) {
              if (isNode(item)) nodes.push(item);
              else
                this.processingError(
                  `${set.name}${where}`,
                  'context',
                  set.name,
                  origin,
                  `the context's target "${target.text}" gives a value, not a node`,
                );
            }
          }
        }
        for (const node of nodes) {
          const list = this.attached.get(node) ?? [];
          list.push({ rules: context.rules, source: set.name, sc });
          this.attached.set(node, list);
        }
        walk(context.contexts, nodes, where);
      });
    };
    walk(set.contexts, [this.root], '');
  }

  private modelRules(node: MetaNode): number[] | undefined {
    if (node.kind === 'flag') {
      const owner = node.parent?.definition;
      return owner === undefined ? undefined : this.model.byFlag[owner]?.[node.name];
    }
    return node.definition === undefined ? undefined : this.model.byDefinition[node.definition];
  }

  private visit(node: MetaNode, outer: Ctx): void {
    let ctx = outer.focus(node, 1, 1);
    const own = this.modelRules(node);
    if (own) for (const i of own) ctx = this.apply(this.model.rules[i]!, node, ctx, 'model', this.modelSc);
    for (const extra of this.attached.get(node) ?? []) {
      for (const rule of extra.rules) ctx = this.apply(rule, node, ctx, extra.source, extra.sc);
    }
    for (const flag of node.flags()) this.visit(flag, ctx);
    for (const child of node.children()) this.visit(child, ctx);
  }

  /** Applies one rule with `node` as the focus; a let returns the context with its variable bound. */
  private apply(rule: Rule, node: MetaNode, ctx: Ctx, source: string, sc: StaticContext): Ctx {
    if (rule.kind === 'let') {
      const value = this.guard(() => this.evaluate(rule.expression, ctx, sc), {
        id: `let $${rule.name}`,
        kind: 'let',
        source,
        node,
        what: `the let "${rule.expression.text}"`,
      });
      return ctx.bind(rule.name, value ?? []);
    }
    if (rule.kind === 'require') {
      const holds = this.guard(() => ebv(this.evaluate(rule.when, ctx, sc)), {
        id: `require ${rule.when.text}`,
        kind: 'require',
        source,
        node,
        what: `the condition "${rule.when.text}"`,
      });
      let inner = ctx;
      if (holds) for (const r of rule.rules) inner = this.apply(r, node, inner, source, sc);
      return ctx;
    }
    const outcome = this.outcome(rule, source);
    const targets = this.guard(() => this.targets(rule, ctx, sc), {
      id: rule.id,
      kind: rule.kind,
      source,
      node,
      what: `the target "${rule.target.text}"`,
      rule,
    });
    if (targets === undefined) return ctx;
    if (targets.length > 0 || rule.kind === 'has-cardinality') outcome.applied = true;
    const checked = this.guard(() => this.check(rule, node, targets, ctx, source, sc), {
      id: rule.id,
      kind: rule.kind,
      source,
      node,
      what: 'the constraint',
      rule,
    });
    // allowed-values and index-has-key are settled once the document has been seen.
    if (checked === true && rule.kind !== 'allowed-values' && rule.kind !== 'index-has-key' && outcome.applied)
      outcome.held = true;
    return ctx;
  }

  private targets(rule: Constraint, ctx: Ctx, sc: StaticContext): MetaNode[] {
    const items = this.evaluate(rule.target, ctx, sc);
    for (const item of items) {
      if (!isNode(item)) throw new MetapathError('XPTY0004', `the target gives ${describeValue(item)}, not a node`);
    }
    return items as MetaNode[];
  }

  private check(
    rule: Constraint,
    node: MetaNode,
    targets: MetaNode[],
    ctx: Ctx,
    source: string,
    sc: StaticContext,
  ): true {
    switch (rule.kind) {
      case 'allowed-values':
        for (const target of targets) {
          const list = this.allowed.get(target) ?? [];
          list.push({ constraint: rule, source });
          this.allowed.set(target, list);
        }
        return true;
      case 'matches':
        for (const target of targets) this.checkMatches(rule, target, source, ctx, sc);
        return true;
      case 'expect':
        for (const target of targets) {
          const focus = ctx.focus(target, 1, 1);
          if (!ebv(this.evaluate(rule.test, focus, sc))) {
            const message = this.violation(
              rule,
              target,
              ctx,
              sc,
              () => `${describeConstraint(rule)}: the test ${quote(rule.test.text)} is false for ${nodeLabel(target)}`,
            );
            this.fail(rule, source, target, message);
          }
        }
        return true;
      case 'has-cardinality': {
        const n = targets.length;
        if (rule.minOccurs !== undefined && n < rule.minOccurs) {
          this.violate(
            rule,
            source,
            node,
            ctx,
            sc,
            () =>
              `${nodeLabel(node)} has ${n} of ${quote(rule.target.text)}; at least ${rule.minOccurs} ${rule.minOccurs === 1 ? 'is' : 'are'} required`,
          );
        }
        if (rule.maxOccurs !== undefined && n > rule.maxOccurs) {
          this.violate(
            rule,
            source,
            node,
            ctx,
            sc,
            () =>
              `${nodeLabel(node)} has ${n} of ${quote(rule.target.text)}; at most ${rule.maxOccurs} ${rule.maxOccurs === 1 ? 'is' : 'are'} allowed`,
          );
        }
        return true;
      }
      case 'index': {
        const index = this.indexes.get(rule.name) ?? new Map<string, IndexEntry>();
        this.indexes.set(rule.name, index);
        for (const target of targets) {
          for (const key of this.keys(rule, rule.keyFields, target, ctx, source, sc)) {
            const existing = index.get(key);
            if (existing && existing.node !== target) {
              this.violate(
                rule,
                source,
                target,
                ctx,
                sc,
                () =>
                  `${nodeLabel(target)} has the key ${keyText(key)}, which ${metapathOf(existing.node)} has already: the index ${rule.name} needs each key once`,
              );
            } else index.set(key, { node: target, constraint: rule });
          }
        }
        return true;
      }
      case 'index-has-key':
        for (const target of targets) {
          this.references.push({
            constraint: rule,
            source,
            node: target,
            keys: this.keys(rule, rule.keyFields, target, ctx, source, sc),
            ctx,
            sc,
          });
        }
        return true;
      case 'is-unique': {
        const seen = new Map<string, MetaNode>();
        for (const target of targets) {
          for (const key of this.keys(rule, rule.keyFields, target, ctx, source, sc)) {
            const first = seen.get(key);
            if (first && first !== target)
              this.violate(
                rule,
                source,
                target,
                ctx,
                sc,
                () =>
                  `${nodeLabel(target)} has the key ${keyText(key)}, which ${metapathOf(first)} has already: ${describeConstraint(rule)} needs each key once`,
              );
            else seen.set(key, target);
          }
        }
        return true;
      }
    }
  }

  private checkMatches(
    rule: Extract<Constraint, { kind: 'matches' }>,
    target: MetaNode,
    source: string,
    ctx: Ctx,
    sc: StaticContext,
  ): void {
    const value = valueText(target);
    if (rule.regex !== undefined && !compileWholeMatch(rule.regex).test(value)) {
      this.violate(
        rule,
        source,
        target,
        ctx,
        sc,
        () => `${nodeLabel(target)} is ${quote(value)}, which does not match the pattern ${rule.regex}`,
      );
    }
    if (rule.datatype !== undefined && !datatypeAccepts(rule.datatype as DataType, value)) {
      this.violate(
        rule,
        source,
        target,
        ctx,
        sc,
        () => `${nodeLabel(target)} is ${quote(value)}, which is not a valid ${rule.datatype}`,
      );
    }
  }

  /**
   * The keys of a target: each key field's values (several values give several keys), joined.
   * A field without a value is a null part, and a key of nulls only is no key at all: such a
   * target is neither indexed nor looked up (a part without an id is in no index of ids). A
   * pattern keeps its first group, and a value it does not match is a violation of the
   * constraint, as the key cannot be read.
   */
  private keys(
    rule: Constraint,
    fields: KeyField[],
    target: MetaNode,
    ctx: Ctx,
    source: string,
    sc: StaticContext,
  ): string[] {
    let keys: (string | null)[][] = [[]];
    for (const field of fields) {
      const values = atomize(this.evaluate(field.target, ctx.focus(target, 1, 1), sc)).map(stringOf);
      const parts: (string | null)[] = [];
      for (const value of values) {
        if (field.pattern === undefined) {
          parts.push(value);
          continue;
        }
        const match = compileWholeMatch(field.pattern).exec(value);
        if (match) parts.push(match[1] ?? value);
        else
          this.fail(
            rule,
            source,
            target,
            `${nodeLabel(target)}'s key ${quote(value)} does not have the form ${field.pattern} that ${describeConstraint(rule)} reads its key from`,
          );
      }
      if (parts.length === 0) parts.push(null);
      keys = keys.flatMap((k) => parts.map((p) => [...k, p]));
    }
    return keys
      .filter((k) => k.some((p) => p !== null))
      .map((k) => k.map((p) => (p === null ? '\u0001' : p)).join('\u0000'));
  }

  // ---- once the whole document has been seen ----

  /**
   * Each value with the allowed-values constraints that target it, in the order they reached
   * it, settled as metaschema-java settles them (DefaultConstraintValidator.ValueStatus): each
   * constraint must be no more open to extension than those before it allow, a value listed by
   * one of them holds for that one, and a value that none lists, where one of them is closed,
   * fails every constraint that does not list it (only the closed-to-all one, when one is
   * extensible="none"). A constraint that could not be combined is a processing error and takes
   * no part.
   */
  private settleAllowedValues(): void {
    for (const [node, list] of this.allowed) {
      const combined: { constraint: AllowedValues; source: string }[] = [];
      let scope: AllowedValues['extensible'] = 'external';
      for (const entry of list) {
        const conflict = extensibilityConflict(entry.constraint, scope, combined);
        if (conflict) {
          this.processingError(entry.constraint.id, 'allowed-values', entry.source, node, conflict, entry.constraint);
          continue;
        }
        if (EXTENSIBLE_ORDER[entry.constraint.extensible] > EXTENSIBLE_ORDER[scope])
          scope = entry.constraint.extensible;
        combined.push(entry);
      }
      if (combined.length === 0) continue;
      const value = valueText(node);
      const listing = combined.filter((a) => a.constraint.values.includes(value));
      for (const a of listing) this.outcome(a.constraint, a.source).held = true;
      const closedToAll = combined.find((a) => a.constraint.extensible === 'none' && !listing.includes(a));
      if (!closedToAll && (listing.length > 0 || combined.every((a) => a.constraint.allowOther))) continue;
      const failed = closedToAll ? [closedToAll] : combined.filter((a) => !listing.includes(a));
      const level = failed.reduce(
        (l, a) => (severity(a.constraint.level) > severity(l) ? a.constraint.level : l),
        failed[0]!.constraint.level,
      );
      const allowed = [...new Set(failed.flatMap((a) => a.constraint.values))];
      const shown =
        allowed.length > 25
          ? `${allowed.slice(0, 25).join(', ')}, … (${allowed.length - 25} more)`
          : allowed.join(', ');
      const message = `${nodeLabel(node)} is ${quote(value)}; it must be one of: ${shown}`;
      for (const a of failed) this.fail(a.constraint, a.source, node, message, level);
    }
  }

  private settleReferences(): void {
    for (const ref of this.references) {
      const index = this.indexes.get(ref.constraint.name);
      // An index defined where this document has nothing (a back-matter index, with no back-matter) is empty, not missing.
      if (!index && !this.indexNames().has(ref.constraint.name)) {
        this.processingError(
          ref.constraint.id,
          'index-has-key',
          ref.source,
          ref.node,
          `no constraint defines an index named ${ref.constraint.name}`,
        );
        continue;
      }
      for (const key of ref.keys) {
        if (index?.has(key)) this.outcome(ref.constraint, ref.source).held = true;
        else
          this.violate(
            ref.constraint,
            ref.source,
            ref.node,
            ref.ctx,
            ref.sc,
            () =>
              `${nodeLabel(ref.node)} refers to ${keyText(key)}, which is not a key of ${describeIndex(ref.constraint.name, index)}`,
          );
      }
    }
  }

  // ---- evaluation and findings ----

  private evaluate(expression: Expression, ctx: Ctx, sc: StaticContext): Sequence {
    let evaluator = this.compiled.get(expression);
    if (!evaluator) {
      evaluator = compileAst(expression.ast, sc);
      this.compiled.set(expression, evaluator);
    }
    return evaluator(ctx);
  }

  /**
   * A violation's message: the constraint author's, with `target` as the focus and the variables
   * bound where the constraint was evaluated, as metaschema-java words every kind but
   * allowed-values; our own wording when the author wrote none.
   */
  private violation(rule: Constraint, target: MetaNode, ctx: Ctx, sc: StaticContext, ours: () => string): string {
    return rule.message ? this.message(rule.message, ctx.focus(target, 1, 1), sc) : ours();
  }

  /** A failure of `rule` on `target`, in the rule's own message when it has one, else in ours. */
  private violate(
    rule: Constraint,
    source: string,
    target: MetaNode,
    ctx: Ctx,
    sc: StaticContext,
    ours: () => string,
  ): void {
    this.fail(rule, source, target, this.violation(rule, target, ctx, sc, ours));
  }

  /** A message template: literal text and expressions, each expression's values joined by ", ". */
  private message(parts: readonly (string | Expression)[], focus: Ctx, sc: StaticContext): string {
    return parts
      .map((part) => {
        if (typeof part === 'string') return part;
        try {
          return atomize(this.evaluate(part, focus, sc))
            .map(stringOf)
            .join(', ');
        } catch (e) {
          if (e instanceof MetapathError) return `{${part.text}}`;
          throw e;
        }
      })
      .join('');
  }

  /** Runs `work`, turning a Metapath error into a processing-error finding (undefined then). */
  private guard<T>(
    work: () => T,
    about: {
      id: string;
      kind: Finding['kind'];
      source: string;
      node: MetaNode;
      what: string;
      rule?: Constraint;
    },
  ): T | undefined {
    try {
      return work();
    } catch (e) {
      if (e instanceof DocumentNeeded || !(e instanceof MetapathError)) throw e;
      this.processingError(
        about.id,
        about.kind,
        about.source,
        about.node,
        `${about.what} could not be evaluated: ${e.message}${e.code ? ` [${e.code}]` : ''}`,
        about.rule,
      );
      return undefined;
    }
  }

  /** A constraint (or let, or context) that could not be evaluated; a constraint so is no pass. */
  private processingError(
    id: string,
    kind: Finding['kind'],
    source: string,
    node: MetaNode,
    message: string,
    rule?: Constraint,
  ): void {
    if (rule) this.outcome(rule, source).failed = true;
    const known = this.processingErrors.get(id);
    if (known) {
      known.more++;
      return;
    }
    const finding: Finding = {
      constraintId: id,
      kind,
      level: 'ERROR',
      message,
      metapath: metapathOf(node),
      path: node.pointer(),
      source,
      processingError: true,
    };
    this.processingErrors.set(id, { finding, more: 0 });
  }

  private fail(rule: Constraint, source: string, node: MetaNode, message: string, level = rule.level): void {
    this.outcome(rule, source).failed = true;
    this.findings.push({
      constraintId: rule.id,
      kind: rule.kind,
      level,
      message,
      metapath: metapathOf(node),
      path: node.pointer(),
      source,
    });
  }

  private outcome(rule: Constraint, source: string): RuleOutcome {
    let outcome = this.outcomes.get(rule);
    if (!outcome) {
      outcome = { constraint: rule, source, applied: false, held: false, failed: false };
      this.outcomes.set(rule, outcome);
    }
    return outcome;
  }
}

/** The variables lets bind anywhere in these rules: an expression may use those bound on its node or above it. */
function letNames(rules: readonly Rule[]): string[] {
  return rules.flatMap((r) => (r.kind === 'let' ? [r.name] : r.kind === 'require' ? letNames(r.rules) : []));
}

function contextLets(context: ConstraintSet['contexts'][number]): string[] {
  return [...letNames(context.rules), ...context.contexts.flatMap(contextLets)];
}

const EXTENSIBLE_ORDER: Record<AllowedValues['extensible'], number> = { external: 0, model: 1, none: 2 };

/**
 * Why `next` cannot join the allowed-values constraints already combined on a value, whose most
 * restrictive extensibility is `scope`: a second extensible="none", or a constraint more open than
 * one before it allows.
 */
function extensibilityConflict(
  next: AllowedValues,
  scope: AllowedValues['extensible'],
  combined: readonly { constraint: AllowedValues }[],
): string | undefined {
  if (next.extensible === 'none' && scope === 'none') {
    const other = combined.find((a) => a.constraint.extensible === 'none')!;
    return `allowed-values ${next.id} and ${other.constraint.id} both say extensible="none" for this value, so neither can be extended by the other`;
  }
  if (EXTENSIBLE_ORDER[next.extensible] < EXTENSIBLE_ORDER[scope]) {
    const closer = combined.find((a) => a.constraint.extensible === scope)!;
    return `allowed-values ${next.id} (extensible="${next.extensible}") extends a value whose allowed-values ${closer.constraint.id} says extensible="${scope}"`;
  }
  return undefined;
}

function valueText(node: MetaNode): string {
  return node.stringValue();
}

function keyText(key: string): string {
  return key
    .split('\u0000')
    .map((k) => (k === '\u0001' ? '(none)' : quote(k)))
    .join(' + ');
}

function describeIndex(name: string, index: Map<string, IndexEntry> | undefined): string {
  if (!index) return `the index ${name} (which this document does not have)`;
  return index.size === 0 ? `the index ${name} (which is empty)` : `the index ${name}`;
}

/** The names of the indexes these rules define, at any depth. */
function indexNamesOf(rules: readonly Rule[], names: Set<string>): void {
  for (const rule of rules) {
    if (rule.kind === 'index') names.add(rule.name);
    else if (rule.kind === 'require') indexNamesOf(rule.rules, names);
  }
}

function contextIndexNames(contexts: readonly ConstraintContext[], names: Set<string>): void {
  for (const context of contexts) {
    indexNamesOf(context.rules, names);
    contextIndexNames(context.contexts, names);
  }
}

function describeValue(item: Item): string {
  return isAtomic(item) ? `the value ${quote(stringOf(item))}` : 'a map, an array or a function';
}
