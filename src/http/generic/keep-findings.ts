import type { FastifyRequest } from 'fastify';
import { refuse } from '../../errors.js';

/** ?keep-findings= of writes, read by the handler (keepFindingsOf), for the description only. */
export const KEEP_FINDINGS_PARAM = {
  type: 'boolean',
  default: false,
  description:
    'true: schema-valid content whose constraint findings reach the reject level is stored anyway, as a draft marked "valid": false with its findings (schema errors are refused still)',
} as const;

/**
 * Whether a write asked to keep its constraint findings: ?keep-findings=true (or false). Any other
 * value is a 400, so that a mistyped value never stores what the writer meant to have checked.
 */
export function keepFindingsOf(request: FastifyRequest, formValue?: string): boolean {
  const query = (request.query as Record<string, unknown> | undefined)?.['keep-findings'];
  const values = [
    ...(query === undefined ? [] : Array.isArray(query) ? query : [query]),
    ...(formValue === undefined ? [] : [formValue]),
  ];
  for (const value of values) {
    if (value !== 'true' && value !== 'false')
      throw refuse('bad-request', `keep-findings is true or false, not ${JSON.stringify(String(value)).slice(0, 60)}`);
  }
  if (new Set(values).size > 1) throw refuse('bad-request', 'keep-findings is given both true and false; give it once');
  return values[0] === 'true';
}
