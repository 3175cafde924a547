import { readFileSync, writeFileSync } from 'node:fs';
import { OscalError } from '../oscal/errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a file, or standard input for "-", as UTF-8 text; invalid UTF-8 is an input error. */
export function readInput(path: string): string {
  const bytes = path === '-' ? readFileSync(0) : readFileSync(path);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new OscalError('malformed', 'the input is not valid UTF-8 text');
  }
}

export function writeOutput(path: string | undefined, text: string): void {
  if (path === undefined || path === '-') process.stdout.write(text);
  else writeFileSync(path, text);
}

/** An error of the system's (a missing file, a refused connection): its message says it all. */
export function isSystemError(error: unknown): error is Error {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E');
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
