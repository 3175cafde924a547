import { TokenCache } from '../auth/token-cache.js';
import { createServices, type Services } from '../service/services.js';
import type { AppOptions } from './app.js';
import { AuthFailures } from './auth-failures.js';
import { HttpMetrics } from './ops.js';

/** What the routes of every interface share: the use cases, and the state of the HTTP layer over them. */
export interface AppServices extends Services {
  tokens: TokenCache;
  failures: AuthFailures;
  metrics: HttpMetrics;
}

export function createAppServices(options: AppOptions): AppServices {
  const settings = {
    publicUrl: options.publicUrl,
    defaultVisibility: options.defaultVisibility,
    inlineRenditionLimit: options.inlineRenditionLimit,
    imports: options.imports,
    maxFetch: options.maxBody,
    rejectLevel: options.rejectLevel,
  };
  return {
    ...createServices(options.store, settings),
    tokens: new TokenCache(options.store, options.tokenCacheMs),
    failures: new AuthFailures(options.authFailures),
    metrics: new HttpMetrics(),
  };
}
