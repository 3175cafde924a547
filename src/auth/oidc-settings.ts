import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expiryFrom } from './tokens.js';

/** The `serve` options of sign-in, as commander hands them over. */
export interface SignInOptions {
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcClientSecret?: string;
  oidcAudience?: string;
  oidcUsernameClaim: string;
  oidcRolesClaim: string;
  oidcGroupsClaim: string;
  oidcScopes: string;
  sessionSecret?: string;
  sessionLifetime: string;
}

export interface SignInSettings {
  issuer: URL;
  clientId: string;
  clientSecret?: string;
  audience: string;
  usernameClaim: string;
  rolesClaim: string;
  groupsClaim: string;
  scopes: string;
  publicUrl: string;
  sessionSecret: string;
  sessionLifetimeSeconds: number;
}

const MIN_SECRET = 32;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** What the operator should hear about at start: a session secret just created, or one that cannot be shared. */
export interface SignInNotices {
  info?: string;
  warning?: string;
}

/** Sign-in settings from the options, or undefined when no issuer is configured (local mode). */
export function signInSettings(
  options: SignInOptions,
  context: { publicUrl: string; dataDir: string; sharedStore: boolean },
): ({ settings: SignInSettings } & SignInNotices) | undefined {
  if (!options.oidcIssuer) {
    if (options.oidcClientId) throw new Error('--oidc-client-id needs --oidc-issuer');
    return undefined;
  }
  if (!options.oidcClientId)
    throw new Error('--oidc-issuer needs --oidc-client-id (the client registered at the provider for this server)');
  const issuer = new URL(options.oidcIssuer);
  // Keys and tokens fetched over plain HTTP could be forged on the way; only the local machine is trusted.
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname))) {
    throw new Error(`--oidc-issuer must be an https URL (plain http only on the loopback address), not ${issuer.href}`);
  }
  const secret: { value: string; file?: string; created?: boolean } =
    options.sessionSecret !== undefined ? { value: options.sessionSecret } : storedSessionSecret(context.dataDir);
  if (secret.value.length < MIN_SECRET)
    throw new Error(`--session-secret must be at least ${MIN_SECRET} characters of random text`);
  const settings: SignInSettings = {
    issuer,
    clientId: options.oidcClientId,
    ...(options.oidcClientSecret ? { clientSecret: options.oidcClientSecret } : {}),
    audience: options.oidcAudience ?? options.oidcClientId,
    usernameClaim: options.oidcUsernameClaim,
    rolesClaim: options.oidcRolesClaim,
    groupsClaim: options.oidcGroupsClaim,
    scopes: options.oidcScopes,
    publicUrl: context.publicUrl,
    sessionSecret: secret.value,
    sessionLifetimeSeconds: Math.floor(expiryFrom(options.sessionLifetime, 0).getTime() / 1000),
  };
  return {
    settings,
    ...(secret.created ? { info: `created a session secret in ${secret.file} (readable only by this user)` } : {}),
    ...(secret.file && context.sharedStore
      ? {
          warning: `sessions are sealed with the secret in ${secret.file}; servers sharing one database must all be given the same --session-secret, or each refuses the others' sessions`,
        }
      : {}),
  };
}

/** The secret kept in the data directory, created on first use so that restarts keep sessions. */
function storedSessionSecret(dataDir: string): { value: string; file: string; created: boolean } {
  const file = join(dataDir, 'session-secret');
  let created = false;
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    // Written aside and linked into place: two processes starting at once never read a half-written file.
    const draft = `${file}.${process.pid}`;
    writeFileSync(draft, randomBytes(32).toString('base64url') + '\n', { mode: 0o600 });
    try {
      linkSync(draft, file);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return { value: readFileSync(file, 'utf8').trim(), file, created };
}
