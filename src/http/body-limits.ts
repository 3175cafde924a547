import type { FastifyInstance } from 'fastify';

/** Enough for any settings body (a thousand grants); no document fits. */
export const SMALL_BODY = 256 * 1024;
const TAKES_CONTENT = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Each route reads at most what it needs: writes of content up to the configured maximum, access
 * settings and body-less methods (a DELETE's body is never read) only SMALL_BODY. A route that
 * names its own bodyLimit keeps it. Registered before any route, so it sees all of them.
 */
export function bodyLimits(app: FastifyInstance, maxBody: number): void {
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const content = methods.some((m) => TAKES_CONTENT.has(m)) && !route.url.endsWith('/access');
    route.bodyLimit = content ? maxBody : SMALL_BODY;
  });
}
