import type { FastifyInstance } from 'fastify';
import type { AppOptions } from './app.js';
import type { AppServices } from './app-services.js';
import { homePage } from './index-routes.js';
import { describe, json, TAGS } from './openapi.js';
import { opsRoutes } from './ops.js';

const OPENAPI_DOCUMENT = { type: 'object', required: ['openapi', 'info', 'paths'] };

/** Routes for operators and the curious rather than for documents: health, metrics, the description, `/`. */
export async function registerOperations(
  app: FastifyInstance,
  options: AppOptions,
  services: AppServices,
): Promise<void> {
  await opsRoutes(app, options.store, services.metrics, {
    constraintSets: services.constraintSets.counts,
    profileResolutions: services.resolution.resolutions.counts,
  });
  app.get(
    '/openapi.json',
    describe({
      operationId: 'getOpenApi',
      summary: 'This description (OpenAPI 3.0)',
      tags: [TAGS.operations],
      access: 'public',
      api: false,
      responses: { 200: json('The OpenAPI description of both interfaces', OPENAPI_DOCUMENT) },
    }),
    async () => app.swagger(),
  );
  homePage(app, { publicUrl: options.publicUrl, signIn: options.signIn !== undefined });
}
