import fastifyCookie, { type CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client';
import { SignIn } from '../auth/oidc.js';
import { SESSION_COOKIE } from '../auth/oidc-session.js';
import type { SignInSettings } from '../auth/oidc-settings.js';
import { refuse } from '../errors.js';
import { describe, empty, TAGS } from './openapi.js';

const PENDING_COOKIE = 'appSignIn';
const CALLBACK = '/auth/callback';
const PENDING_SECONDS = 600;
/** The web interface's home page; where sign-in and sign-out end unless told otherwise. */
const LANDING = '/';
/** Browsers silently drop larger cookies; refusing the sign-in at least says why. */
const MAX_COOKIE_CHARS = 4000;
/** A path on this server. `//host` and `/\host` would send the browser to another site. */
const LOCAL_PATH = '^/(?![/\\\\])[\\x21-\\x7e]*$';

const returnToQuery = {
  type: 'object',
  properties: {
    return_to: {
      type: 'string',
      pattern: LOCAL_PATH,
      description: `path on this server to go to afterwards (default ${LANDING})`,
    },
  },
} as const;

/**
 * Web sign-in through the OpenID Connect provider, and the decoration identify() reads the
 * session cookie and bearer JWTs with. Without settings (local mode) there is neither.
 */
export async function signInRoutes(app: FastifyInstance, settings: SignInSettings | undefined): Promise<void> {
  // The web interface's sign-in cookie needs cookies in local mode too.
  await app.register(fastifyCookie);
  if (!settings) {
    app.decorate('signIn', null);
    return;
  }
  const signIn = new SignIn(settings, (message, error) => app.log.warn({ err: error }, message));
  app.decorate('signIn', signIn);
  // A wrong issuer then shows in the log at start, not first when someone tries to sign in.
  app.addHook('onReady', async () => void signIn.issuer.discover().catch(() => undefined));

  const cookie: CookieSerializeOptions = { httpOnly: true, sameSite: 'lax', secure: signIn.secure };
  const redirectUri = settings.publicUrl + CALLBACK;

  const redirect = { Location: { type: 'string', description: 'where the browser goes next' } };
  const signInOp = { tags: [TAGS.signIn], access: 'public', api: false } as const;
  app.get(
    '/auth/login',
    describe({
      ...signInOp,
      operationId: 'signIn',
      summary: 'Sign in at the OpenID Connect provider (authorization code flow with PKCE)',
      querystring: returnToQuery,
      responses: {
        302: empty(
          "To the provider's authorization endpoint; a short-lived cookie holds the pending sign-in",
          redirect,
        ),
        400: 'return_to is not a path on this server',
        502: 'The provider answered discovery with something unusable',
        503: 'The provider cannot be reached',
      },
    }),
    async (request, reply) => {
      const { return_to: returnTo = LANDING } = request.query as { return_to?: string };
      const pending = { state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier(), returnTo };
      const url = await signIn.issuer.authorizationUrl(redirectUri, pending);
      const sealed = await signIn.cookies.pending(pending, new Date(Date.now() + PENDING_SECONDS * 1000));
      reply.setCookie(PENDING_COOKIE, sealed, { ...cookie, path: CALLBACK, maxAge: PENDING_SECONDS });
      return reply.header('cache-control', 'no-store').redirect(url.href);
    },
  );

  app.get(
    CALLBACK,
    describe({
      ...signInOp,
      operationId: 'signInCallback',
      summary: 'Where the provider sends the browser back; sets the appSession cookie',
      query: {
        type: 'object',
        properties: { code: { type: 'string' }, state: { type: 'string' }, error: { type: 'string' } },
      },
      responses: {
        302: empty('Signed in: the appSession cookie is set, and the browser goes where the sign-in started', redirect),
        401: "The sign-in expired, was not started in this browser, or the provider's answer did not check out",
        502: 'The provider refused this server, or the claims do not fit in a session cookie',
        503: 'The provider cannot be reached',
      },
    }),
    async (request, reply) => {
      const sealed = request.cookies[PENDING_COOKIE];
      reply.clearCookie(PENDING_COOKIE, { ...cookie, path: CALLBACK });
      const pending = await signIn.cookies.openPending(sealed ?? '');
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = new URL(request.url, signIn.origin).search;
      const identity = await signIn.issuer.complete(callbackUrl, pending);
      const session = await signIn.cookies.session(
        identity,
        new Date(Date.now() + settings.sessionLifetimeSeconds * 1000),
      );
      if (session.length > MAX_COOKIE_CHARS) {
        throw refuse(
          'provider-error',
          `the provider's claims for you (${identity.groups.length} groups) do not fit in a session cookie; ask its administrators to send this client fewer groups`,
        );
      }
      reply.setCookie(SESSION_COOKIE, session, { ...cookie, path: '/', maxAge: settings.sessionLifetimeSeconds });
      return reply.header('cache-control', 'no-store').redirect(settings.publicUrl + pending.returnTo);
    },
  );

  app.get(
    '/auth/logout',
    describe({
      ...signInOp,
      operationId: 'signOut',
      summary: 'Sign out: removes the appSession cookie',
      querystring: returnToQuery,
      responses: {
        302: empty('Signed out: the cookie is removed, and the browser goes to return_to', redirect),
        400: 'return_to is not a path on this server',
      },
    }),
    async (request, reply) => {
      const { return_to: returnTo = LANDING } = request.query as { return_to?: string };
      reply.clearCookie(SESSION_COOKIE, { ...cookie, path: '/' });
      return reply.header('cache-control', 'no-store').redirect(settings.publicUrl + returnTo);
    },
  );
}
