import type { FastifyInstance } from 'fastify';

const METHODS = 'GET, HEAD, POST, PUT, DELETE';
const REQUEST_HEADERS = 'Authorization, Content-Type, Accept, If-None-Match, Content-Disposition, X-Request-Id';
/** What scripts of an allowed origin may read besides the CORS-safelisted headers. */
const EXPOSED_HEADERS = 'Location, Link, ETag, Retry-After, X-Request-Id';
const PREFLIGHT_MAX_AGE = '600';

/**
 * Cross-origin calls from browsers: off unless origins are configured (`*` allows any). Bearer
 * tokens travel in a header a script sets, so credentials mode (cookies) is never allowed: a
 * session cookie stays good for this server's own pages only.
 */
export function cors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  const allowed = new Set(origins.map((o) => o.toLowerCase()));
  app.addHook('onRequest', async (request, reply) => {
    if (!any) reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !(any || allowed.has(origin.toLowerCase()))) return;
    reply.header('access-control-allow-origin', any ? '*' : origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      return reply
        .code(204)
        .headers({
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': REQUEST_HEADERS,
          'access-control-max-age': PREFLIGHT_MAX_AGE,
        })
        .send();
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  });
}

/** `https://app.example.com,http://localhost:3000` or `*`; each entry must be an origin alone. */
export function parseCorsOrigins(text: string): string[] {
  return text
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')
    .map((o) => {
      if (o === '*') return o;
      let origin: string | undefined;
      try {
        origin = new URL(o).origin;
      } catch {
        // reported below
      }
      if (origin === undefined || origin === 'null' || origin !== o.replace(/\/$/, '').toLowerCase())
        throw new Error(`"${o}" is not an origin such as https://app.example.com (scheme, host and port only)`);
      return origin;
    });
}
