import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';

/** The project's web/assets/, from dist/src/http/web/ where this module runs. */
const ASSETS_DIR = new URL('../../../../web/assets/', import.meta.url);

/** Only these names are served, so a request can never name another file. */
const ASSETS: Readonly<Record<string, string>> = {
  'site.css': 'text/css; charset=utf-8',
  'document.css': 'text/css; charset=utf-8',
  'catalog-filter.js': 'text/javascript; charset=utf-8',
  'upload-drop.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

/** The names carry no version, so a browser keeps a file only briefly and then checks it again. */
const CACHE_CONTROL = 'public, max-age=300';

/** GET /assets/<name>: the pages' style sheets and scripts, read once and kept. */
export function assetRoutes(app: FastifyInstance): void {
  const loaded = new Map<string, Buffer>();
  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { schema: { hide: true, params: { type: 'object', properties: { name: { type: 'string', maxLength: 64 } } } } },
    async (request, reply) => {
      const { name } = request.params;
      const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (type === undefined) throw notFound('asset');
      let bytes = loaded.get(name);
      if (!bytes) {
        bytes = await readFile(new URL(name, ASSETS_DIR)).catch(() => undefined);
        if (!bytes) throw notFound('asset');
        loaded.set(name, bytes);
      }
      return reply.type(type).header('cache-control', CACHE_CONTROL).send(bytes);
    },
  );
}
