/**
 * The web interface (issue 20): pages at the site root over the same services and access rules as
 * the two APIs. Every page is under WEB_POLICY (no inline script or style); errors are pages too.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from './app.js';
import type { AppServices } from './app-services.js';
import { identifyWebWithin } from './authenticate.js';
import { servesHttps } from './fastify-instance.js';
import { lowerCaseIds } from './params.js';
import { workersOf } from './register-interfaces.js';
import { MULTIPART_LIMITS } from './request-body.js';
import { WEB_POLICY } from './security-headers.js';
import { accessRoutes } from './web/access-page.js';
import { attachmentRoutes } from './web/attachments-page.js';
import { diffRoutes } from './web/diff-page.js';
import { resolvedRoutes } from './web/resolved-page.js';
import { searchPageRoutes } from './web/search-page.js';
import { snapshotRoutes } from './web/snapshots-page.js';
import { uploadRoutes } from './web/upload-page.js';
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
      // A download is never a page of this site: should a browser show it, it runs nothing (sandbox).
      const download = String(reply.getHeader('content-disposition') ?? '').startsWith('attachment');
      reply.header('content-security-policy', download ? 'sandbox' : WEB_POLICY);
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
      const { documents } = services;
      documentRoutes(pages, {
        store: options.store,
        documents,
        content: services.content,
        signIn,
      });
      versionRoutes(pages, { store: options.store, documents, registry: services.registry, signIn });
      resolvedRoutes(pages, { documents, resolution: services.resolution, signIn });
      snapshotRoutes(pages, { documents, snapshots: services.snapshots, signIn });
      accessRoutes(pages, { documents, signIn });
      searchPageRoutes(pages, { search: services.search, signIn });
      diffRoutes(pages, { documents, snapshots: services.snapshots, diff: services.diff, signIn });
      // One file per form; the limit of each kind of upload is applied as the file is read.
      await pages.register(multipart, {
        limits: { fileSize: Math.max(options.maxBody, options.maxAttachment), ...MULTIPART_LIMITS },
      });
      uploadRoutes(pages, { documents, signIn, maxBody: options.maxBody, ...workersOf(options) });
      attachmentRoutes(pages, {
        documents,
        attachments: services.attachments,
        signIn,
        maxAttachment: options.maxAttachment,
      });
    });
  });
}
