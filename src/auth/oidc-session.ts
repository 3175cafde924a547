import { hkdfSync } from 'node:crypto';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';
import { refuse } from '../errors.js';
import type { Role } from '../store/types.js';
import type { UserIdentity } from './oidc-claims.js';

export const SESSION_COOKIE = 'appSession';

/** What /auth/login must remember until the provider sends the browser back to /auth/callback. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

const ROLES: readonly string[] = ['admin', 'writer', 'reader'] satisfies Role[];

/**
 * The two cookies of sign-in, encrypted and authenticated (JWE, dir + A256GCM): a browser can
 * neither read nor change them. Each has its own key derived from the session secret, so a
 * sign-in cookie can never be passed off as a session.
 */
export class SealedCookies {
  private readonly sessionKey: Uint8Array;
  private readonly pendingKey: Uint8Array;

  constructor(secret: string) {
    this.sessionKey = derive(secret, 'appSession');
    this.pendingKey = derive(secret, 'sign-in under way');
  }

  session(identity: UserIdentity, expiresAt: Date): Promise<string> {
    return seal({ name: identity.name, role: identity.role, groups: identity.groups }, this.sessionKey, expiresAt);
  }

  async openSession(value: string): Promise<UserIdentity> {
    const claims = await open(value, this.sessionKey);
    const { name, role, groups } = claims;
    if (
      typeof name !== 'string' ||
      typeof role !== 'string' ||
      !ROLES.includes(role) ||
      !Array.isArray(groups) ||
      !groups.every((g) => typeof g === 'string')
    ) {
      throw invalidSession();
    }
    return { kind: 'user', name, role: role as Role, groups, via: 'oidc' };
  }

  pending(value: PendingSignIn, expiresAt: Date): Promise<string> {
    return seal({ ...value }, this.pendingKey, expiresAt);
  }

  async openPending(value: string): Promise<PendingSignIn> {
    const { state, nonce, codeVerifier, returnTo } = await open(value, this.pendingKey).catch((): JWTPayload => ({}));
    if (
      typeof state !== 'string' ||
      typeof nonce !== 'string' ||
      typeof codeVerifier !== 'string' ||
      typeof returnTo !== 'string'
    ) {
      throw refuse(
        'sign-in-failed',
        'this sign-in has expired or was not started in this browser; start again at /auth/login',
      );
    }
    return { state, nonce, codeVerifier, returnTo };
  }
}

function derive(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'oscal-depot', purpose, 32));
}

function seal(claims: JWTPayload, key: Uint8Array, expiresAt: Date): Promise<string> {
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .encrypt(key);
}

async function open(value: string, key: Uint8Array): Promise<JWTPayload> {
  try {
    const { payload } = await jwtDecrypt(value, key, {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      requiredClaims: ['exp'],
    });
    return payload;
  } catch {
    throw invalidSession();
  }
}

const invalidSession = () =>
  refuse('unauthenticated', 'the session has expired or is not valid; sign in again at /auth/login');
