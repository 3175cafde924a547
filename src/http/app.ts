import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { SignInSettings } from '../auth/oidc-settings.js';
import type { Level } from '../oscal/constraints/index.js';
import type { RenditionWorkers } from '../service/rendition-workers.js';
import type { Store, Visibility } from '../store/types.js';
import { createAppServices } from './app-services.js';
import { signInRoutes } from './auth-routes.js';
import type { AuthFailureLimit } from './auth-failures.js';
import type { FrontHandler } from './fast-read.js';
import { createFastify } from './fastify-instance.js';
import { registerOpenApi } from './openapi.js';
import { registerFastReads, registerGenericInterface, registerRegistryInterface } from './register-interfaces.js';
import { registerOperations } from './register-operations.js';
import { registerWeb } from './register-web.js';
import type { Timeouts, TlsFiles } from './server-factory.js';

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
  const services = createAppServices(options);
  const front: { handle?: FrontHandler } = {};
  const app = createFastify(options, front);
  await app.register(fastifyCompress, { global: true, threshold: 2048, encodings: ['br', 'gzip'] });
  // Before any route, so that the description sees every one.
  await registerOpenApi(app, { version: VERSION, signIn: options.signIn !== undefined });
  await signInRoutes(app, options.signIn);
  await registerGenericInterface(app, options, services);
  await registerRegistryInterface(app, options, services);
  await registerOperations(app, options, services);
  await registerWeb(app, options, services);
  registerFastReads(app, options, services, front);
  return app;
}
