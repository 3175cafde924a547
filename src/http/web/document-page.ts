import type { FastifyInstance } from 'fastify';
import { FORMATS, type Format } from '../../oscal/formats/index.js';
import type { ModelName } from '../../oscal/model/models.js';
import { retryWhenGone, type ContentService } from '../../service/content.js';
import type { DocumentService } from '../../service/documents.js';
import { RESPONSE_TYPE } from '../../service/media-types.js';
import type { Store } from '../../store/types.js';
import { documentParams } from '../params.js';
import { sendStored } from '../send-rendition.js';
import { documentNav } from './document-nav.js';
import { draftBadge } from './draft-badge.js';
import { html } from './html.js';
import { sendPage, type SignInMode } from './layout.js';
import { documentView } from './views/document.js';

interface DocumentDeps {
  store: Store;
  documents: DocumentService;
  content: ContentService;
  signIn: SignInMode;
}

/** The document's downloads, in each format, beside its other pages. */
function downloads(base: string) {
  return html`<p class="downloads">
    Download:
    ${FORMATS.map((format) => html` <a href="${base}/download/${format}" download>${format.toUpperCase()}</a>`)}
  </p>`;
}

/** GET /documents/<model>/<id> and its downloads: what the viewer may read, 404 for anything else. */
export function documentRoutes(app: FastifyInstance, deps: DocumentDeps): void {
  const { store, documents, content, signIn } = deps;

  app.get<{ Params: { model: ModelName; id: string } }>(
    '/documents/:model/:id',
    { schema: { hide: true, params: documentParams() } },
    async (request, reply) => {
      const { model, id } = request.params;
      const base = `/documents/${model}/${id}`;
      const read = await documents.readableContent(request.identity, model, id);
      const view = documentView({ model, content: read.content.content });
      const nav = documentNav({ model, id, title: read.doc.title, rights: read.rights, current: 'document' });
      const body = html`<div class="document-bar">${nav} ${downloads(base)}</div>
        ${
          !read.doc.valid &&
          html`<p class="draft-note" role="note">
            ${draftBadge(false)} This version was stored with constraint findings at the reject level; a corrected
            version clears the mark.
          </p>`
        }
        ${view.body}`;
      return sendPage(reply, {
        title: read.doc.title,
        identity: request.identity,
        signIn,
        body,
        scripts: view.scripts,
        styles: view.styles,
      });
    },
  );

  // A link cannot set Accept: the format is in the path, and the bytes are the API's, from the same ContentService.
  app.get<{ Params: { model: ModelName; id: string; format: Format } }>(
    '/documents/:model/:id/download/:format',
    {
      schema: {
        hide: true,
        params: {
          ...documentParams({ format: { type: 'string', enum: [...FORMATS] } }),
          required: ['model', 'id', 'format'],
        },
      },
    },
    async (request, reply) => {
      const { model, id, format } = request.params;
      return retryWhenGone(async () => {
        const rendition = await content.rendition(request.identity, model, id, format);
        if (rendition.state === 'pending') {
          const body = html`<h1>Still being prepared</h1>
            <p>
              The ${format.toUpperCase()} form of this document is being made.
              <a href="/documents/${model}/${id}/download/${format}">Try again</a> in a moment.
            </p>`;
          const title = 'Still being prepared';
          return sendPage(
            reply,
            { title, identity: request.identity, signIn, body },
            { status: 202, caching: 'no-store' },
          );
        }
        reply.header('content-disposition', `attachment; filename="${id}.${format}"`);
        return sendStored(store, request, reply, rendition.hash, RESPONSE_TYPE[format]);
      });
    },
  );
}
