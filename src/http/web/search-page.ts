import type { FastifyInstance } from 'fastify';
import { MODELS, type ModelName } from '../../oscal/model/models.js';
import type { SearchResult, SearchService } from '../../service/search.js';
import { html, type Html } from './html.js';
import { MODEL_LABELS, sendPage, type SignInMode } from './layout.js';
import { anchor } from './views/anchors.js';
import { markupLine } from './views/markup.js';

type Query = { q?: string; model?: ModelName; 'control-id'?: string; cursor?: string };

/** A page of hits a person reads. */
const PAGE_SIZE = 25;

/** The store marks matched runs with \u0002 and \u0003 (never in stored text): escaped, then marked. */
function snippetHtml(snippet: string): Html {
  const parts = snippet.split(/([\u0002\u0003])/);
  const out: Html[] = [];
  let marked = false;
  for (const part of parts) {
    if (part === '\u0002') marked = true;
    else if (part === '\u0003') marked = false;
    else if (part) out.push(marked ? html`<mark>${part}</mark>` : html`${part}`);
  }
  return html`${out}`;
}

function resultView({ hit, document }: SearchResult): Html {
  const model = hit.model as ModelName;
  // A catalog's controls and parts are anchored in its page; elsewhere the hit opens the document.
  const place =
    model === 'catalog' && hit.key && (hit.kind === 'control' || hit.kind === 'part') ? hit.kind : undefined;
  const href = `/documents/${model}/${document.id}${place ? `#${anchor(place, hit.key!)}` : ''}`;
  return html`<li class="hit">
    <p class="hit-document">
      <a href="${href}">${markupLine(document.title)}</a>
      <span class="model">${MODEL_LABELS[model] ?? model}</span>
    </p>
    <p class="hit-object">
      ${hit.kind}${hit.key ? html` <code>${hit.key}</code>` : ''}${hit.title ? html` ${hit.title}` : ''}
    </p>
    <p class="snippet">${snippetHtml(hit.snippet)}</p>
  </li>`;
}

/** GET /search: the search box of every page, over the search API's service and rules. */
export function searchPageRoutes(app: FastifyInstance, deps: { search: SearchService; signIn: SignInMode }): void {
  app.get<{ Querystring: Query }>(
    '/search',
    {
      schema: {
        hide: true,
        querystring: {
          type: 'object',
          properties: {
            q: { type: 'string', maxLength: 500 },
            model: { type: 'string', enum: [...MODELS] },
            'control-id': { type: 'string', maxLength: 100 },
            cursor: { type: 'string', maxLength: 200 },
          },
        },
      },
    },
    async (request, reply) => {
      const { q = '', model, cursor } = request.query;
      const controlId = request.query['control-id']?.trim() || undefined;
      const asked = q.trim() !== '' || controlId !== undefined;
      const found = asked
        ? await deps.search.search(request.identity, {
            q,
            limit: PAGE_SIZE,
            ...(model ? { model } : {}),
            ...(controlId ? { controlId } : {}),
            ...(cursor ? { cursor } : {}),
          })
        : undefined;
      const next =
        found?.next &&
        `/search?${new URLSearchParams({ q, ...(model ? { model } : {}), ...(controlId ? { 'control-id': controlId } : {}), cursor: found.next })}`;
      const body = html`<h1>Search</h1>
        <form method="get" action="/search" class="search" role="search" aria-label="Documents">
          <label for="search-q">Words, "a phrase", crypt* or a control id</label>
          <input id="search-q" name="q" type="search" maxlength="500" value="${q}" />
          <label for="search-model">In</label>
          <select id="search-model" name="model">
            <option value="">every model</option>
            ${MODELS.map((m) => html`<option value="${m}" ${m === model ? html`selected` : ''}>${MODEL_LABELS[m]}</option>`)}
          </select>
          <label for="search-control">About control</label>
          <input id="search-control" name="control-id" maxlength="100" size="10" value="${controlId ?? ''}" />
          <button type="submit">Search</button>
        </form>
        ${
          found &&
          (found.results.length
            ? html`<ol class="hits">
                ${found.results.map(resultView)}
              </ol>`
            : html`<p class="empty">Nothing found in the documents you may read.</p>`)
        }
        ${next ? html`<p class="paging"><a href="${next}" rel="next">Next page</a></p>` : ''}`;
      return sendPage(reply, {
        title: q ? `Search: ${q}` : 'Search',
        identity: request.identity,
        signIn: deps.signIn,
        body,
      });
    },
  );
}
