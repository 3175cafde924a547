import fc from 'fast-check';
import type { DataType } from '../../src/metaschema/ir.js';
import {
  modelFor,
  type AssemblyBinding,
  type ChildBinding,
  type FieldBinding,
  type FlagBinding,
  type OscalModel,
} from '../../src/oscal/model/model.js';

export type JsonObject = Record<string, unknown>;

/** Assembly nesting from which only required content is generated; this is what ends recursion (part, group, control). */
const MAX_DEPTH = 5;
/**
 * Percent chance that an optional child is present, by depth. It falls with depth because
 * assemblies like metadata have a dozen optional children and a constant rate makes documents
 * grow exponentially.
 */
const OPTIONAL_CHANCE = [60, 50, 40, 35, 30];
const FLAG_CHANCE = 50;
const MAX_ITEMS = 3;

/**
 * A structurally valid OSCAL document in its JSON form, `{ [root]: {...} }`, generated from the
 * binding tables of `version` alone, so every definition of the release is reachable without
 * hand-written knowledge of the models.
 */
export function arbitraryDocument(version: string, root: string): fc.Arbitrary<JsonObject> {
  const model = modelFor(version);
  const def = model.rootDef(root);
  if (def === undefined) throw new Error(`${root} is not a model of OSCAL ${version}`);
  const body = new Generator(model).assembly(def, 0);
  // The readers pick the release from metadata/oscal-version, so it cannot be a random string.
  return body.map((obj) => ({
    [root]: { ...obj, metadata: { ...(obj.metadata as JsonObject), 'oscal-version': version } },
  }));
}

type Entry = readonly [string, unknown];

class Generator {
  private readonly assemblies = new Map<string, fc.Arbitrary<JsonObject>>();
  private readonly fields = new Map<number, fc.Arbitrary<unknown>>();

  constructor(private readonly model: OscalModel) {}

  /** Memoized per depth: from MAX_DEPTH on every level is the same, which is what makes the graph finite. */
  assembly(def: number, depth: number): fc.Arbitrary<JsonObject> {
    const level = Math.min(depth, MAX_DEPTH);
    const key = `${def}@${level}`;
    let arb = this.assemblies.get(key);
    if (!arb) {
      arb = this.buildAssembly(this.model.defs[def] as AssemblyBinding, level);
      this.assemblies.set(key, arb);
    }
    return arb;
  }

  private buildAssembly(binding: AssemblyBinding, depth: number): fc.Arbitrary<JsonObject> {
    const full = depth < MAX_DEPTH;
    const slots: fc.Arbitrary<Entry | undefined>[] = binding.flags.map((flag) => this.flag(flag));
    const choices = new Map<number, ChildBinding[]>();
    for (const child of binding.children) {
      if (child.choice !== undefined) {
        const alternatives = choices.get(child.choice) ?? [];
        alternatives.push(child);
        choices.set(child.choice, alternatives);
      } else if (child.min > 0 || full) {
        slots.push(
          this.maybe(
            this.child(child, depth).map((v): Entry => [child.json, v]),
            child.min > 0,
            depth,
          ),
        );
      }
    }
    for (const alternatives of choices.values()) {
      // An alternative allowing zero occurrences satisfies the choice by being absent.
      const required = alternatives.every((a) => a.min > 0);
      if (!required && !full) continue;
      const entry = fc.oneof(...alternatives.map((a) => this.child(a, depth).map((v): Entry => [a.json, v])));
      slots.push(this.maybe(entry, required, depth));
    }
    return fc.tuple(...slots).map((entries) => Object.fromEntries(entries.filter((e) => e !== undefined)));
  }

  /** The JSON value of a child property: one item, or the items shaped as its group-as says. */
  private child(child: ChildBinding, depth: number): fc.Arbitrary<unknown> {
    const target = this.model.defs[child.def]!;
    const item = target.kind === 'assembly' ? this.assembly(child.def, depth + 1) : this.field(child.def);
    if (!child.group) return item;
    const minLength = Math.max(1, child.min);
    const maxLength = Math.max(minLength, child.max === -1 ? MAX_ITEMS : Math.min(child.max, MAX_ITEMS));
    switch (child.group) {
      case 'ARRAY':
        return fc.array(item, { minLength, maxLength });
      case 'SINGLETON_OR_ARRAY': {
        // One value is written bare; an array of one would not survive a round trip, so arrays hold 2+.
        const shapes: fc.Arbitrary<unknown>[] = [];
        if (minLength === 1) shapes.push(item);
        if (child.max === -1 || child.max >= 2)
          shapes.push(fc.array(item, { minLength: Math.max(2, minLength), maxLength: Math.max(2, maxLength) }));
        return fc.oneof(...shapes);
      }
      case 'BY_KEY':
        // No supported release groups BY_KEY; generating it would mean guessing at the engine's reading.
        throw new Error(`${child.json}: BY_KEY groups are not generated`);
    }
  }

  private field(def: number): fc.Arbitrary<unknown> {
    let arb = this.fields.get(def);
    if (!arb) {
      arb = this.buildField(this.model.defs[def] as FieldBinding);
      this.fields.set(def, arb);
    }
    return arb;
  }

  private buildField(binding: FieldBinding): fc.Arbitrary<unknown> {
    const value = VALUES[binding.type];
    if (binding.flags.length === 0) return value;
    // As with BY_KEY, no supported release uses json-value-key-flag.
    if (binding.valueKeyFlag) throw new Error(`${binding.name}: json-value-key-flag fields are not generated`);
    return fc.tuple(value, ...binding.flags.map((flag) => this.flag(flag))).map(([v, ...flags]) => ({
      ...Object.fromEntries(flags.filter((e) => e !== undefined)),
      [binding.valueKey]: v,
    }));
  }

  private flag(flag: FlagBinding): fc.Arbitrary<Entry | undefined> {
    const entry = VALUES[flag.type].map((v): Entry => [flag.name, v]);
    return flag.required ? entry : optional(entry, FLAG_CHANCE);
  }

  private maybe<T>(arb: fc.Arbitrary<T>, required: boolean, depth: number): fc.Arbitrary<T | undefined> {
    return required ? arb : optional(arb, OPTIONAL_CHANCE[Math.min(depth, OPTIONAL_CHANCE.length - 1)]!);
  }
}

/** Absent first, so shrinking removes optional content. */
function optional<T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(undefined), weight: 100 - percent },
    { arbitrary: arb, weight: percent },
  );
}

// ---- values -------------------------------------------------------------------------------

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const LETTERS = LOWER + LOWER.toUpperCase();
const DIGITS = '0123456789';
const chars = (s: string) => fc.constantFrom(...s);

/**
 * Text that YAML would type as something other than a string if written bare, or that XML and
 * YAML have to escape or quote; all of it must stay the same string through every format.
 */
const TRICKY_STRINGS: readonly string[] = [
  'true',
  'True',
  'FALSE',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  'null',
  'Null',
  '~',
  '',
  '1.0',
  '1',
  '-1',
  '+12',
  '012',
  '0x1F',
  '0o17',
  '1e3',
  '1_000',
  '.inf',
  '-.Inf',
  '.nan',
  '12:30:45',
  '2024-01-01',
  '2024-01-01T10:00:00Z',
  '2001-12-14 21:59:43.10 -5',
  '- item',
  'key: value',
  'a #b',
  '# comment',
  '? key',
  '| pipe',
  '> folded',
  '{a: b}',
  '[1, 2]',
  '*alias',
  '&anchor',
  '!tag',
  '!!str',
  '%YAML',
  '@at',
  '`tick',
  ',comma',
  '---',
  '...',
  'a & b < c > d',
  '"double"',
  "'single'",
  "it's",
  '<!-- x -->',
  ']]>',
  '&amp;',
  '&#10;',
  ' leading',
  'trailing ',
  '  ',
  'in  between',
  'é中😀 ünïcode',
  '\u00a0nbsp',
];

/** Printable text: ASCII with every punctuation mark, a space, and a few non-ASCII characters (one outside the BMP). */
const TEXT_CHARS = fc.constantFrom(
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)),
  'é',
  'ß',
  'Ω',
  '中',
  '😀',
  '\u00a0',
);

const plainString = fc.oneof(
  { arbitrary: fc.string({ unit: TEXT_CHARS, maxLength: 20 }), weight: 3 },
  { arbitrary: fc.constantFrom(...TRICKY_STRINGS), weight: 2 },
);

/** Tokens also collide with YAML keywords: `true`, `null` and `on` are valid OSCAL tokens. */
const token = fc.oneof(
  {
    arbitrary: fc
      .tuple(chars(LETTERS + '_é'), fc.string({ unit: chars(LETTERS + DIGITS + '._-'), maxLength: 10 }))
      .map(([a, b]) => a + b),
    weight: 4,
  },
  { arbitrary: fc.constantFrom('true', 'false', 'null', 'yes', 'on', 'NaN', 'e1', '_1.0', 'a-1', 'x.y'), weight: 1 },
);

const twoDigits = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));
const date = fc
  .tuple(fc.integer({ min: 1970, max: 2099 }), twoDigits(1, 12), twoDigits(1, 28))
  .map(([y, m, d]) => `${y}-${m}-${d}`);
const time = fc
  .tuple(
    twoDigits(0, 23),
    twoDigits(0, 59),
    twoDigits(0, 59),
    fc.option(fc.integer({ min: 0, max: 999999 }), { nil: '' }),
  )
  .map(([h, m, s, frac]) => `${h}:${m}:${s}${frac === '' ? '' : `.${frac}`}`);
/** Offsets that exist, as the OSCAL timezone pattern allows only those. */
const timezone = fc.constantFrom(
  'Z',
  '+00:00',
  '-00:00',
  '+01:00',
  '-05:00',
  '+05:30',
  '+05:45',
  '-03:30',
  '+09:30',
  '+12:45',
  '+14:00',
  '-12:00',
);
const noTimezone = fc.constant('');
const dateTime = (tz: fc.Arbitrary<string>) => fc.tuple(date, time, tz).map(([d, t, z]) => `${d}T${t}${z}`);

const word = fc.string({ unit: chars(LOWER + DIGITS), minLength: 1, maxLength: 8 });
const uri = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.tuple(word, word, word).map(([a, b, c]) => `https://example.org/${a}?x=${b}&y=${c}#frag`),
  fc.tuple(word, word).map(([a, b]) => `urn:${a}:${b}`),
  fc.constantFrom('http://csrc.nist.gov/ns/oscal', 'mailto:someone@example.org'),
);
const uriReference = fc.oneof(
  uri,
  fc.uuid().map((u) => `#${u}`),
  fc.tuple(word, word).map(([a, b]) => `../${a}/${b}.json?a=1&b=2`),
);

/**
 * Plain words and punctuation the canonical Markdown writes unescaped (not `"`, which reads as a
 * quote); richer markup is the markup tests' business.
 */
const markupWord = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('', '(', "'"),
        fc.string({ unit: chars(LETTERS), minLength: 1, maxLength: 9 }),
        fc.constantFrom('', '', '.', ',', ';', ':', '?', '!', ')', "'", "'s"),
      )
      .map(([a, w, z]) => a + w + z),
    weight: 8,
  },
  {
    arbitrary: fc.constantFrom('1.0', 'true', 'null', '2024-01-01', 'A/B', '50%', 'x=y', 'e-mail', 'user@example.org'),
    weight: 1,
  },
);
const markupLine = fc.array(markupWord, { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));
const markupMultiline = fc
  .array(markupLine, { minLength: 1, maxLength: 3 })
  .map((paragraphs) => paragraphs.join('\n\n'));

const VALUES: Record<DataType, fc.Arbitrary<unknown>> = {
  string: plainString,
  'string-or-decimal': plainString,
  token,
  ncname: token,
  uuid: fc.oneof(
    { arbitrary: fc.uuid({ version: [4, 5] }), weight: 3 },
    { arbitrary: fc.uuid({ version: 4 }).map((u) => u.toUpperCase()), weight: 1 },
  ),
  uri,
  'uri-reference': uriReference,
  'email-address': fc
    .tuple(word, fc.constantFrom('', '.x', '+tag'), word)
    .map(([a, b, c]) => `${a}${b}@${c}.example.org`),
  base64: fc.base64String({ minLength: 4, maxLength: 40 }),
  date: fc.tuple(date, fc.oneof(noTimezone, timezone)).map(([d, z]) => d + z),
  'date-with-timezone': fc.tuple(date, timezone).map(([d, z]) => d + z),
  'date-time': dateTime(fc.oneof(noTimezone, timezone)),
  'date-time-with-timezone': dateTime(timezone),
  'day-time-duration': fc.tuple(fc.nat(40), fc.nat(23), fc.nat(59)).map(([d, h, m]) => `P${d}DT${h}H${m}M`),
  'year-month-duration': fc.tuple(fc.nat(20), fc.nat(11)).map(([y, m]) => `P${y}Y${m}M`),
  'ip-v4-address': fc.ipV4(),
  'ip-v6-address': fc.ipV6(),
  hostname: fc.domain(),
  boolean: fc.boolean(),
  integer: fc.integer({ min: -1_000_000, max: 1_000_000 }),
  'non-negative-integer': fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  'positive-integer': fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  // Reaches the ranges JavaScript prints in exponent notation (below 1e-6, from 1e21), which XML
  // must still get in positional notation.
  decimal: fc
    .tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: -25, max: 12 }))
    .map(([n, scale]) => n / 10 ** scale),
  'markup-line': markupLine,
  'markup-multiline': markupMultiline,
};
