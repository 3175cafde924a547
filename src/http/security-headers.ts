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
const DOCS_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";
const DOCS = /^\/docs(?:[/?]|$)/;
const HSTS = 'max-age=31536000';

/** Security headers on every response; HSTS only where clients reach the server over HTTPS. */
export function securityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  app.addHook('onSend', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    if (DOCS.test(request.url)) reply.header('content-security-policy', DOCS_POLICY);
    if (options.https) reply.header('strict-transport-security', HSTS);
  });
}
