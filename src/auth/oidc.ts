import { OidcIssuer } from './oidc-issuer.js';
import { SealedCookies } from './oidc-session.js';
import type { SignInSettings } from './oidc-settings.js';

/** Everything sign-in through an OpenID Connect provider needs at request time. */
export class SignIn {
  readonly issuer: OidcIssuer;
  readonly cookies: SealedCookies;
  /** The origin this server's own pages have: writes carrying the session cookie must come from it. */
  readonly origin: string;
  readonly secure: boolean;

  constructor(
    readonly settings: SignInSettings,
    warn: (message: string, error: unknown) => void,
  ) {
    this.issuer = new OidcIssuer(settings, warn);
    this.cookies = new SealedCookies(settings.sessionSecret);
    const url = new URL(settings.publicUrl);
    this.origin = url.origin;
    this.secure = url.protocol === 'https:';
  }
}
