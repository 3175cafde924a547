import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { SignInSettings } from '../auth/oidc-settings.js';
import { TokenCache } from '../auth/token-cache.js';
import type { Level } from '../oscal/constraints/index.js';
import { unauthenticated } from '../errors.js';
import { CONTENT_MEDIA_TYPES } from '../service/media-types.js';
import type { RenditionWorkers } from '../service/rendition-workers.js';
import { createServices } from '../service/services.js';
import type { Store, Visibility } from '../store/types.js';
import { signInRoutes } from './auth-routes.js';
import { auditRoutes } from './audit-routes.js';
import { AuthFailures, type AuthFailureLimit } from './auth-failures.js';
import { identifyWithin } from './authenticate.js';
import { bodyLimits } from './body-limits.js';
import { clientErrorHandler } from './client-errors.js';
import { cors } from './cors.js';
import { errorHandler, frameworkErrors, sendError } from './errors.js';
import { genericRoutes } from './generic/routes.js';
import { validationRoutes } from './generic/validation-routes.js';
import { fastReads, type FrontHandler } from './fast-read.js';
import { genericIndexRoute, homePage, registryIndexRoute } from './index-routes.js';
import { HttpMetrics, opsRoutes } from './ops.js';
import { describe, json, registerOpenApi, TAGS } from './openapi.js';
import { registryRoutes, uploadRoute } from './registry/routes.js';
import { requestGuards } from './request-guards.js';
import { apiHeaders, securityHeaders } from './security-headers.js';
import { serverFactory, type Timeouts, type TlsFiles } from './server-factory.js';

export interface AppOptions {
  store: Store;
  workers?: RenditionWorkers;
  publicUrl: string;
  maxBody: number;
  maxAttachment: number;
  /** How long a token found in the store is taken as live without asking again. */
  tokenCacheMs: number;
  /** Where profile imports may come from besides this store (D10). */
  imports: { importMap: ReadonlyMap<string, string>; allowHosts: ReadonlySet<string> };
  defaultVisibility: Visibility;
  inlineRenditionLimit: number;
  /** Constraint findings at this level or above refuse a write (--reject-level). */
  rejectLevel: Level;
  logger: FastifyServerOptions['logger'];
  /** OpenID Connect sign-in; absent in local mode (local tokens only). */
  signIn?: SignInSettings;
  timeouts: Timeouts;
  authFailures: AuthFailureLimit;
  /** Origins whose pages may call the API from browsers; empty: CORS stays off. */
  corsOrigins: string[];
  /** Serve HTTPS (TLS 1.3) with this certificate and key. */
  tls?: TlsFiles;
  /** Which proxies' X-Forwarded-For to believe, as fastify's trustProxy takes it. */
  trustProxy?: FastifyServerOptions['trustProxy'];
}

const VERSION = '0.1.0';

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const https = options.tls !== undefined || options.publicUrl.startsWith('https:');
  const tokens = new TokenCache(options.store, options.tokenCacheMs);
  const services = createServices(options.store, {
    publicUrl: options.publicUrl, defaultVisibility: options.defaultVisibility, inlineRenditionLimit: options.inlineRenditionLimit,
    imports: options.imports, maxFetch: options.maxBody, rejectLevel: options.rejectLevel,
  });
  const { documents, content, registry, attachments, snapshots, resolution } = services;
  const failures = new AuthFailures(options.authFailures);
  const metrics = new HttpMetrics();
  const front: { handle?: FrontHandler } = {};
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
  securityHeaders(app, { https });
  cors(app, options.corsOrigins);
  requestGuards(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => sendError(reply, 'not-found', `no route ${request.method} ${request.url.split('?')[0]}`));
  // Declared up front so every request object has the same shape; set by the API's onRequest hook.
  app.decorateRequest('identity', null as never);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Content arrives as bytes in any of the three formats; the engine reads them, not fastify.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...CONTENT_MEDIA_TYPES], { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  await app.register(fastifyCompress, { global: true, threshold: 2048, encodings: ['br', 'gzip'] });
  await registerOpenApi(app, { version: VERSION, signIn: options.signIn !== undefined });
  await signInRoutes(app, options.signIn);

  const workers = options.workers ? { workers: options.workers } : {};
  // Content identifiers are stored lower-case (D2); a UUID in a path means the same in either case.
  const lowerCaseId = async (request: FastifyRequest): Promise<void> => {
    const params = request.params as { id?: string };
    if (typeof params.id === 'string') params.id = params.id.toLowerCase();
  };
  const authenticate = async (request: FastifyRequest): Promise<void> => {
    request.identity = await identifyWithin(failures, tokens, request);
    // Every write needs credentials: refuse before a body from nobody is even read.
    if (request.identity.kind === 'anonymous' && request.method !== 'GET' && request.method !== 'HEAD') throw unauthenticated();
  };
  await app.register(async (api) => {
    api.addHook('onRequest', authenticate);
    api.addHook('preValidation', lowerCaseId);
    genericIndexRoute(api, options.publicUrl);
    await genericRoutes(api, { store: options.store, documents, content, attachments, snapshots, resolution, aliases: services.aliases, publicUrl: options.publicUrl, maxAttachment: options.maxAttachment, ...workers });
    await validationRoutes(api, { validation: services.validation, constraintSets: services.constraintSets, publicUrl: options.publicUrl });
    await auditRoutes(api, { store: options.store, publicUrl: options.publicUrl });
  }, { prefix: '/oscal/v1' });
  const registryDeps = { store: options.store, documents, registry, aliases: services.aliases, publicUrl: options.publicUrl, maxBody: options.maxBody, ...workers };
  await app.register(async (api) => {
    api.addHook('onRequest', authenticate);
    api.addHook('preValidation', lowerCaseId);
    registryIndexRoute(api, options.publicUrl);
    await registryRoutes(api, registryDeps);
  }, { prefix: '/api/v1' });
  await app.register(async (scope) => {
    scope.addHook('onRequest', authenticate);
    await uploadRoute(scope, registryDeps);
  });
  await opsRoutes(app, options.store, metrics);
  app.get('/openapi.json', describe({
    operationId: 'getOpenApi', summary: 'This description (OpenAPI 3.0)', tags: [TAGS.operations], access: 'public', api: false,
    responses: { 200: json('The OpenAPI description of both interfaces', { type: 'object', required: ['openapi', 'info', 'paths'] }) },
  }), async () => app.swagger());
  homePage(app, { publicUrl: options.publicUrl, signIn: options.signIn !== undefined });
  // Behind a trusted proxy the client's address comes from X-Forwarded-For, which only fastify reads.
  if (options.trustProxy === undefined) {
    const reads = fastReads({ store: options.store, tokens, content, failures, metrics, headers: apiHeaders({ https }), signIn: options.signIn !== undefined }, () => app.log);
    front.handle = reads.handle;
    app.addHook('preClose', async () => reads.stop());
  }
  return app;
}
