/**
 * The function library: every function by expanded name and arity. Each group of functions
 * (strings, sequences, maps, …) registers itself from its own file; library.ts imports them all.
 */
import type { Ctx } from '../context.js';
import type { Sequence } from '../items.js';

export type FunctionImpl = (args: Sequence[], ctx: Ctx) => Sequence;

export interface FunctionDef {
  ns: string;
  local: string;
  /** Arities accepted: [min, max]; max is Infinity for fn:concat. */
  min: number;
  max: number;
  impl: FunctionImpl;
}

const table = new Map<string, FunctionDef[]>();

/**
 * Registers functions of one namespace. An arity is a number or [min, max]; one implementation
 * serves every arity in the range and sees as many arguments as were given.
 */
export function define(ns: string, functions: Record<string, [number | [number, number], FunctionImpl]>): void {
  for (const [local, [arity, impl]] of Object.entries(functions)) {
    const [min, max] = typeof arity === 'number' ? [arity, arity] : arity;
    const key = `${ns} ${local}`;
    const defs = table.get(key) ?? [];
    defs.push({ ns, local, min, max, impl });
    table.set(key, defs);
  }
}

export function lookupFunction(ns: string, local: string, arity: number): FunctionDef | undefined {
  return table.get(`${ns} ${local}`)?.find((d) => d.min <= arity && arity <= d.max);
}

/** The arities a function name has, for an error that says which exist. */
export function aritiesOf(ns: string, local: string): string[] {
  return (table.get(`${ns} ${local}`) ?? []).map((d) =>
    d.min === d.max ? String(d.min) : d.max === Infinity ? `${d.min} or more` : `${d.min}-${d.max}`,
  );
}
