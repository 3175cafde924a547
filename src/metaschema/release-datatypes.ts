/**
 * The datatype schema (NIST's current Metaschema datatypes) as each OSCAL release defined it.
 * Where an older release's own definitions, in both its official XSD and JSON Schema, accept
 * what the current datatype schema refuses, a document of that release is judged by its own.
 */
import { DATATYPE_PREFIX, type JsonSchema } from './json-schema.js';

const MARKUP_LINE = `${DATATYPE_PREFIX}MarkupLineDatatype`;

/**
 * OSCAL 1.0.x: markup-line is any string in the JSON Schema and mixed content in the XSD, so an
 * empty title is valid in every format. A line break stays refused: a markup-line is one line.
 */
const MARKUP_LINE_1_0: JsonSchema = { type: 'string', pattern: '^[^\\n]*$' };

export function datatypesOf(version: string, datatypes: Record<string, JsonSchema>): Record<string, JsonSchema> {
  if (!version.startsWith('1.0.')) return datatypes;
  const current = datatypes[MARKUP_LINE] as JsonSchema;
  return { ...datatypes, [MARKUP_LINE]: { ...current, ...MARKUP_LINE_1_0 } };
}
