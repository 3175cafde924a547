import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import * as oidc from 'openid-client';
import { refuse, ServiceError } from '../errors.js';
import { identityFromClaims, type UserIdentity } from './oidc-claims.js';
import type { PendingSignIn } from './oidc-session.js';
import type { SignInSettings } from './oidc-settings.js';

/** Tolerated difference between this server's clock and the provider's, for exp and nbf. */
export const CLOCK_SKEW_SECONDS = 30;

interface Discovered {
  config: oidc.Configuration;
  jwks: JWTVerifyGetKey;
  issuer: string;
}

/** jose errors that mean the provider's key set could not be had, not that the token is bad. */
const PROVIDER_FAULTS = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

/**
 * The configured OpenID Connect provider: discovered on first need rather than at start, so that the
 * server comes up (and local tokens work) while the provider is down. A failed discovery is not
 * remembered; the next request that needs the provider tries again.
 */
export class OidcIssuer {
  private discovered: Promise<Discovered> | undefined;

  constructor(
    private readonly settings: SignInSettings,
    private readonly warn: (message: string, error: unknown) => void,
  ) {}

  discover(): Promise<Discovered> {
    this.discovered ??= this.load().catch((error: unknown) => {
      this.discovered = undefined;
      this.warn(
        `the sign-in provider ${this.settings.issuer.href} cannot be reached or described itself wrongly; retrying on the next request that needs it`,
        error,
      );
      throw unavailable();
    });
    return this.discovered;
  }

  private async load(): Promise<Discovered> {
    const { issuer, clientId, clientSecret } = this.settings;
    const config = await oidc.discovery(
      issuer,
      clientId,
      clientSecret,
      clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(),
      {
        ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
        timeout: 10,
      },
    );
    const metadata = config.serverMetadata();
    if (!metadata.jwks_uri) throw new Error('the provider publishes no jwks_uri');
    return { config, jwks: createRemoteJWKSet(new URL(metadata.jwks_uri)), issuer: metadata.issuer };
  }

  /** A bearer JWT: signature by the provider's keys, issuer, audience, expiry and not-before. */
  async verify(token: string): Promise<UserIdentity> {
    const { jwks, issuer } = await this.discover();
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer,
        audience: this.settings.audience,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp'],
      });
      return identityFromClaims(payload, this.settings);
    } catch (error) {
      throw error instanceof ServiceError ? error : this.refusal(error);
    }
  }

  private refusal(error: unknown): ServiceError {
    if (error instanceof errors.JWTExpired)
      return refuse('unauthenticated', 'the token has expired; get a new one from the sign-in provider');
    if (error instanceof errors.JWTClaimValidationFailed)
      return refuse('unauthenticated', `the token's "${error.claim}" claim is not accepted by this server`);
    if (error instanceof errors.JOSEError && !PROVIDER_FAULTS.has(error.code)) {
      return refuse('unauthenticated', 'the token is malformed or not signed by the configured sign-in provider');
    }
    this.warn("the sign-in provider's keys could not be fetched", error);
    return unavailable();
  }

  async authorizationUrl(redirectUri: string, pending: PendingSignIn): Promise<URL> {
    const { config } = await this.discover();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Completes the authorization code flow at the URL the provider sent the browser to. Claims come
   * from the ID token and, since many providers put only `sub` there, from the userinfo endpoint.
   */
  async complete(callbackUrl: URL, pending: PendingSignIn): Promise<UserIdentity> {
    const { config } = await this.discover();
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      const userinfo = config.serverMetadata().userinfo_endpoint
        ? await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)
        : {};
      claims = { ...userinfo, ...idToken };
    } catch (error) {
      throw this.signInFailure(error);
    }
    return identityFromClaims(claims, this.settings);
  }

  private signInFailure(error: unknown): ServiceError {
    if (error instanceof oidc.AuthorizationResponseError) {
      return refuse('sign-in-failed', `the provider did not sign you in (${error.error}); start again at /auth/login`);
    }
    if (error instanceof TypeError || (error instanceof oidc.ResponseBodyError && error.error !== 'invalid_grant')) {
      this.warn('the sign-in could not be completed with the provider', error);
      return refuse(
        'provider-error',
        'the sign-in provider could not be reached or refused this server; the server log says why',
      );
    }
    return refuse(
      'sign-in-failed',
      "the provider's answer did not check out (state, nonce, code or ID token); start again at /auth/login",
    );
  }
}

const unavailable = () => refuse('provider-unavailable', 'the sign-in provider cannot be reached; try again shortly');
