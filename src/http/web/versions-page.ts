import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ModelName } from '../../oscal/model/models.js';
import { readStored } from '../../service/content.js';
import type { RegistryService } from '../../service/registry.js';
import type { Store } from '../../store/types.js';
import { idParam, modelParam } from '../params.js';
import { html } from './html.js';
import { dataTable } from './table.js';
import { MODEL_LABELS, page, type SignInMode } from './layout.js';
import { documentView } from './views/document.js';

interface VersionDeps {
  store: Store;
  registry: RegistryService;
  signIn: SignInMode;
}

const params = {
  type: 'object',
  properties: {
    model: modelParam,
    id: idParam,
    // Versions are numbered from 1; any other segment names no page (404).
    version: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' },
  },
  required: ['model', 'id'],
} as const;

type Params = { model: ModelName; id: string; version?: string };

const sendPage = (reply: FastifyReply, text: string) =>
  reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-cache').send(text);

/**
 * The history of a document: its versions with author and time (for its owner and admins, as the
 * registry's version list), and any version opened read-only (for anyone who may read it).
 */
export function versionRoutes(app: FastifyInstance, deps: VersionDeps): void {
  const { store, registry, signIn } = deps;

  app.get<{ Params: Params }>(
    '/documents/:model/:id/versions',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id } = request.params;
      const versions = await registry.versions(request.identity, model, id);
      const newestFirst = [...versions].sort((a, b) => b.number - a.number);
      const current = newestFirst[0];
      const rows = newestFirst.map(
        (v) =>
          html`<tr>
            <td><a href="/documents/${model}/${id}/versions/${v.number}">${v.number}</a></td>
            <td>${v.fields.title}</td>
            <td>${v.fields.version}</td>
            <td>${v.author}</td>
            <td><time datetime="${v.createdAt}">${v.createdAt}</time></td>
          </tr>`,
      );
      const body = html`<nav aria-label="Breadcrumb">
          <a href="/browse/${model}">${MODEL_LABELS[model]}</a> ›
          <a href="/documents/${model}/${id}">${current?.fields.title ?? id}</a>
        </nav>
        <h1>Versions</h1>
        ${dataTable(['Version', 'Title', 'Document version', 'Author', 'Written'], rows, {
          caption: 'Every version, newest first; each opens read-only',
        })}`;
      const title = `Versions of ${current?.fields.title ?? id}`;
      return sendPage(reply, page({ title, identity: request.identity, signIn, body }).text);
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
      const view = documentView({ model, content: content.content, pageUrl: request.url });
      const body = html`<div class="document-bar">
          <nav aria-label="Breadcrumb">
            <a href="/browse/${model}">${MODEL_LABELS[model]}</a> ›
            <a href="/documents/${model}/${id}">the current version</a>
          </nav>
          <p class="version-note" role="note">
            Version ${number}, written by ${revision.author} at ${revision.createdAt}: read-only.
          </p>
        </div>
        ${view.body}`;
      const title = `${revision.fields.title} (version ${number})`;
      return sendPage(
        reply,
        page({ title, identity: request.identity, signIn, body, scripts: view.scripts, styles: view.styles }).text,
      );
    },
  );
}
