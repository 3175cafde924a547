import type { FastifyInstance } from 'fastify';
import { MODELS, PLURALS } from '../oscal/model/models.js';
import { describe, json, ref, TAGS } from './openapi.js';

/** Where a person or a program starting from nothing goes next: the documentation and the other interface. */
function links(publicUrl: string, self: string, other: Record<string, string>): Record<string, string> {
  return { self: `${publicUrl}${self}`, docs: `${publicUrl}/docs`, openapi: `${publicUrl}/openapi.json`, ...other };
}

/** GET /oscal/v1: the models of the generic interface, each with the URL of its list. */
export function genericIndexRoute(api: FastifyInstance, publicUrl: string): void {
  const base = `${publicUrl}/oscal/v1`;
  const body = {
    interface: 'generic OSCAL REST interface',
    models: MODELS.map((model) => ({ model, list: `${base}/${model}` })),
    links: links(publicUrl, '/oscal/v1', { registry: `${publicUrl}/api/v1`, validate: `${base}/validate` }),
  };
  api.get(
    '/',
    describe({
      operationId: 'getGenericIndex',
      summary: 'The models of this interface, with their list URLs, and where the documentation is',
      tags: [TAGS.documents],
      access: 'public',
      responses: { 200: json('The index of the generic interface', ref('GenericIndex')) },
    }),
    async () => body,
  );
}

/** GET /api/v1: the registry's plural segments, the models they name and their list URLs. */
export function registryIndexRoute(api: FastifyInstance, publicUrl: string): void {
  const base = `${publicUrl}/api/v1`;
  const body = {
    interface: 'registry API',
    models: Object.entries(PLURALS).map(([segment, model]) => ({ model, segment, list: `${base}/${segment}` })),
    links: links(publicUrl, '/api/v1', { upload: `${publicUrl}/api/upload`, generic: `${publicUrl}/oscal/v1` }),
  };
  api.get(
    '/',
    describe({
      operationId: 'getRegistryIndex',
      summary: 'The models of the registry, with their list URLs, and where the documentation is',
      tags: [TAGS.registry],
      access: 'public',
      responses: { 200: json('The index of the registry', ref('RegistryIndex')) },
    }),
    async () => body,
  );
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * GET /: a page for whoever opens the server in a browser, which otherwise met a JSON 404. Plain
 * links, no script and no style, so the API's own policy (default-src 'none') holds for it too.
 */
export function homePage(app: FastifyInstance, options: { publicUrl: string; signIn: boolean }): void {
  const url = (path: string) => escapeHtml(`${options.publicUrl}${path}`);
  const items = [
    `<li><a href="${url('/docs')}">API documentation</a> (both interfaces, with a console to try them)</li>`,
    `<li><a href="${url('/openapi.json')}">OpenAPI description</a></li>`,
    `<li><a href="${url('/oscal/v1')}">Generic OSCAL REST interface</a>: <code>/oscal/v1</code></li>`,
    `<li><a href="${url('/api/v1')}">Registry API</a>: <code>/api/v1</code></li>`,
    ...(options.signIn ? [`<li><a href="${url('/auth/login')}">Sign in</a></li>`] : []),
  ];
  const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>OSCAL Depot</title></head>
<body>
<h1>OSCAL Depot</h1>
<p>An OSCAL document server: catalogs, profiles, system security plans and the other OSCAL models, in JSON, XML and YAML.</p>
<ul>
${items.join('\n')}
</ul>
</body>
</html>
`;
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    // Browsers asking for HTML get the web interface's home at this same path (src/http/register-web.ts).
    reply.type('text/html; charset=utf-8').header('vary', 'Accept').send(page),
  );
}
