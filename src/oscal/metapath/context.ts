/** The static and dynamic contexts of an evaluation (XPath 3.1 2.1). */
import type { QName } from './ast.js';
import { MetapathError } from './errors.js';
import type { MetaNode, Item, Sequence } from './items.js';
import { temporalFromDate, type TemporalValue } from './temporal.js';

export const NS = {
  fn: 'http://www.w3.org/2005/xpath-functions',
  map: 'http://www.w3.org/2005/xpath-functions/map',
  array: 'http://www.w3.org/2005/xpath-functions/array',
  math: 'http://www.w3.org/2005/xpath-functions/math',
  xs: 'http://www.w3.org/2001/XMLSchema',
  /** Metaschema's own functions (recurse-depth, base64-encode, …). */
  mp: 'http://csrc.nist.gov/ns/metaschema/metapath-functions',
  /** OSCAL's functions (has-oscal-namespace, resolve-profile). */
  oscal: 'http://csrc.nist.gov/ns/oscal',
} as const;

export interface StaticContext {
  /** Prefixes known to the expression, beyond the built-in fn, xs, map, array, math, mp and oscal. */
  namespaces?: Readonly<Record<string, string>>;
  /** Variables bound outside the expression (a constraint's lets); others are an error (XPST0008). */
  variables?: readonly string[];
  /** The namespace of the documents' nodes: name tests with a prefix bound elsewhere match nothing. */
  modelNamespace?: string;
}

/**
 * Documents that doc(), doc-available() and resolve-profile() reach. Evaluation is synchronous;
 * a store that reads asynchronously answers `undefined` for a document it has not read yet, the
 * evaluation stops with DocumentNeeded, and the caller starts it again once the document is in.
 */
export interface DocumentAccess {
  /** The document at an absolute URI: its node, null when there is none, undefined when not read yet. */
  get(uri: string): MetaNode | null | undefined;
  /**
   * Whether anything can be read at the URI, a document or not (fn:doc-available); undefined when
   * not read yet. Without it, only what get() finds is available.
   */
  available?(uri: string): boolean | undefined;
  /** The resolved catalog of a profile document (null when it cannot be resolved), or undefined when not made yet. */
  resolveProfile?(profile: MetaNode): MetaNode | null | undefined;
  /** Why the document at `uri` cannot be had, for the error that says so. */
  reason?(uri: string): string | undefined;
  /** Why a profile cannot be resolved, likewise. */
  resolveReason?(profile: MetaNode): string | undefined;
}

export class DocumentNeeded extends Error {
  constructor(
    readonly uri: string,
    readonly kind: 'document' | 'resolved-profile' = 'document',
    readonly profile?: MetaNode,
  ) {
    super(`the document ${uri} is needed`);
  }
}

export interface DynamicOptions {
  documents?: DocumentAccess;
  /** Base URI for resolve-uri() and relative doc() arguments: where the document came from. */
  baseUri?: string;
  /** Minutes east of UTC, for dates and times without a timezone; the machine's by default. */
  timezone?: number;
  now?: Date;
}

export class Dynamic {
  readonly timezone: number;
  readonly documents: DocumentAccess | undefined;
  readonly baseUri: string | undefined;
  private readonly clock: Date;
  private current: TemporalValue | undefined;

  constructor(options: DynamicOptions = {}) {
    this.clock = options.now ?? new Date();
    this.timezone = options.timezone ?? -this.clock.getTimezoneOffset();
    this.documents = options.documents;
    this.baseUri = options.baseUri;
  }

  /** fn:current-dateTime is stable within an evaluation (F&O 9.4). */
  now(): TemporalValue {
    this.current ??= temporalFromDate(this.clock, this.timezone);
    return this.current;
  }
}

interface Env {
  readonly name: string;
  readonly value: Sequence;
  readonly next: Env | null;
}

export class Ctx {
  constructor(
    readonly item: Item | undefined,
    readonly position: number,
    readonly size: number,
    private readonly env: Env | null,
    readonly dyn: Dynamic,
  ) {}

  static start(item: Item | undefined, dyn: Dynamic, variables?: ReadonlyMap<string, Sequence>): Ctx {
    let env: Env | null = null;
    if (variables) for (const [name, value] of variables) env = { name, value, next: env };
    return new Ctx(item, 1, 1, env, dyn);
  }

  focus(item: Item, position: number, size: number): Ctx {
    return new Ctx(item, position, size, this.env, this.dyn);
  }

  /** The variables without the focus: an inline function's body sees no context item (XPath 3.1 3.1.7). */
  withoutFocus(): Ctx {
    return new Ctx(undefined, 0, 0, this.env, this.dyn);
  }

  bind(name: string, value: Sequence): Ctx {
    return new Ctx(this.item, this.position, this.size, { name, value, next: this.env }, this.dyn);
  }

  lookup(name: string): Sequence {
    for (let e = this.env; e; e = e.next) if (e.name === name) return e.value;
    throw new MetapathError('XPST0008', `the variable $${name} is not bound`);
  }

  contextItem(): Item {
    if (this.item === undefined) throw new MetapathError('XPDY0002', 'there is no context item here');
    return this.item;
  }
}

/** A variable's name as the environment keys it. */
export function varKey(name: QName): string {
  return name.uri !== undefined
    ? `Q{${name.uri}}${name.local}`
    : name.prefix !== undefined
      ? `${name.prefix}:${name.local}`
      : name.local;
}
