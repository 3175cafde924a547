import type { Identity } from '../../src/auth/identity.js';
import type { ServiceSettings } from '../../src/service/services.js';

/** Settings for services built in a test without a server: public documents, no imports from the network. */
export const SERVICE_SETTINGS: ServiceSettings = {
  publicUrl: 'http://depot.test',
  defaultVisibility: 'public',
  inlineRenditionLimit: 1 << 20,
  imports: { importMap: new Map(), allowHosts: new Set() },
  maxFetch: 1 << 20,
  rejectLevel: 'ERROR',
};

export const SERVICE_ADMIN: Identity = { kind: 'user', name: 'admin', role: 'admin', groups: [], via: 'token' };
