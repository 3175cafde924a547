import type { DataType } from '../../metaschema/ir.js';

export type Scalar = string | number | boolean;

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** YAML's own float syntax, exponents included (js-yaml writes 1e-7 as 1.e-7). */
const YAML_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** JSON type a datatype takes in the OSCAL JSON form. */
export function jsonKind(type: DataType): 'string' | 'number' | 'boolean' {
  switch (type) {
    case 'boolean':
      return 'boolean';
    case 'integer':
    case 'non-negative-integer':
    case 'positive-integer':
    case 'decimal':
      return 'number';
    default:
      return 'string';
  }
}

/**
 * Turns the text of an XML value or an untyped YAML scalar into its JSON value, or returns
 * undefined when the text cannot be one (the caller reports where).
 */
export function scalarFromText(text: string, type: DataType, syntax: 'xml' | 'yaml' = 'xml'): Scalar | undefined {
  switch (jsonKind(type)) {
    case 'string':
      return text;
    case 'boolean':
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      return undefined;
    case 'number': {
      const trimmed = text.trim();
      const pattern = syntax === 'yaml' ? YAML_NUMBER : type === 'decimal' ? DECIMAL : INTEGER;
      if (!pattern.test(trimmed)) return undefined;
      const n = Number(trimmed);
      if (!Number.isFinite(n) || (type !== 'decimal' && !Number.isInteger(n))) return undefined;
      return n;
    }
  }
}

export function describeType(type: DataType): string {
  switch (jsonKind(type)) {
    case 'boolean':
      return 'true or false';
    case 'number':
      return type === 'decimal' ? 'a decimal number' : `an integer (${type})`;
    default:
      return `a ${type}`;
  }
}

/**
 * Text of a JSON value for XML. Numbers are written in plain positional notation, because
 * xs:decimal and xs:integer have no exponent form and JavaScript prints 1e-7 and 1e21 that way.
 */
export function scalarToText(value: string | number | boolean): string {
  if (typeof value !== 'number') return String(value);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa, exp] = text.split(/e/i) as [string, string];
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const pointAt = mantissa.replace(/^-/, '').indexOf('.');
  const shift = (pointAt === -1 ? digits.length : pointAt) + Number(exp);
  const plain =
    shift <= 0
      ? `0.${'0'.repeat(-shift)}${digits}`
      : shift >= digits.length
        ? digits + '0'.repeat(shift - digits.length)
        : `${digits.slice(0, shift)}.${digits.slice(shift)}`;
  return (negative ? '-' : '') + plain;
}
