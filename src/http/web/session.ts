/**
 * Signing in to the web interface in local mode: the form takes a local API token, and the
 * server keeps it in an HttpOnly cookie, so page script never sees it. Every later request looks
 * the token up again as a bearer token is looked up (identifyWebWithin), so a revoked token
 * signs its browser out at once. Local mode has no session secret to seal the cookie with (that
 * belongs to OpenID Connect sign-in); the cookie carries a credential the person already holds.
 */
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ANONYMOUS } from '../../auth/identity.js';
import type { TokenCache } from '../../auth/token-cache.js';
import { refuse } from '../../errors.js';
import type { AuthFailures } from '../auth-failures.js';
import { isForeignWrite, localTokenIdentity, refuseForeignWrite, WEB_TOKEN_COOKIE } from '../authenticate.js';
import { html, type Html } from './html.js';
import { sendPage, type SignInMode } from './layout.js';

/** A browser keeps the sign-in for a working day; the token's own expiry and revocation still apply. */
const COOKIE_SECONDS = 8 * 60 * 60;
/** Local tokens are short base64url text; anything else is no token of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]{1,512}$/;

/** Secure wherever clients reach the server over HTTPS, here or at a proxy in front. */
export function webCookie(https: boolean): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', secure: https, path: '/' };
}

/** The sign-in page's body: the token form in local mode, a link to the provider otherwise. */
export function signInForm(signIn: SignInMode, problem?: string): Html {
  if (signIn === 'oidc') {
    return html`<h1>Sign in</h1>
      ${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
      <p><a href="/auth/login?return_to=/">Sign in with your organisation's account</a></p>`;
  }
  return html`<h1>Sign in</h1>
    ${problem ? html`<p class="problem" role="alert" id="sign-in-problem">${problem}</p>` : ''}
    <form method="post" action="/sign-in" class="sign-in">
      <label for="token">API token</label>
      <input
        id="token"
        name="token"
        type="password"
        autocomplete="current-password"
        required
        maxlength="512"
        ${problem ? html` aria-describedby="sign-in-problem"` : ''}
      />
      <p class="hint">
        A token made by <code>oscal-depot token create</code>, or the first admin token in the data directory.
      </p>
      <button type="submit">Sign in</button>
    </form>`;
}

interface SessionDeps {
  tokens: TokenCache;
  failures: AuthFailures;
  signIn: SignInMode;
  ownOrigin: string;
  https: boolean;
}

/** GET and POST /sign-in, POST /sign-out. */
export function sessionRoutes(app: FastifyInstance, deps: SessionDeps): void {
  const { tokens, failures, signIn, ownOrigin, https } = deps;
  const sendSignIn = (reply: FastifyReply, problem?: string) =>
    sendPage(
      reply,
      { title: 'Sign in', identity: ANONYMOUS, signIn, body: signInForm(signIn, problem) },
      { status: problem ? 401 : 200, caching: 'no-store' },
    );

  app.get('/sign-in', { schema: { hide: true } }, async (_request, reply) => sendSignIn(reply));

  if (signIn === 'local') {
    app.post<{ Body: Record<string, string> }>('/sign-in', { schema: { hide: true } }, async (request, reply) => {
      // A page of another site must not sign this browser in under someone else's token.
      if (isForeignWrite(request, ownOrigin)) throw refuse('forbidden', "sign in on this site's own sign-in page");
      failures.check(request.ip);
      const token = request.body?.token?.trim() ?? '';
      const identity = TOKEN_SHAPE.test(token) ? await localTokenIdentity(tokens, token) : undefined;
      if (!identity) {
        failures.failed(request.ip);
        return sendSignIn(reply, 'That token is unknown, expired or revoked.');
      }
      reply.setCookie(WEB_TOKEN_COOKIE, token, { ...webCookie(https), maxAge: COOKIE_SECONDS });
      return reply.code(303).header('cache-control', 'no-store').header('location', '/').send();
    });
  }

  app.post('/sign-out', { schema: { hide: true } }, async (request, reply) => {
    refuseForeignWrite(request, ownOrigin);
    reply.clearCookie(WEB_TOKEN_COOKIE, webCookie(https));
    return reply.code(303).header('cache-control', 'no-store').header('location', '/').send();
  });
}

/** The body of a sign-in or sign-out form (application/x-www-form-urlencoded), read within the web scope only. */
export function formBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      if (typeof body !== 'string') return done(refuse('bad-request', 'the form could not be read'), undefined);
      done(null, Object.fromEntries(new URLSearchParams(body)));
    },
  );
}
