import type { FastifyRequest } from 'fastify';
import { ANONYMOUS, type Identity } from '../auth/identity.js';
import type { SignIn } from '../auth/oidc.js';
import type { TokenCache } from '../auth/token-cache.js';
import { SESSION_COOKIE } from '../auth/oidc-session.js';
import { tokenHash } from '../auth/tokens.js';
import { refuse, ServiceError } from '../errors.js';
import type { AuthFailures } from './auth-failures.js';

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity;
  }
  interface FastifyInstance {
    /** Sign-in through the OpenID Connect provider; null in local mode. */
    signIn: SignIn | null;
  }
}

/** The scheme name is case-insensitive (RFC 9110). */
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i;
/** Local tokens hold no dots; a JWT is three base64url parts. */
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who sent the request. No credentials: anonymous. A malformed Authorization header, or a token or
 * session cookie that is unknown, expired, revoked or tampered with: 401, never a silent fall back
 * to anonymous. Sign-in comes from the server's decoration, so every interface's hook makes the
 * same call and accepts the same credentials.
 */
export async function identify(tokens: TokenCache, request: FastifyRequest): Promise<Identity> {
  const { signIn } = request.server;
  const header = request.headers.authorization;
  if (header === undefined) return signIn ? fromSession(signIn, request) : ANONYMOUS;
  const presented = bearerToken(header);
  if (presented === undefined) throw refuse('unauthenticated', 'the Authorization header must be "Bearer <token>"');
  if (signIn && isJwt(presented)) return signIn.issuer.verify(presented);
  const identity = await localTokenIdentity(tokens, presented);
  if (!identity) throw refuse('unauthenticated', 'the token is unknown, expired or revoked');
  return identity;
}

/** The token of a well-formed Authorization header. */
export function bearerToken(header: string): string | undefined {
  return BEARER.exec(header)?.[1];
}

export function isJwt(token: string): boolean {
  return JWT.test(token);
}

/** Whose local API token this is; undefined when it is unknown, expired or revoked. */
export async function localTokenIdentity(tokens: TokenCache, presented: string): Promise<Identity | undefined> {
  const token = await tokens.find(tokenHash(presented));
  return token && { kind: 'user', name: token.userName, role: token.role, groups: [], via: 'token' };
}

async function fromSession(signIn: SignIn, request: FastifyRequest): Promise<Identity> {
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie === undefined) return ANONYMOUS;
  const identity = await signIn.cookies.openSession(cookie);
  refuseForeignWrite(request, signIn.origin);
  return identity;
}

/**
 * Browsers send cookies with requests that pages of other sites make; a write that a cookie
 * authorizes must come from this server's own origin.
 */
export function refuseForeignWrite(request: FastifyRequest, ownOrigin: string): void {
  if (isForeignWrite(request, ownOrigin)) {
    throw refuse(
      'forbidden',
      `a session cookie does not authorize writes from pages of another site (Origin ${request.headers.origin}); send a bearer token instead`,
    );
  }
}

/** A write that a page of another site sent (its Origin is another, or "null" from an opaque origin). */
export function isForeignWrite(request: FastifyRequest, ownOrigin: string): boolean {
  const origin = request.headers.origin;
  return !SAFE_METHODS.has(request.method) && origin !== undefined && origin !== ownOrigin;
}

/** The web interface's cookie in local mode: the local API token that was signed in with (see src/http/web/session.ts). */
export const WEB_TOKEN_COOKIE = 'depotToken';

/**
 * Who a request of the web interface is from: the API's credentials as identifyWithin takes them,
 * else the token of the web sign-in cookie, looked up as a bearer token is (so revocation and
 * expiry apply at once) and under the same failure limit and cross-site write rule.
 */
export async function identifyWebWithin(
  failures: AuthFailures,
  tokens: TokenCache,
  request: FastifyRequest,
  ownOrigin: string,
): Promise<Identity> {
  const token = request.cookies[WEB_TOKEN_COOKIE];
  const apiCredentials =
    request.headers.authorization !== undefined ||
    (request.server.signIn !== null && request.cookies[SESSION_COOKIE] !== undefined);
  if (token === undefined || apiCredentials) return identifyWithin(failures, tokens, request);
  failures.check(request.ip);
  refuseForeignWrite(request, ownOrigin);
  const identity = await localTokenIdentity(tokens, token);
  if (identity) return identity;
  failures.failed(request.ip);
  throw refuse('unauthenticated', 'the token you signed in with is unknown, expired or revoked; sign in again');
}

/**
 * identify() behind the failed-authentication limit: an address over it is refused (429) before
 * its credentials are looked at, and each refused credential counts against it.
 */
export async function identifyWithin(
  failures: AuthFailures,
  tokens: TokenCache,
  request: FastifyRequest,
): Promise<Identity> {
  const presented =
    request.headers.authorization !== undefined ||
    (request.server.signIn !== null && request.cookies[SESSION_COOKIE] !== undefined);
  if (!presented) return ANONYMOUS;
  failures.check(request.ip);
  try {
    return await identify(tokens, request);
  } catch (e) {
    if (e instanceof ServiceError && e.status === 401 && failures.failed(request.ip)) {
      request.log.warn(
        `authentication failures from ${request.ip} reached the limit; its credentials are refused until the window ends`,
      );
    }
    throw e;
  }
}
