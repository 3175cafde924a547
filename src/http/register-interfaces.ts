/**
 * The two interfaces over the one store (D1): the generic interface at /oscal/v1 and the
 * registry at /api/v1 and /api/upload, each a fastify scope that authenticates its requests.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthenticated } from '../errors.js';
import type { AppOptions } from './app.js';
import type { AppServices } from './app-services.js';
import { auditRoutes } from './audit-routes.js';
import { identifyWithin } from './authenticate.js';
import { fastReads, type FrontHandler } from './fast-read.js';
import { servesHttps } from './fastify-instance.js';
import { genericRoutes } from './generic/routes.js';
import { validationRoutes } from './generic/validation-routes.js';
import { genericIndexRoute, registryIndexRoute } from './index-routes.js';
import { lowerCaseIds } from './params.js';
import { registryRoutes, uploadRoute } from './registry/routes.js';
import { apiHeaders } from './security-headers.js';

type Hook = (request: FastifyRequest) => Promise<void>;

function authenticateWith({ failures, tokens }: AppServices): Hook {
  const authenticate: Hook = async (request) => {
    request.identity = await identifyWithin(failures, tokens, request);
    // Every write needs credentials: refuse before a body from nobody is even read.
    if (request.identity.kind === 'anonymous' && request.method !== 'GET' && request.method !== 'HEAD') {
      throw unauthenticated();
    }
  };
  return authenticate;
}

export const workersOf = (options: AppOptions) => (options.workers ? { workers: options.workers } : {});

export async function registerGenericInterface(
  app: FastifyInstance,
  options: AppOptions,
  services: AppServices,
): Promise<void> {
  const { store, publicUrl } = options;
  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticateWith(services));
      api.addHook('preValidation', lowerCaseIds);
      genericIndexRoute(api, publicUrl);
      await genericRoutes(api, {
        store,
        publicUrl,
        maxAttachment: options.maxAttachment,
        ...workersOf(options),
        documents: services.documents,
        content: services.content,
        attachments: services.attachments,
        snapshots: services.snapshots,
        resolution: services.resolution,
        aliases: services.aliases,
        diff: services.diff,
        search: services.search,
        metapath: services.metapath,
      });
      const { validation, constraintSets } = services;
      await validationRoutes(api, { validation, constraintSets, publicUrl });
      await auditRoutes(api, { store, publicUrl });
    },
    { prefix: '/oscal/v1' },
  );
}

export async function registerRegistryInterface(
  app: FastifyInstance,
  options: AppOptions,
  services: AppServices,
): Promise<void> {
  const deps = {
    store: options.store,
    publicUrl: options.publicUrl,
    maxBody: options.maxBody,
    ...workersOf(options),
    documents: services.documents,
    registry: services.registry,
    aliases: services.aliases,
    diff: services.diff,
  };
  const authenticate = authenticateWith(services);
  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticate);
      api.addHook('preValidation', lowerCaseIds);
      registryIndexRoute(api, options.publicUrl);
      await registryRoutes(api, deps);
    },
    { prefix: '/api/v1' },
  );
  await app.register(async (scope) => {
    scope.addHook('onRequest', authenticate);
    await uploadRoute(scope, deps);
  });
}

/**
 * The fast path of the generic interface's reads (CONTRIBUTING.md, "Fast paths"), answering
 * before fastify routes. Behind a trusted proxy the client's address comes from X-Forwarded-For,
 * which only fastify reads, so there every request takes the full path.
 */
export function registerFastReads(
  app: FastifyInstance,
  options: AppOptions,
  services: AppServices,
  front: { handle?: FrontHandler },
): void {
  if (options.trustProxy !== undefined) return;
  const reads = fastReads(
    {
      store: options.store,
      tokens: services.tokens,
      content: services.content,
      failures: services.failures,
      metrics: services.metrics,
      headers: apiHeaders({ https: servesHttps(options) }),
      signIn: options.signIn !== undefined,
    },
    () => app.log,
  );
  front.handle = reads.handle;
  app.addHook('preClose', async () => reads.stop());
}
