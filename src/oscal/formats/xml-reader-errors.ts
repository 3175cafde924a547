import type { SaxesParser } from 'saxes';
import { OscalError, type OscalErrorCode } from '../errors.js';

/** Every error of the XML reader carries the line and column it is about. */
export function failAt(code: OscalErrorCode, message: string, line: number, column: number): never {
  throw new OscalError(code, message, { line, column });
}

/** saxes' own messages start with "line:column: "; ours carry the position apart. */
const SAXES_POSITION = /^(?:[^:\s]*:)?\d+:\d+: /;

/** What saxes threw (or anything else a handler threw), as malformed XML where the parser stopped. */
export function notWellFormed(parser: SaxesParser, e: unknown): OscalError {
  const message = e instanceof Error ? e.message.replace(SAXES_POSITION, '') : String(e);
  return new OscalError('malformed', `not well-formed XML: ${message}`, { line: parser.line, column: parser.column });
}
