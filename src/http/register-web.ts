/**
 * The web interface (issue 20): pages at the site root over the same services and access rules as
 * the two APIs. Every page is under WEB_POLICY (no inline script or style); errors are pages too.
 */
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from './app.js';
import type { AppServices } from './app-services.js';
import { identifyWebWithin } from './authenticate.js';
import { servesHttps } from './fastify-instance.js';
import { lowerCaseIds } from './params.js';
import { WEB_POLICY } from './security-headers.js';
import { assetRoutes } from './web/assets.js';
import { browseRoutes } from './web/browse-page.js';
import { documentRoutes } from './web/document-page.js';
import { versionRoutes } from './web/versions-page.js';
import { webErrorHandler } from './web/error-page.js';
import type { SignInMode } from './web/layout.js';
import { formBodies, sessionRoutes } from './web/session.js';

type Strategy = Parameters<FastifyInstance['addConstraintStrategy']>[0];
type RouteStore = NonNullable<ReturnType<ReturnType<Strategy['storage']>['get']>>;

/** Whether a request would rather have HTML than anything else: what a browser's navigation sends. */
function prefersHtml(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

/**
 * GET / is both the API's plain page (no Accept, or JSON clients) and the web home (browsers): a
 * route constraint on the Accept header keeps both on one path without either knowing the other.
 */
function pageConstraint(app: FastifyInstance): void {
  app.addConstraintStrategy({
    name: 'page',
    storage() {
      const handlers = new Map<unknown, RouteStore>();
      return {
        get: (value: unknown) => handlers.get(value) ?? null,
        set: (value: unknown, handler: RouteStore) => void handlers.set(value, handler),
      };
    },
    deriveConstraint: (request) => (prefersHtml(request.headers.accept) ? 'html' : 'other'),
    mustMatchWhenDerived: false,
  });
}

export async function registerWeb(app: FastifyInstance, options: AppOptions, services: AppServices): Promise<void> {
  const signIn: SignInMode = options.signIn ? 'oidc' : 'local';
  const https = servesHttps(options);
  const ownOrigin = new URL(options.publicUrl).origin;
  pageConstraint(app);
  await app.register(async (web) => {
    web.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', WEB_POLICY);
      // Under no-referrer, browsers send "Origin: null" with a form's POST, which the cross-site check must refuse.
      reply.header('referrer-policy', 'same-origin');
    });
    web.setErrorHandler(webErrorHandler(signIn, https));
    formBodies(web);
    assetRoutes(web);
    sessionRoutes(web, { tokens: services.tokens, failures: services.failures, signIn, ownOrigin, https });
    await web.register(async (pages) => {
      pages.addHook('onRequest', async (request) => {
        request.identity = await identifyWebWithin(services.failures, services.tokens, request, ownOrigin);
      });
      pages.addHook('preValidation', lowerCaseIds);
      browseRoutes(pages, { documents: services.documents, signIn });
      documentRoutes(pages, {
        store: options.store,
        documents: services.documents,
        content: services.content,
        signIn,
      });
      versionRoutes(pages, { store: options.store, registry: services.registry, signIn });
    });
  });
}
