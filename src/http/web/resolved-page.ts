import type { FastifyInstance } from 'fastify';
import type { DocumentService } from '../../service/documents.js';
import type { ResolutionService } from '../../service/resolution.js';
import { idParam } from '../params.js';
import { documentNav } from './document-nav.js';
import { html } from './html.js';
import { sendPage, type SignInMode } from './layout.js';
import { documentView } from './views/document.js';

/**
 * GET /documents/profile/<id>/resolved: the profile resolved now, as the caller may read what it
 * imports (the resolution API's rule), shown in the catalog view with its filter.
 */
export function resolvedRoutes(
  app: FastifyInstance,
  deps: { documents: DocumentService; resolution: ResolutionService; signIn: SignInMode },
): void {
  const { documents, resolution, signIn } = deps;
  app.get<{ Params: { id: string } }>(
    '/documents/profile/:id/resolved',
    { schema: { hide: true, params: { type: 'object', properties: { id: idParam }, required: ['id'] } } },
    async (request, reply) => {
      const { id } = request.params;
      const { doc, rights } = await documents.readable(request.identity, 'profile', id);
      const resolved = await resolution.resolve(request.identity, id);
      const view = documentView({ model: 'catalog', content: resolved.document.content });
      const body = html`${documentNav({ model: 'profile', id, title: doc.title, rights, current: 'resolved' })}
        <p class="version-note" role="note">
          The catalog this profile resolves to now, from version ${resolved.revision} of the profile.
        </p>
        ${
          resolved.warnings.length > 0 &&
          html`<details class="warnings">
            <summary>${resolved.warnings.length} resolution warnings</summary>
            <ul>
              ${resolved.warnings.map((w) => html`<li>${w.message}</li>`)}
            </ul>
          </details>`
        }
        ${view.body}`;
      return sendPage(reply, {
        title: `${doc.title} (resolved)`,
        identity: request.identity,
        signIn,
        body,
        scripts: view.scripts,
        styles: view.styles,
      });
    },
  );
}
