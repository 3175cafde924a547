import { readFileSync, writeFileSync } from 'node:fs';
import { OscalError } from '../oscal/errors.js';
import { decodeDocumentBytes, type Format } from '../oscal/formats/index.js';
import { isSystemError } from './failures.js';

/**
 * Reads a file, or standard input for "-", as text: XML in the encoding it names, JSON and YAML
 * as UTF-8 (decodeDocumentBytes); bytes that do not decode are an input error.
 */
export function readInput(path: string, format?: Format): string {
  return decodeDocumentBytes(path === '-' ? readFileSync(0) : readFileSync(path), format);
}

export function writeOutput(path: string | undefined, text: string): void {
  if (path === undefined || path === '-') process.stdout.write(text);
  else writeFileSync(path, text);
}

/** `file:line:col message`, the form editors and CI logs link to. */
export function describeError(file: string, error: unknown): string {
  const name = file === '-' ? '<stdin>' : file;
  if (error instanceof OscalError) {
    const where = error.line !== undefined ? `${name}:${error.line}:${error.column ?? 1}` : name;
    return `${where}: ${error.message}${error.path !== undefined && error.line === undefined ? ` (at ${error.path})` : ''}`;
  }
  if (isSystemError(error)) return `${name}: ${error.message}`;
  throw error;
}
