import type { FastifyReply } from 'fastify';
import type { Identity } from '../../auth/identity.js';
import { MODELS, type ModelName } from '../../oscal/model/models.js';
import { html, type Html } from './html.js';

/** How a person signs in and out here: the token form of local mode, or the OpenID Connect provider. */
export type SignInMode = 'local' | 'oidc';

export interface PageInput {
  title: string;
  identity: Identity;
  signIn: SignInMode;
  body: Html;
  /** File names under web/assets/ the page needs besides site.css. */
  scripts?: readonly string[];
  styles?: readonly string[];
}

/** Headings in the navigation; the model names themselves are what OSCAL calls them. */
export const MODEL_LABELS: Readonly<Record<ModelName, string>> = {
  catalog: 'Catalogs',
  profile: 'Profiles',
  'component-definition': 'Component definitions',
  'system-security-plan': 'System security plans',
  'assessment-plan': 'Assessment plans',
  'assessment-results': 'Assessment results',
  'plan-of-action-and-milestones': 'Plans of action and milestones',
  'mapping-collection': 'Mapping collections',
};

function account(identity: Identity, signIn: SignInMode): Html {
  if (identity.kind === 'anonymous') {
    const href = signIn === 'oidc' ? '/auth/login?return_to=/' : '/sign-in';
    return html`<a href="${href}">Sign in</a>`;
  }
  // OpenID Connect sessions end at /auth/logout (a GET, as the provider flow has it); token sessions by a POST here.
  const form =
    signIn === 'oidc' && identity.via === 'oidc'
      ? html`<form method="get" action="/auth/logout">
          <input type="hidden" name="return_to" value="/" /><button type="submit">Sign out</button>
        </form>`
      : html`<form method="post" action="/sign-out"><button type="submit">Sign out</button></form>`;
  return html`<span class="identity">Signed in as <strong>${identity.name}</strong> (${identity.role})</span>${form}`;
}

/** A whole page of the web interface: no inline script or style anywhere (WEB_POLICY). */
export function page(input: PageInput): Html {
  const styles = ['site.css', ...(input.styles ?? [])];
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${input.title} · OSCAL Depot</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        ${styles.map((name) => html`<link rel="stylesheet" href="/assets/${name}" /> `)}${(input.scripts ?? []).map(
          (name) => html`<script src="/assets/${name}" defer></script> `,
        )}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site">
          <a class="brand" href="/">OSCAL Depot</a>
          <form method="get" action="/search" class="site-search" role="search" aria-label="Site">
            <label for="site-q" class="visually-hidden">Search every document</label>
            <input id="site-q" name="q" type="search" maxlength="500" placeholder="Search every document" />
          </form>
          <div class="account" aria-label="Account">${account(input.identity, input.signIn)}</div>
        </header>
        <nav class="site" aria-label="Models">
          <ul>
            ${MODELS.map((model) => html`<li><a href="/browse/${model}">${MODEL_LABELS[model]}</a></li> `)}
          </ul>
        </nav>
        <main id="main">${input.body}</main>
      </body>
    </html> `;
}

/** How long a page may be kept: pages show what the viewer may see now, so they are checked each time or never kept. */
export type PageCaching = 'private, no-cache' | 'no-store';

/** Sends a page as every page of the web interface is sent. */
export function sendPage(
  reply: FastifyReply,
  input: PageInput,
  options: { status?: number; caching?: PageCaching } = {},
): FastifyReply {
  return reply
    .code(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .header('cache-control', options.caching ?? 'private, no-cache')
    .send(page(input).text);
}
