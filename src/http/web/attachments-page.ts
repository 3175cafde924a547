import type { FastifyInstance } from 'fastify';
import { refuse } from '../../errors.js';
import type { ModelName } from '../../oscal/model/models.js';
import type { AttachmentService } from '../../service/attachments.js';
import type { DocumentService } from '../../service/documents.js';
import { documentParams, resourceParam } from '../params.js';
import { fileField } from '../request-body.js';
import { sendAttachment } from '../send-attachment.js';
import { documentNav } from './document-nav.js';
import { html } from './html.js';
import { sendPage, type SignInMode } from './layout.js';
import { dataTable } from './table.js';
import { markupLine } from './views/markup.js';

interface AttachmentDeps {
  documents: DocumentService;
  attachments: AttachmentService;
  signIn: SignInMode;
  maxAttachment: number;
}

type Params = { model: ModelName; id: string; resource?: string };

const params = documentParams({ resource: resourceParam });

/** What the resource entry says of its file, for the list: the stored file's media type, else its base64's. */
function mediaTypeOf(entry: Record<string, unknown>): string {
  const rlinks = Array.isArray(entry.rlinks) ? (entry.rlinks as Record<string, unknown>[]) : [];
  const typed = rlinks.find((r) => typeof r['media-type'] === 'string');
  return typeof typed?.['media-type'] === 'string' ? typed['media-type'] : '';
}

/**
 * GET and POST /documents/<model>/<id>/attachments (the back-matter resources, and a new file),
 * and each file as a download: the attachment API's rules and the same sandboxed download.
 */
export function attachmentRoutes(app: FastifyInstance, deps: AttachmentDeps): void {
  const { documents, attachments, signIn } = deps;

  app.get<{ Params: Params }>(
    '/documents/:model/:id/attachments',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id } = request.params;
      const { doc, rights } = await documents.readable(request.identity, model, id);
      const entries = await attachments.list(request.identity, model, id);
      const base = `/documents/${model}/${id}`;
      const rows = entries.map((entry) => {
        const uuid = String(entry['resource-uuid']);
        const title = typeof entry.title === 'string' ? entry.title : uuid;
        return html`<tr>
          <td>${markupLine(title)}</td>
          <td>${mediaTypeOf(entry)}</td>
          <td><a href="${base}/attachments/${uuid}" download>Download</a></td>
          <td><code>${uuid}</code></td>
        </tr>`;
      });
      const body = html`${documentNav({ model, id, title: doc.title, rights, current: 'attachments' })}
        <h1>Attachments</h1>
        ${
          rows.length
            ? dataTable(['Title', 'Media type', 'File', 'Resource uuid'], rows, {
                caption: "The document's back-matter resources",
              })
            : html`<p class="empty">This document has no back-matter resources.</p>`
        }
        ${
          rights.write &&
          html`<form
            method="post"
            action="${base}/attachments"
            enctype="multipart/form-data"
            class="inline-form"
            id="attachment-form"
          >
            <div>
              <label for="attachment">File to attach</label>
              <input id="attachment" name="file" type="file" required />
            </div>
            <button type="submit">Attach</button>
          </form>`
        }`;
      return sendPage(reply, { title: `Attachments of ${doc.title}`, identity: request.identity, signIn, body });
    },
  );

  app.post<{ Params: Params }>(
    '/documents/:model/:id/attachments',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id } = request.params;
      const file = request.isMultipart() ? await fileField(request, deps.maxAttachment) : undefined;
      if (!file || file.bytes.length === 0) throw refuse('missing-file', 'choose a file to attach');
      await attachments.add(request.identity, model, id, {
        bytes: file.bytes,
        mediaType: file.mediaType || 'application/octet-stream',
        ...(file.filename ? { filename: file.filename } : {}),
      });
      return reply.code(303).header('location', `/documents/${model}/${id}/attachments`).send();
    },
  );

  app.get<{ Params: Params }>(
    '/documents/:model/:id/attachments/:resource',
    { schema: { hide: true, params }, compress: false },
    async (request, reply) => {
      const { model, id, resource } = request.params;
      return sendAttachment(request, reply, await attachments.read(request.identity, model, id, resource!));
    },
  );
}
