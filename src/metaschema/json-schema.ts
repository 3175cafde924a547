/**
 * JSON Schema (draft-07) for one OSCAL release, generated from the IR. One definition per
 * Metaschema definition, datatypes from NIST's Metaschema datatype schema, and one entry schema
 * per model so a document is checked against its own model rather than a oneOf of all of them.
 */
import { readFileSync } from 'node:fs';
import type {
  AssemblyDefinition,
  Constraint,
  DataType,
  Definition,
  FieldDefinition,
  FlagInstance,
  ModelInstance,
  ModelIR,
  NamedModelInstance,
} from './ir.js';

export type JsonSchema = Record<string, unknown>;

/** The Metaschema datatype schema's name for each IR datatype. */
const DATATYPE_NAMES: Record<DataType, string> = {
  string: 'StringDatatype',
  token: 'TokenDatatype',
  ncname: 'TokenDatatype',
  uuid: 'UUIDDatatype',
  uri: 'URIDatatype',
  'uri-reference': 'URIReferenceDatatype',
  'email-address': 'EmailAddressDatatype',
  base64: 'Base64Datatype',
  date: 'DateDatatype',
  'date-time': 'DateTimeDatatype',
  'date-with-timezone': 'DateWithTimezoneDatatype',
  'date-time-with-timezone': 'DateTimeWithTimezoneDatatype',
  'day-time-duration': 'DayTimeDurationDatatype',
  'year-month-duration': 'YearMonthDurationDatatype',
  'ip-v4-address': 'IPV4AddressDatatype',
  'ip-v6-address': 'IPV6AddressDatatype',
  hostname: 'HostnameDatatype',
  boolean: 'BooleanDatatype',
  integer: 'IntegerDatatype',
  'non-negative-integer': 'NonNegativeIntegerDatatype',
  'positive-integer': 'PositiveIntegerDatatype',
  decimal: 'DecimalDatatype',
  'string-or-decimal': 'StringOrDecimalDatatype',
  'markup-line': 'MarkupLineDatatype',
  'markup-multiline': 'MarkupMultilineDatatype',
};

/** Prefix of the definitions that hold datatypes; validation messages key on it. */
export const DATATYPE_PREFIX = 'datatype-';

export function datatypeRef(type: DataType): string {
  return `#/definitions/${DATATYPE_PREFIX}${DATATYPE_NAMES[type]}`;
}

export function definitionName(key: string): string {
  return key.replace(/[^A-Za-z0-9_.-]+/g, '_');
}

export function loadDatatypes(path: string): Record<string, JsonSchema> {
  const source = JSON.parse(readFileSync(path, 'utf8')) as { definitions: Record<string, JsonSchema> };
  const out: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(source.definitions)) {
    // Datatypes refer to each other (EmailAddress builds on String): keep those refs inside our prefix.
    out[DATATYPE_PREFIX + name] = JSON.parse(
      JSON.stringify(schema).replace(/#\/definitions\//g, `#/definitions/${DATATYPE_PREFIX}`),
    );
  }
  // Not in the Metaschema datatype schema; OSCAL 1.2 uses it for scores given as text or number.
  out[`${DATATYPE_PREFIX}StringOrDecimalDatatype`] = {
    anyOf: [{ $ref: `#/definitions/${DATATYPE_PREFIX}StringDatatype` }, { type: 'number' }],
  };
  return out;
}

/** Values of a definition's own closed allowed-values lists (allow-other="no", no narrower target). */
function closedValues(constraints: Constraint[]): string[] | undefined {
  const lists = constraints.filter(
    (c) =>
      c.name === 'allowed-values' &&
      c.attrs['allow-other'] !== 'yes' &&
      (c.attrs.target === undefined || c.attrs.target === '.'),
  );
  if (lists.length === 0) return undefined;
  return lists.flatMap((c) =>
    c.children.flatMap((e) => (typeof e !== 'string' && e.name === 'enum' ? [e.attrs.value!] : [])),
  );
}

function documented(schema: JsonSchema, doc: { formalName?: string; description?: string }): JsonSchema {
  return {
    ...(doc.formalName ? { title: doc.formalName } : {}),
    ...(doc.description ? { description: doc.description } : {}),
    ...schema,
  };
}

export function generateJsonSchema(ir: ModelIR, datatypes: Record<string, JsonSchema>): JsonSchema {
  const definitions: Record<string, JsonSchema> = { ...datatypes };
  const ref = (key: string) => ({ $ref: `#/definitions/${definitionName(key)}` });

  const valueSchema = (type: DataType, constraints: Constraint[]): JsonSchema => {
    const values = closedValues(constraints);
    return values ? { allOf: [{ $ref: datatypeRef(type) }, { enum: values }] } : { $ref: datatypeRef(type) };
  };

  const flagSchema = (flag: FlagInstance): JsonSchema => {
    const def = ir.definitions[flag.def]!;
    if (def.kind !== 'flag') throw new Error(`${flag.def} is not a flag`);
    return documented(valueSchema(def.type, [...def.constraints, ...flag.constraints]), {
      formalName: flag.formalName ?? def.formalName,
      description: flag.description ?? def.description,
    });
  };

  const objectOf = (flags: FlagInstance[], extra: Record<string, JsonSchema>, extraRequired: string[]): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    for (const flag of flags) properties[flag.name] = flagSchema(flag);
    Object.assign(properties, extra);
    const required = [...flags.filter((f) => f.required).map((f) => f.name), ...extraRequired];
    return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  };

  const fieldSchema = (def: FieldDefinition): JsonSchema => {
    const value = valueSchema(def.type, def.constraints);
    if (def.flags.length === 0) return value;
    if (def.valueKeyFlag) {
      // The value sits under a property named by one flag's value: any one extra property.
      const others = def.flags.filter((f) => f.name !== def.valueKeyFlag);
      const schema = objectOf(others, {}, []);
      return {
        ...schema,
        additionalProperties: value,
        minProperties: others.filter((f) => f.required).length + 1,
        maxProperties: others.length + 1,
      };
    }
    const valueKey =
      def.valueKey ??
      (def.type === 'markup-line' ? 'RICHTEXT' : def.type === 'markup-multiline' ? 'prose' : 'STRVALUE');
    return objectOf(def.flags, { [valueKey]: value }, [valueKey]);
  };

  const instanceSchema = (instance: NamedModelInstance): JsonSchema => {
    const item = ref(instance.def);
    const group = instance.groupAs;
    if (!group) return documented(item, instance);
    const list: JsonSchema = { type: 'array', minItems: Math.max(1, instance.minOccurs), items: item };
    if (instance.maxOccurs > 1) list.maxItems = instance.maxOccurs;
    switch (group.inJson) {
      case 'ARRAY':
        return list;
      case 'SINGLETON_OR_ARRAY':
        return { anyOf: [item, { ...list, minItems: Math.max(2, instance.minOccurs) }] };
      case 'BY_KEY':
        return { type: 'object', minProperties: Math.max(1, instance.minOccurs), additionalProperties: item };
    }
  };

  const jsonName = (instance: NamedModelInstance) => instance.groupAs?.name ?? instance.name;

  const assemblySchema = (def: AssemblyDefinition): JsonSchema => {
    const children: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const choices: { names: string[]; required: boolean }[] = [];
    const add = (instance: ModelInstance, choice?: string[]): void => {
      if (instance.kind === 'any') return;
      if (instance.kind === 'choice') {
        const alternatives: string[] = [];
        instance.options.forEach((option) => add(option, alternatives));
        const required = instance.options.every((o) => o.kind !== 'choice' && o.kind !== 'any' && o.minOccurs > 0);
        choices.push({ names: alternatives, required });
        return;
      }
      const name = jsonName(instance);
      children[name] = instanceSchema(instance);
      if (choice) choice.push(name);
      else if (instance.minOccurs > 0) required.push(name);
    };
    def.model.forEach((instance) => add(instance));
    const schema = objectOf(def.flags, children, required);
    // A choice admits one of its alternatives: no two of them side by side, and when every
    // alternative is required, one of them must be there.
    const rules = choices.flatMap(({ names, required }) => [
      ...names.flatMap((a, i) => names.slice(i + 1).map((b) => ({ not: { required: [a, b] } }))),
      ...(required ? [{ anyOf: names.map((n) => ({ required: [n] })) }] : []),
    ]);
    if (rules.length) schema.allOf = rules;
    return schema;
  };

  for (const def of Object.values(ir.definitions) as Definition[]) {
    if (def.kind === 'flag') continue;
    const schema = def.kind === 'field' ? fieldSchema(def) : assemblySchema(def);
    definitions[definitionName(def.key)] = documented(schema, def);
  }

  const models: Record<string, JsonSchema> = {};
  for (const [root, key] of Object.entries(ir.roots)) {
    models[root] = {
      type: 'object',
      properties: {
        ...(acceptsSchemaDirective(ir.version) ? { $schema: { type: 'string', format: 'uri-reference' } } : {}),
        [root]: ref(key),
      },
      required: [root],
      additionalProperties: false,
    };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: schemaId(ir.version),
    $comment: `OSCAL ${ir.version}, generated by OSCAL Depot from NIST's Metaschema modules`,
    definitions: {
      ...definitions,
      ...Object.fromEntries(Object.entries(models).map(([root, s]) => [`model-${root}`, s])),
    },
  };
}

/** OSCAL's JSON format admits a `$schema` property beside the model from release 1.0.6 on. */
function acceptsSchemaDirective(version: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  return major > 1 || minor > 0 || patch >= 6;
}

export function schemaId(version: string): string {
  return `urn:oscal-depot:schema:oscal-${version}`;
}
