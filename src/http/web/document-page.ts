import type { FastifyInstance } from 'fastify';
import { FORMATS, type Format } from '../../oscal/formats/index.js';
import type { ModelName } from '../../oscal/model/models.js';
import { retryWhenGone, type ContentService } from '../../service/content.js';
import type { DocumentService } from '../../service/documents.js';
import { RESPONSE_TYPE } from '../../service/media-types.js';
import type { Store } from '../../store/types.js';
import { idParam, modelParam } from '../params.js';
import { sendStored } from '../send-rendition.js';
import { html } from './html.js';
import { MODEL_LABELS, page, type SignInMode } from './layout.js';
import { documentView } from './views/document.js';

interface DocumentDeps {
  store: Store;
  documents: DocumentService;
  content: ContentService;
  signIn: SignInMode;
}

const documentParams = {
  type: 'object',
  properties: { model: modelParam, id: idParam },
  required: ['model', 'id'],
} as const;

/**
 * Above the document view, which shows the title and the metadata itself: where the document is
 * listed, and its downloads.
 */
function documentBar(model: ModelName, base: string, mayManage: boolean) {
  return html`<div class="document-bar">
    <nav aria-label="Breadcrumb"><a href="/browse/${model}">${MODEL_LABELS[model]}</a></nav>
    ${mayManage && html`<p class="history"><a href="${base}/versions">Versions</a></p>`}
    <p class="downloads">
      Download:
      ${FORMATS.map((format) => html` <a href="${base}/download/${format}" download>${format.toUpperCase()}</a>`)}
    </p>
  </div>`;
}

/** GET /documents/<model>/<id> and its downloads: what the viewer may read, 404 for anything else. */
export function documentRoutes(app: FastifyInstance, deps: DocumentDeps): void {
  const { store, documents, content, signIn } = deps;

  app.get<{ Params: { model: ModelName; id: string } }>(
    '/documents/:model/:id',
    { schema: { hide: true, params: documentParams } },
    async (request, reply) => {
      const { model, id } = request.params;
      const base = `/documents/${model}/${id}`;
      const read = await documents.readableContent(request.identity, model, id);
      const view = documentView({ model, content: read.content.content, pageUrl: base });
      const body = html`${documentBar(model, base, read.rights.manage)} ${view.body}`;
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-cache')
        .send(
          page({
            title: read.doc.title,
            identity: request.identity,
            signIn,
            body,
            scripts: view.scripts,
            styles: view.styles,
          }).text,
        );
    },
  );

  // A link cannot set Accept: the format is in the path, and the bytes are the API's, from the same ContentService.
  app.get<{ Params: { model: ModelName; id: string; format: Format } }>(
    '/documents/:model/:id/download/:format',
    {
      schema: {
        hide: true,
        params: {
          ...documentParams,
          properties: { ...documentParams.properties, format: { type: 'string', enum: [...FORMATS] } },
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
          return reply
            .code(202)
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(page({ title: 'Still being prepared', identity: request.identity, signIn, body }).text);
        }
        reply.header('content-disposition', `attachment; filename="${id}.${format}"`);
        return sendStored(store, request, reply, rendition.hash, RESPONSE_TYPE[format]);
      });
    },
  );
}
