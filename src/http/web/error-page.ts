import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ANONYMOUS } from '../../auth/identity.js';
import { ServiceError } from '../../errors.js';
import { WEB_TOKEN_COOKIE } from '../authenticate.js';
import { html } from './html.js';
import { sendPage, type SignInMode } from './layout.js';
import { signInForm, webCookie } from './session.js';

/** What a person is told for a status; the API's message is kept only where it names nothing they may not see. */
const HEADINGS: Record<number, string> = {
  400: 'That request is not one this site understands',
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Not found',
  406: 'This format cannot be given',
  409: 'The document changed while it was read',
  429: 'Too many failed sign-ins',
};

/**
 * The web interface's errors as pages with the API's status (D3). A 404 says nothing of what was
 * asked for, so that a document one may not read cannot be told from one that is absent.
 */
export function webErrorHandler(signIn: SignInMode, https: boolean) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    let status = error instanceof ServiceError ? error.status : (error.statusCode ?? 500);
    if (error.validation && error.validationContext === 'params') status = 404;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof ServiceError && error.headers) reply.headers(error.headers);
    const identity = request.identity ?? ANONYMOUS;
    const title = HEADINGS[status] ?? (status >= 500 ? 'Something went wrong on the server' : 'Request refused');
    let body = html`<h1>${title}</h1>`;
    if (status === 401) {
      // A stale sign-in cookie is dropped, so the next page is simply signed out.
      reply.clearCookie(WEB_TOKEN_COOKIE, webCookie(https));
      body = signInForm(signIn, error.message);
    } else if (status === 404) {
      body = html`${body}
        <p>There is nothing here, or nothing you may read. <a href="/">Home</a></p>`;
    } else if (status >= 500) {
      body = html`${body}
        <p>The request id is <code>${request.id}</code>.</p>`;
    } else {
      body = html`${body}
        <p>${error.message}</p>`;
    }
    const shown = status === 401 ? ANONYMOUS : identity;
    return sendPage(reply, { title, identity: shown, signIn, body }, { status, caching: 'no-store' });
  };
}
