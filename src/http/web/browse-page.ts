import type { FastifyInstance } from 'fastify';
import { mayCreate, type Rights } from '../../auth/policy.js';
import type { DocumentService } from '../../service/documents.js';
import { MODELS, type ModelName } from '../../oscal/model/models.js';
import { LIST_QUERYSTRING, listPage, SORTS, type ListQuerystring } from '../list-page.js';
import { modelParam } from '../params.js';
import { html, type Html } from './html.js';
import { draftBadge } from './draft-badge.js';
import { dataTable } from './table.js';
import { MODEL_LABELS, sendPage, type SignInMode } from './layout.js';

const SORT_LABELS: Record<(typeof SORTS)[number], string> = {
  title: 'Title, A to Z',
  '-title': 'Title, Z to A',
  'last-modified': 'Last modified, oldest first',
  '-last-modified': 'Last modified, newest first',
  created: 'Stored, oldest first',
  '-created': 'Stored, newest first',
};

/** Fewer than the API's 100: a page a person reads. */
const PAGE_SIZE = 50;

/** What the viewer may do with a listed document, in the words of the document's pages. */
function mayDo(rights: Rights): string {
  if (rights.manage) return 'read, change, share';
  return rights.write ? 'read, change' : 'read';
}

/** The target of listPage's Link header: the next page, at this same path. */
function nextLink(header: unknown): string | undefined {
  return typeof header === 'string' ? /^<([^>]+)>; rel="next"$/.exec(header)?.[1] : undefined;
}

/** GET / (for browsers) and GET /browse/<model>: the models, and one model's documents the viewer may read. */
export function browseRoutes(app: FastifyInstance, deps: { documents: DocumentService; signIn: SignInMode }): void {
  const { documents, signIn } = deps;

  app.get('/', { schema: { hide: true }, constraints: { page: 'html' } }, async (request, reply) => {
    const body = html`<h1>OSCAL Depot</h1>
      <p>OSCAL documents kept on this server. Choose a model to browse the documents you may read.</p>
      <ul class="models">
        ${MODELS.map((model) => html`<li><a href="/browse/${model}">${MODEL_LABELS[model]}</a> <code>${model}</code></li> `)}
      </ul>
      <p class="aside">Programs use the <a href="/docs">API</a> (<a href="/openapi.json">OpenAPI description</a>).</p>`;
    reply.header('vary', 'Accept, Cookie');
    return sendPage(reply, { title: 'Home', identity: request.identity, signIn, body });
  });

  app.get<{ Params: { model: ModelName }; Querystring: ListQuerystring }>(
    '/browse/:model',
    {
      schema: {
        hide: true,
        params: { type: 'object', properties: { model: modelParam }, required: ['model'] },
        querystring: {
          ...LIST_QUERYSTRING,
          properties: {
            ...LIST_QUERYSTRING.properties,
            limit: { ...LIST_QUERYSTRING.properties.limit, default: PAGE_SIZE },
          },
        },
      },
    },
    async (request, reply) => {
      const { model } = request.params;
      const query = request.query;
      const items = await listPage(documents, request.identity, model, query, reply, `/browse/${model}`);
      // The Link header served to build the link below; a page announces its next page in the page.
      const next = nextLink(reply.getHeader('link'));
      reply.removeHeader('link');
      const rows: Html[] = [];
      for (const doc of items) {
        const rights = await documents.rightsOf(request.identity, doc);
        rows.push(
          html`<tr>
            <td><a href="/documents/${model}/${doc.id}">${doc.title}</a>${draftBadge(doc.valid)}</td>
            <td>${doc.version}</td>
            <td>${doc.oscalVersion}</td>
            <td><time datetime="${doc.lastModified}">${doc.lastModified}</time></td>
            <td>${mayDo(rights)}</td>
          </tr> `,
        );
      }
      const label = MODEL_LABELS[model];
      const body = html`<h1>${label}</h1>
        ${mayCreate(request.identity) && html`<p class="actions"><a href="/upload/${model}">Upload a document</a></p>`}
        <form method="get" action="/browse/${model}" class="search" role="search" aria-label="${label}">
          <label for="q">Title contains</label>
          <input id="q" name="q" type="search" maxlength="200" value="${query.q ?? ''}" />
          <label for="sort">Sort by</label>
          <select id="sort" name="sort">
            ${SORTS.map((sort) => html`<option value="${sort}" ${sort === query.sort ? html` selected` : ''}>${SORT_LABELS[sort]}</option> `)}
          </select>
          <button type="submit">Search</button>
        </form>
        ${
          items.length === 0
            ? html`<p class="empty">
                No ${label.toLowerCase()} here that you may read${query.q ? ' with that title' : ''}.
              </p>`
            : dataTable(['Title', 'Version', 'OSCAL version', 'Last modified', 'You may'], rows, {
                caption: `${label} you may read`,
                className: 'documents',
              })
        }
        ${next ? html`<p class="paging"><a href="${next}" rel="next">Next page</a></p>` : ''}`;
      return sendPage(reply, { title: label, identity: request.identity, signIn, body });
    },
  );
}
