/**
 * Reads a Metapath expression (XPath 3.1's grammar, without XQuery) into its syntax tree.
 * Recursive descent over the text itself: XPath has no reserved words, so whether `div` or `*`
 * is an operator or a name depends on where the parser stands, which a separate lexer would
 * have to guess.
 */
import type { Ast, AstOf, Axis, Binding, ComparisonOp, ItemType, NodeTest, QName, SequenceType } from './ast.js';
import { MetapathError } from './errors.js';

const NAME = /[\p{L}_][\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F\u2040]*/uy;
const NUMBER = /(?:\.\d+|\d+(?:\.\d*)?)(?:[eE][+-]?\d+)?/y;
const NAME_CHAR = /[\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F\u2040]/u;

const AXES = new Set<string>([
  'child',
  'descendant',
  'attribute',
  'self',
  'descendant-or-self',
  'following-sibling',
  'following',
  'parent',
  'ancestor',
  'preceding-sibling',
  'preceding',
  'ancestor-or-self',
]);

/** Kind tests, and names XPath reserves so that `name(` cannot be a function call. */
const KIND_TESTS: Record<string, Extract<NodeTest, { t: 'kind' }>['kind']> = {
  node: 'node',
  'document-node': 'document',
  attribute: 'flag',
  flag: 'flag',
  element: 'element',
  field: 'field',
  assembly: 'assembly',
};
const RESERVED_FUNCTION_NAMES = new Set([
  'array',
  'attribute',
  'comment',
  'document-node',
  'element',
  'empty-sequence',
  'function',
  'if',
  'item',
  'map',
  'namespace-node',
  'node',
  'processing-instruction',
  'schema-attribute',
  'schema-element',
  'switch',
  'text',
  'typeswitch',
  'flag',
  'field',
  'assembly',
]);

const GENERAL_COMPARISONS: readonly ComparisonOp[] = ['!=', '<=', '>=', '<<', '>>', '=', '<', '>'];
const VALUE_COMPARISONS = new Set<string>(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'is']);

export function parseMetapath(text: string): Ast {
  const parser = new Parser(text);
  const ast = parser.expr();
  parser.end();
  return ast;
}

class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  end(): void {
    this.skip();
    if (this.pos < this.text.length) this.fail(`unexpected ${this.found()}`);
  }

  // ---- the grammar, from the loosest operator to the tightest ----

  expr(): Ast {
    const at = this.here();
    const first = this.exprSingle();
    if (!this.peek(',')) return first;
    const items = [first];
    while (this.eat(',')) items.push(this.exprSingle());
    return { t: 'comma', items, at };
  }

  private exprSingle(): Ast {
    const at = this.here();
    const word = this.peekKeywordBefore('$');
    if (word === 'for' || word === 'let') {
      this.keyword(word);
      const bindings = this.bindings(word === 'for' ? 'in' : ':=');
      this.expectKeyword('return');
      return { t: word, bindings, body: this.exprSingle(), at };
    }
    if (word === 'some' || word === 'every') {
      this.keyword(word);
      const bindings = this.bindings('in');
      this.expectKeyword('satisfies');
      return { t: 'quantified', every: word === 'every', bindings, body: this.exprSingle(), at };
    }
    if (this.peekKeywordBefore('(') === 'if') {
      this.keyword('if');
      this.expect('(');
      const test = this.expr();
      this.expect(')');
      this.expectKeyword('then');
      const then = this.exprSingle();
      this.expectKeyword('else');
      return { t: 'if', test, then, else: this.exprSingle(), at };
    }
    return this.or();
  }

  private bindings(separator: 'in' | ':='): Binding[] {
    const bindings: Binding[] = [];
    do {
      this.expect('$');
      const name = this.qname();
      if (separator === 'in') this.expectKeyword('in');
      else this.expect(':=');
      bindings.push({ name, expr: this.exprSingle() });
    } while (this.eat(','));
    return bindings;
  }

  private or(): Ast {
    return this.nary('or', () => this.and());
  }

  private and(): Ast {
    return this.nary('and', () => this.comparison());
  }

  private nary(op: 'or' | 'and', operand: () => Ast): Ast {
    const at = this.here();
    const first = operand();
    if (!this.peekKeyword(op)) return first;
    const operands = [first];
    while (this.keyword(op)) operands.push(operand());
    return { t: op, operands, at };
  }

  private comparison(): Ast {
    const left = this.concat();
    this.skip();
    const at = this.pos;
    let op: ComparisonOp | undefined = GENERAL_COMPARISONS.find((o) => this.text.startsWith(o, this.pos));
    // `=>` is the arrow, which binds tighter and has been read already; `<` is never `<=`'s prefix here.
    if (op === '=' && this.text.startsWith('=>', this.pos)) op = undefined;
    if (op) this.pos += op.length;
    else {
      const word = this.peekName();
      if (word && VALUE_COMPARISONS.has(word)) {
        this.keyword(word);
        op = word as ComparisonOp;
      }
    }
    if (!op) return left;
    return { t: 'compare', op, left, right: this.concat(), at };
  }

  private concat(): Ast {
    const at = this.here();
    const first = this.range();
    if (!this.peek('||')) return first;
    const operands = [first];
    while (this.eat('||')) operands.push(this.range());
    return { t: 'concat', operands, at };
  }

  private range(): Ast {
    const at = this.here();
    const from = this.additive();
    if (!this.keyword('to')) return from;
    return { t: 'range', from, to: this.additive(), at };
  }

  private additive(): Ast {
    let left = this.multiplicative();
    for (;;) {
      this.skip();
      const at = this.pos;
      const c = this.text[this.pos];
      if (c !== '+' && c !== '-') return left;
      this.pos++;
      left = { t: 'arithmetic', op: c, left, right: this.multiplicative(), at };
    }
  }

  private multiplicative(): Ast {
    let left = this.union();
    for (;;) {
      this.skip();
      const at = this.pos;
      let op: '*' | 'div' | 'idiv' | 'mod' | undefined;
      if (this.text[this.pos] === '*') {
        this.pos++;
        op = '*';
      } else {
        op = (['div', 'idiv', 'mod'] as const).find((word) => this.keyword(word));
      }
      if (!op) return left;
      left = { t: 'arithmetic', op, left, right: this.union(), at };
    }
  }

  private union(): Ast {
    let left = this.intersectExcept();
    for (;;) {
      this.skip();
      const at = this.pos;
      if (this.text[this.pos] === '|' && this.text[this.pos + 1] !== '|') this.pos++;
      else if (!this.keyword('union')) return left;
      left = { t: 'union', left, right: this.intersectExcept(), at };
    }
  }

  private intersectExcept(): Ast {
    let left = this.instanceOf();
    for (;;) {
      const at = this.here();
      const op = this.keyword('intersect') ? 'intersect' : this.keyword('except') ? 'except' : undefined;
      if (!op) return left;
      left = { t: op, left, right: this.instanceOf(), at };
    }
  }

  private instanceOf(): Ast {
    const at = this.here();
    const expr = this.treat();
    if (!this.peekKeyword('instance')) return expr;
    this.keyword('instance');
    this.expectKeyword('of');
    return { t: 'instance-of', expr, type: this.sequenceType(), at };
  }

  private treat(): Ast {
    const at = this.here();
    const expr = this.castable();
    if (!this.peekKeyword('treat')) return expr;
    this.keyword('treat');
    this.expectKeyword('as');
    return { t: 'treat', expr, type: this.sequenceType(), at };
  }

  private castable(): Ast {
    const at = this.here();
    const expr = this.cast();
    if (!this.peekKeyword('castable')) return expr;
    this.keyword('castable');
    this.expectKeyword('as');
    return { t: 'castable', expr, ...this.singleType(), at };
  }

  private cast(): Ast {
    const at = this.here();
    const expr = this.arrow();
    if (!this.peekKeyword('cast')) return expr;
    this.keyword('cast');
    this.expectKeyword('as');
    return { t: 'cast', expr, ...this.singleType(), at };
  }

  private singleType(): { type: QName; optional: boolean } {
    const type = this.qname();
    return { type, optional: this.eat('?') };
  }

  private arrow(): Ast {
    let base = this.unary();
    for (;;) {
      const at = this.here();
      if (!this.eat('=>')) return base;
      this.skip();
      let fn: QName | Ast;
      if (this.peek('$')) fn = this.varRef();
      else if (this.peek('(')) fn = this.parenthesized();
      else fn = this.qname();
      base = { t: 'arrow', base, fn, args: this.argumentList(), at };
    }
  }

  private unary(): Ast {
    const at = this.here();
    let negate = false;
    let signed = false;
    for (;;) {
      this.skip();
      const c = this.text[this.pos];
      if (c === '-') negate = !negate;
      else if (c !== '+') break;
      signed = true;
      this.pos++;
    }
    const operand = this.simpleMap();
    return signed ? { t: 'unary', negate, operand, at } : operand;
  }

  private simpleMap(): Ast {
    let left = this.path();
    for (;;) {
      this.skip();
      const at = this.pos;
      if (this.text[this.pos] !== '!' || this.text[this.pos + 1] === '=') return left;
      this.pos++;
      left = { t: 'simple-map', left, right: this.path(), at };
    }
  }

  private path(): Ast {
    this.skip();
    const at = this.pos;
    if (this.text.startsWith('//', this.pos)) {
      this.pos += 2;
      const root: Ast = { t: 'root', at };
      return this.relativePath({ t: 'path', left: root, right: descendantOrSelf(at), at });
    }
    if (this.text[this.pos] === '/') {
      this.pos++;
      const root: Ast = { t: 'root', at };
      return this.startsStep() ? this.relativePath(root) : root;
    }
    return this.relativePath(undefined);
  }

  /** Steps joined by / and //; `left` is what comes before the first one, if anything. */
  private relativePath(left: Ast | undefined): Ast {
    let path = left ? ({ t: 'path', left, right: this.step(), at: left.at } as Ast) : this.step();
    for (;;) {
      this.skip();
      const at = this.pos;
      if (this.text.startsWith('//', this.pos)) {
        this.pos += 2;
        path = { t: 'path', left: { t: 'path', left: path, right: descendantOrSelf(at), at }, right: this.step(), at };
      } else if (this.text[this.pos] === '/') {
        this.pos++;
        path = { t: 'path', left: path, right: this.step(), at };
      } else return path;
    }
  }

  /** Whether a step can start here: after a lone `/`, it decides between the root and a path. */
  private startsStep(): boolean {
    this.skip();
    const c = this.text[this.pos];
    if (c === undefined) return false;
    return /[\p{L}_*@.$('"\d\[?]/u.test(c);
  }

  private step(): Ast {
    this.skip();
    const at = this.pos;
    if (this.text.startsWith('..', this.pos)) {
      this.pos += 2;
      return this.predicates({ t: 'step', axis: 'parent', test: { t: 'kind', kind: 'node' }, predicates: [], at });
    }
    if (this.text[this.pos] === '@') {
      this.pos++;
      return this.predicates({ t: 'step', axis: 'attribute', test: this.nodeTest(), predicates: [], at });
    }
    const name = this.peekName();
    if (name !== undefined) {
      const after = this.afterName();
      if (this.text.startsWith('::', this.nextNonSpace(after))) {
        if (!AXES.has(name)) this.fail(`${name} is not an axis`);
        this.pos = this.nextNonSpace(after) + 2;
        return this.predicates({ t: 'step', axis: name as Axis, test: this.nodeTest(), predicates: [], at });
      }
      if (this.isNameTest())
        return this.predicates({ t: 'step', axis: 'child', test: this.nodeTest(), predicates: [], at });
    } else if (this.text[this.pos] === '*') {
      return this.predicates({ t: 'step', axis: 'child', test: this.nodeTest(), predicates: [], at });
    }
    return this.postfix();
  }

  /** A name here is a step's name test unless it is a function call, a constructor or a function reference. */
  private isNameTest(): boolean {
    const save = this.pos;
    const name = this.qname(true);
    const next = this.text[this.nextNonSpace(this.pos)];
    this.pos = save;
    const plain = name.prefix === undefined && name.uri === undefined;
    if (plain && KIND_TESTS[name.local] !== undefined && next === '(') return true;
    if (next === '(' || next === '#') return false;
    return !(plain && (name.local === 'map' || name.local === 'array') && next === '{');
  }

  private nodeTest(): NodeTest {
    this.skip();
    const name = this.peekName();
    if (
      name !== undefined &&
      KIND_TESTS[name] !== undefined &&
      this.text[this.nextNonSpace(this.afterName())] === '('
    ) {
      return this.kindTest();
    }
    if (this.eat('*')) {
      if (this.text[this.pos] === ':' && this.text[this.pos + 1] !== ':') {
        this.pos++;
        return { t: 'name', name: { prefix: '*', local: this.ncname() } };
      }
      return { t: 'name', name: { local: '*' } };
    }
    return { t: 'name', name: this.qname(true) };
  }

  private kindTest(): Extract<NodeTest, { t: 'kind' }> {
    const word = this.ncname();
    const kind = KIND_TESTS[word]!;
    this.expect('(');
    const test: Extract<NodeTest, { t: 'kind' }> = { t: 'kind', kind };
    if (kind === 'document') {
      // document-node(element(x)) / document-node(assembly(x)): the root's name.
      if (!this.peek(')')) {
        const inner = this.kindTest();
        if (inner.name !== undefined) test.name = inner.name;
      }
    } else if (!this.peek(')')) {
      test.name = this.eat('*') ? '*' : this.ncname();
    }
    this.expect(')');
    return test;
  }

  private predicates(base: Ast): Ast {
    const predicates = [];
    while (this.eat('[')) {
      predicates.push(this.expr());
      this.expect(']');
    }
    if (predicates.length === 0) return base;
    if (base.t === 'step') {
      base.predicates = predicates;
      return base;
    }
    return { t: 'filter', base, predicates, at: base.at };
  }

  private postfix(): Ast {
    let base = this.primary();
    for (;;) {
      this.skip();
      const c = this.text[this.pos];
      if (c === '[') {
        const predicates: Ast[] = [];
        while (this.eat('[')) {
          predicates.push(this.expr());
          this.expect(']');
        }
        base = { t: 'filter', base, predicates, at: base.at };
      } else if (c === '(') {
        base = { t: 'dynamic-call', fn: base, args: this.argumentList(), at: this.pos };
      } else if (c === '?') {
        const at = this.pos;
        this.pos++;
        base = { t: 'lookup', base, key: this.keySpecifier(), at };
      } else return base;
    }
  }

  private keySpecifier(): Ast | '*' {
    this.skip();
    const at = this.pos;
    if (this.eat('*')) return '*';
    if (this.peek('(')) return this.parenthesized();
    const digits = /\d+/y;
    digits.lastIndex = this.pos;
    const m = digits.exec(this.text);
    if (m) {
      this.pos += m[0].length;
      return { t: 'integer', value: Number(m[0]), at };
    }
    return { t: 'string', value: this.ncname(), at };
  }

  private primary(): Ast {
    this.skip();
    const at = this.pos;
    const c = this.text[this.pos];
    if (c === undefined) this.fail('the expression ends where a value was expected');
    if (c === '"' || c === "'") return { t: 'string', value: this.stringLiteral(), at };
    if (/[\d.]/.test(c) && !(c === '.' && !/\d/.test(this.text[this.pos + 1] ?? ''))) return this.numberLiteral();
    if (c === '.') {
      this.pos++;
      return { t: 'context', at };
    }
    if (c === '$') return this.varRef();
    if (c === '(') return this.parenthesized();
    if (c === '[') {
      this.pos++;
      const members = this.peek(']') ? [] : this.commaSeparated(']');
      this.expect(']');
      return { t: 'array', members, curly: false, at };
    }
    if (c === '?') {
      this.pos++;
      return { t: 'lookup', base: null, key: this.keySpecifier(), at };
    }
    const word = this.peekName();
    if (word === undefined && !(c === 'Q' && this.text[this.pos + 1] === '{')) this.fail(`unexpected ${this.found()}`);
    const next = this.nextNonSpace(this.afterName());
    if (word === 'function' && this.text[next] === '(') return this.inlineFunction();
    if (word === 'map' && this.text[next] === '{') return this.mapConstructor();
    if (word === 'array' && this.text[next] === '{') {
      this.keyword('array');
      this.expect('{');
      const members = this.peek('}') ? [] : [this.expr()];
      this.expect('}');
      return { t: 'array', members, curly: true, at };
    }
    const name = this.qname();
    this.skip();
    if (this.eat('#')) {
      const arity = /\d+/y;
      arity.lastIndex = this.pos;
      const m = arity.exec(this.text);
      if (!m) this.fail('a function reference needs its arity after #, e.g. count#1');
      this.pos += m[0].length;
      return { t: 'function-ref', name, arity: Number(m[0]), at };
    }
    if (!this.peek('(')) this.fail(`unexpected ${this.found()} after ${qnameText(name)}`);
    if (name.prefix === undefined && name.uri === undefined && RESERVED_FUNCTION_NAMES.has(name.local)) {
      this.fail(`${name.local}(…) cannot be called as a function here`);
    }
    return { t: 'call', name, args: this.argumentList(), at };
  }

  private varRef(): AstOf<'var'> {
    const at = this.here();
    this.expect('$');
    return { t: 'var', name: this.qname(), at };
  }

  private parenthesized(): Ast {
    const at = this.here();
    this.expect('(');
    if (this.eat(')')) return { t: 'empty', at };
    const inner = this.expr();
    this.expect(')');
    return inner;
  }

  /** `(a, ?, b)`: a `?` is a placeholder of partial application. */
  private argumentList(): (Ast | null)[] {
    this.expect('(');
    const args: (Ast | null)[] = [];
    if (this.eat(')')) return args;
    do {
      this.skip();
      if (this.text[this.pos] === '?' && /^\s*[,)]/.test(this.text.slice(this.pos + 1, this.pos + 40))) {
        this.pos++;
        args.push(null);
      } else args.push(this.exprSingle());
    } while (this.eat(','));
    this.expect(')');
    return args;
  }

  private commaSeparated(close: string): Ast[] {
    const items = [this.exprSingle()];
    while (this.eat(',')) items.push(this.exprSingle());
    if (!this.peek(close)) this.fail(`expected "${close}" but found ${this.found()}`);
    return items;
  }

  private mapConstructor(): Ast {
    const at = this.here();
    this.keyword('map');
    this.expect('{');
    const entries: [Ast, Ast][] = [];
    if (!this.peek('}')) {
      do {
        const key = this.exprSingle();
        this.expect(':');
        entries.push([key, this.exprSingle()]);
      } while (this.eat(','));
    }
    this.expect('}');
    return { t: 'map', entries, at };
  }

  private inlineFunction(): Ast {
    const at = this.here();
    this.keyword('function');
    this.expect('(');
    const params: { name: QName; type?: SequenceType }[] = [];
    if (!this.peek(')')) {
      do {
        this.expect('$');
        const name = this.qname();
        params.push(this.keyword('as') ? { name, type: this.sequenceType() } : { name });
      } while (this.eat(','));
    }
    this.expect(')');
    const returns = this.keyword('as') ? this.sequenceType() : undefined;
    this.expect('{');
    const body: Ast = this.peek('}') ? { t: 'empty', at: this.pos } : this.expr();
    this.expect('}');
    return returns ? { t: 'inline-function', params, returns, body, at } : { t: 'inline-function', params, body, at };
  }

  private sequenceType(): SequenceType {
    this.skip();
    const word = this.peekName();
    if (word === 'empty-sequence') {
      this.ncname();
      this.expect('(');
      this.expect(')');
      return { item: 'empty', occurrence: '' };
    }
    const item = this.itemType();
    this.skip();
    const c = this.text[this.pos];
    if (c === '?' || c === '*' || c === '+') {
      this.pos++;
      return { item, occurrence: c };
    }
    return { item, occurrence: '' };
  }

  private itemType(): ItemType {
    this.skip();
    if (this.peek('(')) {
      this.expect('(');
      const inner = this.itemType();
      this.expect(')');
      return inner;
    }
    const word = this.peekName();
    const next = word === undefined ? -1 : this.nextNonSpace(this.afterName());
    if (word !== undefined && this.text[next] === '(') {
      if (KIND_TESTS[word] !== undefined) return { t: 'node', test: this.kindTest() };
      if (word === 'item') {
        this.ncname();
        this.expect('(');
        this.expect(')');
        return { t: 'item' };
      }
      if (word === 'map' || word === 'array') {
        this.ncname();
        this.expect('(');
        if (this.eat('*')) {
          this.expect(')');
          return { t: word };
        }
        if (word === 'array') {
          const member = this.sequenceType();
          this.expect(')');
          return { t: 'array', member };
        }
        this.skip();
        const key = this.qname();
        this.expect(',');
        const value = this.sequenceType();
        this.expect(')');
        return { t: 'map', key, value };
      }
      if (word === 'function') {
        this.ncname();
        this.skipBalanced();
        if (this.keyword('as')) this.sequenceType();
        return { t: word };
      }
    }
    return { t: 'atomic', name: this.qname() };
  }

  /** Skips a parenthesized type list such as (*) or (xs:string, item()*), whose details are not checked. */
  private skipBalanced(): void {
    this.expect('(');
    let depth = 1;
    while (depth > 0) {
      const c = this.text[this.pos++];
      if (c === undefined) this.fail('a type ends without its ")"');
      if (c === '(') depth++;
      else if (c === ')') depth--;
    }
  }

  // ---- tokens ----

  private stringLiteral(): string {
    const quote = this.text[this.pos]!;
    const start = this.pos;
    let out = '';
    this.pos++;
    for (;;) {
      const end = this.text.indexOf(quote, this.pos);
      if (end === -1) {
        this.pos = start;
        this.fail('a string literal is not closed');
      }
      out += this.text.slice(this.pos, end);
      this.pos = end + 1;
      if (this.text[this.pos] !== quote) return out;
      out += quote;
      this.pos++;
    }
  }

  private numberLiteral(): Ast {
    const at = this.pos;
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text)!;
    this.pos += m[0].length;
    if (NAME_CHAR.test(this.text[this.pos] ?? '') && !/[.\-]/.test(this.text[this.pos]!)) {
      this.fail(`a number must be separated from the name that follows it (${this.found()})`);
    }
    const text = m[0];
    if (/[eE]/.test(text)) return { t: 'double', value: Number(text), at };
    if (text.includes('.')) return { t: 'decimal', value: Number(text), at };
    return { t: 'integer', value: Number(text), at };
  }

  /** An EQName: local, prefix:local or Q{uri}local; with `wildcards`, prefix:* too. */
  private qname(wildcards = false): QName {
    this.skip();
    if (this.text[this.pos] === 'Q' && this.text[this.pos + 1] === '{') {
      const close = this.text.indexOf('}', this.pos);
      if (close === -1) this.fail('a Q{…} name is not closed');
      const uri = this.text.slice(this.pos + 2, close);
      this.pos = close + 1;
      if (wildcards && this.eat('*')) return { uri, local: '*' };
      return { uri, local: this.ncname() };
    }
    const first = this.ncname();
    if (this.text[this.pos] === ':' && this.text[this.pos + 1] !== ':' && this.text[this.pos + 1] !== '=') {
      this.pos++;
      if (wildcards && this.text[this.pos] === '*') {
        this.pos++;
        return { prefix: first, local: '*' };
      }
      return { prefix: first, local: this.ncname() };
    }
    return { local: first };
  }

  private ncname(): string {
    this.skip();
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.text);
    if (!m) this.fail(`expected a name but found ${this.found()}`);
    this.pos += m[0].length;
    return m[0];
  }

  private peekName(): string | undefined {
    this.skip();
    NAME.lastIndex = this.pos;
    return NAME.exec(this.text)?.[0];
  }

  private afterName(): number {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.text);
    return m ? this.pos + m[0].length : this.pos;
  }

  /** The keyword here if the next thing after it is `next` (e.g. for before $, if before "("). */
  private peekKeywordBefore(next: string): string | undefined {
    const word = this.peekName();
    if (word === undefined) return undefined;
    return this.text.startsWith(next, this.nextNonSpace(this.afterName())) ? word : undefined;
  }

  private peekKeyword(word: string): boolean {
    return this.peekName() === word;
  }

  private keyword(word: string): boolean {
    if (this.peekName() !== word) return false;
    this.pos += word.length;
    return true;
  }

  private expectKeyword(word: string): void {
    if (!this.keyword(word)) this.fail(`expected "${word}" but found ${this.found()}`);
  }

  private peek(symbol: string): boolean {
    this.skip();
    return this.text.startsWith(symbol, this.pos);
  }

  private eat(symbol: string): boolean {
    if (!this.peek(symbol)) return false;
    this.pos += symbol.length;
    return true;
  }

  private expect(symbol: string): void {
    if (!this.eat(symbol)) this.fail(`expected "${symbol}" but found ${this.found()}`);
  }

  private here(): number {
    this.skip();
    return this.pos;
  }

  private nextNonSpace(from: number): number {
    const save = this.pos;
    this.pos = from;
    this.skip();
    const at = this.pos;
    this.pos = save;
    return at;
  }

  /** Whitespace and (: comments :), which nest. */
  private skip(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.pos++;
      else if (c === 40 && text.charCodeAt(this.pos + 1) === 58) {
        const start = this.pos;
        let depth = 0;
        do {
          if (text.startsWith('(:', this.pos)) {
            depth++;
            this.pos += 2;
          } else if (text.startsWith(':)', this.pos)) {
            depth--;
            this.pos += 2;
          } else if (this.pos >= text.length) {
            this.pos = start;
            this.fail('a comment (: … :) is not closed');
          } else this.pos++;
        } while (depth > 0);
      } else return;
    }
  }

  private found(): string {
    if (this.pos >= this.text.length) return 'the end of the expression';
    return `"${this.text.slice(this.pos, this.pos + 12).split(/\s/)[0] || this.text[this.pos]}"`;
  }

  private fail(message: string): never {
    throw new MetapathError('XPST0003', `${message} (at character ${this.pos + 1})`, this.pos);
  }
}

function descendantOrSelf(at: number): Ast {
  return { t: 'step', axis: 'descendant-or-self', test: { t: 'kind', kind: 'node' }, predicates: [], at };
}

export function qnameText(name: QName): string {
  if (name.uri !== undefined) return `Q{${name.uri}}${name.local}`;
  return name.prefix === undefined ? name.local : `${name.prefix}:${name.local}`;
}
