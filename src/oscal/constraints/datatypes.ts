import { createRequire } from 'node:module';
import type { DataType } from '../../metaschema/ir.js';
import { scalarFromText } from '../formats/scalars.js';
import { generatedFile } from '../model/versions.js';
import type { CompiledValidator } from '../validate/compiled.js';

const require = createRequire(import.meta.url);
let validators: Record<DataType, CompiledValidator> | undefined;

/**
 * Whether a value's text is valid for a Metaschema datatype, by the same datatype schema the
 * documents are validated with: the text is first read as the datatype's JSON value (a number,
 * a boolean), as an XML reader would.
 */
export function datatypeAccepts(type: DataType, text: string): boolean {
  validators ??= require(generatedFile('validators/datatypes.cjs').pathname) as Record<DataType, CompiledValidator>;
  const value = scalarFromText(text, type);
  return value !== undefined && validators[type](value);
}
