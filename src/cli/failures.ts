import { OscalError } from '../oscal/errors.js';

/** A failure the person running the command can fix: it is reported as one line, without a stack. */
export class UsageError extends Error {}

/** An error of the system's (a missing file, a refused connection): its message says it all. */
export function isSystemError(error: unknown): error is Error {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E');
}

/**
 * What a command that failed prints. Usage errors, the system's (a missing file, a refused
 * connection) and the engine's are one line; anything else is a bug, whose stack is worth having.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof UsageError || error instanceof OscalError || isSystemError(error)) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
