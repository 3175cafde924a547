/**
 * Metaschema constraint elements (a definition's <constraint>, or an external set's
 * <constraints>) into compiled rules. Every Metapath is parsed and its names resolved here, so
 * a bad expression is reported once, naming the file, the line and the expression.
 */
import { dataType } from '../../metaschema/compile-ir.js';
import { childElements, firstChild, textOf, type XmlElement } from '../../metaschema/xml-tree.js';
import { compileAst, MetapathError, parseMetapath } from '../metapath/index.js';
import { translateRegex } from '../metapath/regex.js';
import {
  LEVELS,
  type Constraint,
  type ConstraintKind,
  type ConstraintProp,
  type Expression,
  type KeyField,
  type Level,
  type MessagePart,
  type Rule,
} from './model.js';

export class ConstraintDefinitionError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
    this.name = 'ConstraintDefinitionError';
  }
}

export interface CompileOptions {
  file: string;
  /** Stands before the kind and number of constraints without an id: the definition or context they belong to. */
  idPrefix: string;
  namespaces: Record<string, string>;
  /** Every variable a let binds anywhere in the set: an expression may use those bound above it. */
  variables: readonly string[];
}

const CONSTRAINT_KINDS = new Set<string>([
  'allowed-values',
  'matches',
  'expect',
  'has-cardinality',
  'index',
  'index-has-key',
  'is-unique',
]);

export function compileRules(elements: readonly XmlElement[], options: CompileOptions): Rule[] {
  return rulesOf(elements, options, new Map());
}

/** `counts` numbers the constraints without an id across nested <require>s, so each id is made once. */
function rulesOf(elements: readonly XmlElement[], options: CompileOptions, counts: Map<string, number>): Rule[] {
  const rules: Rule[] = [];
  for (const el of elements) {
    if (el.name === 'require') {
      rules.push({
        kind: 'require',
        when: expression(el, 'when', options),
        rules: rulesOf(childElements(el), options, counts),
        source: { file: options.file, line: el.line },
      });
    } else if (el.name === 'let') {
      rules.push({
        kind: 'let',
        name: required(el, 'var', options),
        expression: expression(el, 'expression', options),
        source: { file: options.file, line: el.line },
      });
    } else if (CONSTRAINT_KINDS.has(el.name)) {
      const n = (counts.get(el.name) ?? 0) + 1;
      counts.set(el.name, n);
      rules.push(constraint(el, el.name as ConstraintKind, `${options.idPrefix}/${el.name}-${n}`, options));
    } else if (el.name !== 'remarks') {
      throw new ConstraintDefinitionError(
        options.file,
        el.line,
        `<${el.name}> is not a constraint (expected let, allowed-values, matches, expect, has-cardinality, index, index-has-key, is-unique or require)`,
      );
    }
  }
  return rules;
}

/** The names every let of these elements (and nested contexts) binds. */
export function letNames(root: XmlElement): string[] {
  const names: string[] = [];
  const walk = (el: XmlElement): void => {
    if (el.name === 'let' && el.attrs.var) names.push(el.attrs.var);
    for (const c of childElements(el)) walk(c);
  };
  walk(root);
  return names;
}

function constraint(el: XmlElement, kind: ConstraintKind, generatedId: string, options: CompileOptions): Constraint {
  const message = firstChild(el, 'message');
  const common = {
    id: el.attrs.id ?? generatedId,
    ...(el.attrs.id === undefined ? { generatedId: true as const } : {}),
    level: level(el, options),
    target: el.attrs.target === undefined ? DOT : expression(el, 'target', options),
    ...documentation(el),
    ...(message ? { message: messageTemplate(message, options) } : {}),
    source: { file: options.file, line: el.line },
  };
  switch (kind) {
    case 'allowed-values': {
      // metaschema.xsd's default, which metaschema-java follows (IAllowedValuesConstraint.EXTENSIBLE_DEFAULT); constraints.md says model.
      const extensible = el.attrs.extensible ?? 'external';
      if (extensible !== 'none' && extensible !== 'model' && extensible !== 'external') {
        throw new ConstraintDefinitionError(
          options.file,
          el.line,
          `extensible="${extensible}" must be none, model or external`,
        );
      }
      return {
        ...common,
        kind,
        values: childElements(el, 'enum').map((e) => required(e, 'value', options)),
        allowOther: yesNo(el, 'allow-other', options),
        extensible,
      };
    }
    case 'matches': {
      const { regex, datatype } = el.attrs;
      if (regex === undefined && datatype === undefined)
        throw new ConstraintDefinitionError(
          options.file,
          el.line,
          'a matches constraint needs a regex, a datatype or both',
        );
      if (regex !== undefined) checkRegex(regex, el, options);
      return {
        ...common,
        kind,
        ...(regex !== undefined ? { regex } : {}),
        ...(datatype !== undefined ? { datatype: checkedDatatype(datatype, el, options) } : {}),
      };
    }
    case 'expect':
      return { ...common, kind, test: expression(el, 'test', options) };
    case 'has-cardinality': {
      const min = el.attrs['min-occurs'];
      const max = el.attrs['max-occurs'];
      if (min === undefined && max === undefined)
        throw new ConstraintDefinitionError(
          options.file,
          el.line,
          'a has-cardinality constraint needs min-occurs, max-occurs or both',
        );
      return {
        ...common,
        kind,
        ...(min !== undefined ? { minOccurs: count(min, 'min-occurs', el, options) } : {}),
        ...(max !== undefined && max !== 'unbounded' ? { maxOccurs: count(max, 'max-occurs', el, options) } : {}),
      };
    }
    case 'index':
    case 'index-has-key':
      return { ...common, kind, name: required(el, 'name', options), keyFields: keyFields(el, options) };
    case 'is-unique':
      return { ...common, kind, keyFields: keyFields(el, options) };
  }
}

function documentation(el: XmlElement): { formalName?: string; description?: string; props?: ConstraintProp[] } {
  const formalName = textOf(firstChild(el, 'formal-name'));
  const description = textOf(firstChild(el, 'description'));
  const props = childElements(el, 'prop').map((p) => ({
    ...(p.attrs.namespace !== undefined ? { namespace: p.attrs.namespace } : {}),
    name: p.attrs.name ?? '',
    value: p.attrs.value ?? '',
  }));
  return {
    ...(formalName ? { formalName } : {}),
    ...(description ? { description } : {}),
    ...(props.length ? { props } : {}),
  };
}

function keyFields(el: XmlElement, options: CompileOptions): KeyField[] {
  const fields = childElements(el, 'key-field').map((k) => {
    const field: KeyField = { target: expression(k, 'target', options) };
    if (k.attrs.pattern !== undefined) {
      checkRegex(k.attrs.pattern, k, options);
      field.pattern = k.attrs.pattern;
    }
    return field;
  });
  if (fields.length === 0)
    throw new ConstraintDefinitionError(options.file, el.line, `an ${el.name} constraint needs at least one key-field`);
  return fields;
}

function level(el: XmlElement, options: CompileOptions): Level {
  const value = el.attrs.level ?? 'ERROR';
  if (!(LEVELS as readonly string[]).includes(value)) {
    throw new ConstraintDefinitionError(options.file, el.line, `level="${value}" must be one of ${LEVELS.join(', ')}`);
  }
  return value as Level;
}

function yesNo(el: XmlElement, attr: string, options: CompileOptions): boolean {
  const value = el.attrs[attr] ?? 'no';
  if (value !== 'yes' && value !== 'no')
    throw new ConstraintDefinitionError(options.file, el.line, `${attr}="${value}" must be yes or no`);
  return value === 'yes';
}

function count(value: string, attr: string, el: XmlElement, options: CompileOptions): number {
  if (!/^\d+$/.test(value))
    throw new ConstraintDefinitionError(options.file, el.line, `${attr}="${value}" must be a non-negative integer`);
  return Number(value);
}

function required(el: XmlElement, attr: string, options: CompileOptions): string {
  const value = el.attrs[attr];
  if (value === undefined)
    throw new ConstraintDefinitionError(options.file, el.line, `<${el.name}> needs its ${attr} attribute`);
  return value;
}

function checkedDatatype(name: string, el: XmlElement, options: CompileOptions): string {
  try {
    return dataType(name, `datatype="${name}"`);
  } catch {
    throw new ConstraintDefinitionError(options.file, el.line, `datatype="${name}" is not a Metaschema datatype`);
  }
}

function checkRegex(pattern: string, el: XmlElement, options: CompileOptions): void {
  try {
    translateRegex(pattern, '');
  } catch (e) {
    if (e instanceof MetapathError)
      throw new ConstraintDefinitionError(
        options.file,
        el.line,
        `the regular expression "${pattern}" is not valid: ${e.message}`,
      );
    throw e;
  }
}

const DOT: Expression = { text: '.', ast: { t: 'context', at: 0 } };

export function expression(el: XmlElement, attr: string, options: CompileOptions): Expression {
  return parseExpression(required(el, attr, options), el, `the ${attr}`, options);
}

function parseExpression(text: string, el: XmlElement, what: string, options: CompileOptions): Expression {
  try {
    const ast = parseMetapath(text);
    // Compiling resolves functions, prefixes and variables: an unknown one fails now, not at every document.
    compileAst(ast, { namespaces: options.namespaces, variables: options.variables });
    return { text, ast };
  } catch (e) {
    if (e instanceof MetapathError) {
      throw new ConstraintDefinitionError(
        options.file,
        el.line,
        `${what} "${text}" of <${el.name}${el.attrs.id ? ` id="${el.attrs.id}"` : ''}> is not valid Metapath: ${e.message}`,
      );
    }
    throw e;
  }
}

/** A <message>: text with { expression } templates (braces inside string literals do not count). */
function messageTemplate(el: XmlElement, options: CompileOptions): MessagePart[] {
  const text = textOf(el) ?? '';
  const parts: MessagePart[] = [];
  let literal = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') {
      literal += text[i];
      continue;
    }
    const end = closingBrace(text, i);
    if (end === -1)
      throw new ConstraintDefinitionError(options.file, el.line, `the message "${text}" has a { without its }`);
    if (literal) parts.push(literal);
    literal = '';
    parts.push(parseExpression(text.slice(i + 1, end).trim(), el, 'the message template', options));
    i = end;
  }
  if (literal) parts.push(literal);
  return parts;
}

function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close === -1) return -1;
      i = close;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
