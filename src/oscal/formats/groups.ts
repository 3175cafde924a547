import { OscalError } from '../errors.js';
import type { ChildBinding, OscalModel } from '../model/model.js';

/** Shapes the values of a repeatable child the way its group-as says JSON holds them. */
export function groupForJson(values: unknown[], child: ChildBinding, model: OscalModel): unknown {
  switch (child.group) {
    case 'SINGLETON_OR_ARRAY':
      return values.length === 1 ? values[0] : values;
    case 'BY_KEY': {
      const keyFlag = jsonKeyOf(child, model);
      const byKey: Record<string, unknown> = {};
      for (const value of values) {
        const { [keyFlag]: key, ...rest } = value as Record<string, unknown>;
        if (typeof key !== 'string')
          throw new OscalError('invalid-structure', `every <${child.name}> needs its ${keyFlag} attribute`);
        byKey[key] = rest;
      }
      return byKey;
    }
    default:
      return values;
  }
}

/** The reverse: the values of a repeatable child however JSON held them, as a list. */
export function valuesFromJson(value: unknown, child: ChildBinding, model: OscalModel): unknown[] {
  switch (child.group) {
    case 'SINGLETON_OR_ARRAY':
      return Array.isArray(value) ? value : [value];
    case 'BY_KEY': {
      const keyFlag = jsonKeyOf(child, model);
      return Object.entries(value as Record<string, Record<string, unknown>>).map(([key, rest]) => ({
        [keyFlag]: key,
        ...rest,
      }));
    }
    default:
      return value as unknown[];
  }
}

function jsonKeyOf(child: ChildBinding, model: OscalModel): string {
  const key = model.defs[child.def]!.jsonKey;
  if (!key) throw new Error(`${child.json} is grouped BY_KEY but its definition has no json-key`);
  return key;
}
