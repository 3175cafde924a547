import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { CONTENT_MEDIA_TYPES } from '../service/media-types.js';
import type { AppOptions } from './app.js';
import { bodyLimits } from './body-limits.js';
import { clientErrorHandler } from './client-errors.js';
import { cors } from './cors.js';
import { errorHandler, frameworkErrors, sendError } from './errors.js';
import type { FrontHandler } from './fast-read.js';
import { requestGuards } from './request-guards.js';
import { securityHeaders } from './security-headers.js';
import { serverFactory } from './server-factory.js';

/** Whether clients reach the server over HTTPS, here or at a proxy in front (HSTS, secure cookies). */
export const servesHttps = (options: Pick<AppOptions, 'tls' | 'publicUrl'>) =>
  options.tls !== undefined || options.publicUrl.startsWith('https:');

/**
 * The fastify instance with what every request goes through, before any route: limits, guards,
 * headers, error answers. `front` answers a request before fastify does, once it is set.
 */
export function createFastify(options: AppOptions, front: { handle?: FrontHandler }): FastifyInstance {
  const app = Fastify({
    logger: options.logger,
    bodyLimit: options.maxBody,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Request and header timeouts keep slow or stalled clients from holding connections.
    serverFactory: serverFactory(options.timeouts, options.tls, front),
    clientErrorHandler,
    frameworkErrors,
    return503OnClosing: true,
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
  });
  bodyLimits(app, options.maxBody);
  securityHeaders(app, { https: servesHttps(options) });
  cors(app, options.corsOrigins);
  requestGuards(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => {
    return sendError(reply, 'not-found', `no route ${request.method} ${request.url.split('?')[0]}`);
  });
  // Declared up front so every request object has the same shape; set by the API's onRequest hook.
  app.decorateRequest('identity', null as never);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Content arrives as bytes in any of the three formats; the engine reads them, not fastify.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...CONTENT_MEDIA_TYPES], { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
  return app;
}
