import type { FastifyRequest } from 'fastify';
import { ANONYMOUS, type Identity } from '../auth/identity.js';
import { tokenHash } from '../auth/tokens.js';
import { ServiceError } from '../service/errors.js';
import type { Store } from '../store/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity;
  }
}

/** The scheme name is case-insensitive (RFC 9110). */
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i;

/**
 * Who sent the request. No Authorization header: anonymous. A header that is malformed, or a
 * token that is unknown, expired or revoked: 401, never a silent fall back to anonymous.
 */
export async function identify(store: Store, request: FastifyRequest): Promise<Identity> {
  const header = request.headers.authorization;
  if (header === undefined) return ANONYMOUS;
  const match = BEARER.exec(header);
  if (!match) throw new ServiceError(401, 'unauthenticated', 'the Authorization header must be "Bearer <token>"');
  const token = await store.findToken(tokenHash(match[1]!), new Date().toISOString());
  if (!token) throw new ServiceError(401, 'unauthenticated', 'the token is unknown, expired or revoked');
  return { kind: 'user', name: token.userName, role: token.role, groups: [], via: 'token' };
}
