import type { OscalModel } from '../model/model.js';

const REFERENCE = /#([\w.:-]+)|\{\{\s*insert:\s*param,\s*([^\s}]+)\s*\}\}/g;
const MAY_REFERENCE = /[#{]/;

/**
 * Copies OSCAL JSON into canonical order (the model's order of flags and children) while noting
 * every id the copy references: `#id` anywhere in a string, a param inserted into markup, and
 * depends-on. The copy shares nothing with its source, so the result of a resolution is the
 * caller's to change.
 */
export class CanonicalCopy {
  readonly references = new Set<string>();

  constructor(private readonly model: OscalModel) {}

  /** The definition of `key` inside definition `def`. */
  child(def: number, key: string): number {
    const child = this.model.index(def).json.get(key);
    if (!child) throw new Error(`${key} is not a child of ${this.model.defs[def]!.name}`);
    return child.def;
  }

  copy(value: unknown, def: number): unknown {
    const binding = this.model.defs[def]!;
    if (typeof value !== 'object' || value === null) return this.scalar(value);
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const flag of binding.flags) {
      const v = source[flag.name];
      if (v === undefined) continue;
      out[flag.name] = this.scalar(v);
      if (flag.name === 'depends-on' && typeof v === 'string') this.references.add(v);
    }
    if (binding.kind === 'assembly') {
      for (const child of binding.children) {
        const v = source[child.json];
        if (v === undefined) continue;
        if (Array.isArray(v)) out[child.json] = v.map((item) => this.copy(item, child.def));
        else if (child.group === 'BY_KEY')
          out[child.json] = Object.fromEntries(
            Object.entries(v as object).map(([k, item]) => [k, this.copy(item, child.def)]),
          );
        else out[child.json] = this.copy(v, child.def);
      }
    }
    // A field's value, and anything the model does not know, follow in their own order.
    for (const key in source) if (!(key in out)) out[key] = this.raw(source[key]);
    return out;
  }

  private scalar(value: unknown): unknown {
    if (typeof value === 'string') this.scan(value);
    return value;
  }

  private raw(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return this.scalar(value);
    if (Array.isArray(value)) return value.map((v) => this.raw(v));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.raw(v)]));
  }

  private scan(text: string): void {
    if (!MAY_REFERENCE.test(text)) return;
    for (const m of text.matchAll(REFERENCE)) this.references.add(m[1] ?? m[2]!);
  }
}
