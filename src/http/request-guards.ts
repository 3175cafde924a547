import type { FastifyInstance } from 'fastify';
import { refuse } from '../errors.js';

const ENCODED_NUL = /%00/;

/**
 * Checks every request before routing. No id, name or filter of ours holds a NUL character, and
 * PostgreSQL text cannot hold one at all (a query with it fails), so such URLs are refused. An
 * HTTP/1.1 request must name its Host (RFC 9112 3.2); Node's own check for it answers without
 * the error object, so it is done here instead.
 */
export function requestGuards(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (ENCODED_NUL.test(request.url)) throw refuse('bad-request', 'the URL may not contain a NUL character (%00)');
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1')
      throw refuse('bad-request', 'an HTTP/1.1 request must have a Host header');
  });
}
