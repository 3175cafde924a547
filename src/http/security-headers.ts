import type { FastifyInstance } from 'fastify';

/** Sent with every answer: the API serves data, never pages to frame, sniff or refer from. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/** The API documentation at /docs is a page: its own scripts and images, and styles it also sets inline (Swagger UI does). */
const DOCS_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";
const DOCS = /^\/docs(?:[/?]|$)/;

/**
 * The web interface's pages (src/http/register-web.ts): their own script, style and image files
 * only, never inline script or style, forms only to this server, never framed.
 */
export const WEB_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const HSTS = 'max-age=31536000';

/** What every API answer carries; HSTS only where clients reach the server over HTTPS. */
export function apiHeaders(options: { https: boolean }): Readonly<Record<string, string>> {
  return options.https ? { ...SECURITY_HEADERS, 'strict-transport-security': HSTS } : SECURITY_HEADERS;
}

/** Security headers on every response. */
export function securityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const headers = apiHeaders(options);
  app.addHook('onSend', async (request, reply) => {
    // A route that set a policy of its own (an attached file's sandbox) keeps it.
    const own = reply.getHeader('content-security-policy');
    reply.headers(headers);
    if (DOCS.test(request.url)) reply.header('content-security-policy', DOCS_POLICY);
    else if (own !== undefined) reply.header('content-security-policy', own);
  });
}
