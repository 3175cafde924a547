import type { FastifyInstance } from 'fastify';
import type { ModelName } from '../../oscal/model/models.js';
import { readStored } from '../../service/content.js';
import type { DocumentService } from '../../service/documents.js';
import type { RegistryService } from '../../service/registry.js';
import type { Store } from '../../store/types.js';
import { documentParams } from '../params.js';
import { documentNav } from './document-nav.js';
import { draftBadge } from './draft-badge.js';
import { html } from './html.js';
import { dataTable } from './table.js';
import { sendPage, type SignInMode } from './layout.js';
import { documentView } from './views/document.js';

interface VersionDeps {
  store: Store;
  documents: DocumentService;
  registry: RegistryService;
  signIn: SignInMode;
}

// Versions are numbered from 1; any other segment names no page (404).
const params = documentParams({ version: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } });

type Params = { model: ModelName; id: string; version?: string };

/**
 * The history of a document: its versions with author and time (for its owner and admins, as the
 * registry's version list), and any version opened read-only (for anyone who may read it).
 */
export function versionRoutes(app: FastifyInstance, deps: VersionDeps): void {
  const { store, documents, registry, signIn } = deps;

  app.get<{ Params: Params }>(
    '/documents/:model/:id/versions',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id } = request.params;
      const versions = await registry.versions(request.identity, model, id);
      const newestFirst = [...versions].sort((a, b) => b.number - a.number);
      const rows = newestFirst.map(
        (v) =>
          html`<tr>
            <td><a href="/documents/${model}/${id}/versions/${v.number}">${v.number}</a>${draftBadge(v.valid)}</td>
            <td>${v.fields.title}</td>
            <td>${v.fields.version}</td>
            <td>${v.author}</td>
            <td><time datetime="${v.createdAt}">${v.createdAt}</time></td>
          </tr>`,
      );
      const { doc, rights } = await documents.readable(request.identity, model, id);
      const body = html`${documentNav({ model, id, title: doc.title, rights, current: 'versions' })}
        <h1>Versions</h1>
        ${dataTable(['Version', 'Title', 'Document version', 'Author', 'Written'], rows, {
          caption: 'Every version, newest first; each opens read-only',
        })}`;
      const title = `Versions of ${doc.title}`;
      return sendPage(reply, { title, identity: request.identity, signIn, body });
    },
  );

  app.get<{ Params: Params }>(
    '/documents/:model/:id/versions/:version',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id } = request.params;
      const number = Number(request.params.version);
      const revision = await registry.version(request.identity, model, id, number);
      const content = await readStored(store, revision.canonicalHash);
      const view = documentView({ model, content: content.content });
      const { rights } = await documents.readable(request.identity, model, id);
      // The version's own title: the page shows that version, whatever the document is called now.
      const nav = documentNav({ model, id, title: revision.fields.title, rights, current: 'versions' });
      const by = `${revision.author} at ${revision.createdAt}`;
      const body = html`${nav}
        <p class="version-note" role="note">
          Version ${number}, written by ${by}: read-only.${draftBadge(revision.valid)}
        </p>
        ${view.body}`;
      const title = `${revision.fields.title} (version ${number})`;
      return sendPage(reply, {
        title,
        identity: request.identity,
        signIn,
        body,
        scripts: view.scripts,
        styles: view.styles,
      });
    },
  );
}
