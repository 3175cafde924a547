import { createRequire } from 'node:module';
import { generatedFile } from '../model/versions.js';

/** An ajv standalone validation function, as the build step compiled it. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

const require = createRequire(import.meta.url);
const loaded = new Map<string, Record<string, CompiledValidator>>();

/** The compiled validators of one release, one per model; loaded on first use. */
export function validatorsFor(version: string): Record<string, CompiledValidator> {
  let validators = loaded.get(version);
  if (!validators) {
    validators = require(generatedFile(`validators/v${version}.cjs`).pathname) as Record<string, CompiledValidator>;
    loaded.set(version, validators);
  }
  return validators;
}
