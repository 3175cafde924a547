import type { FastifyInstance } from 'fastify';
import type { Identity } from '../../auth/identity.js';
import { notFound, ServiceError } from '../../errors.js';
import type { ModelName } from '../../oscal/model/models.js';
import type { DocumentService } from '../../service/documents.js';
import type { SnapshotService } from '../../service/snapshots.js';
import type { SnapshotKind, SnapshotRecord } from '../../store/types.js';
import { documentParams, snapshotParam } from '../params.js';
import { documentNav } from './document-nav.js';
import { html } from './html.js';
import { sendPage, type SignInMode } from './layout.js';
import { dataTable } from './table.js';
import { documentView } from './views/document.js';

interface SnapshotDeps {
  documents: DocumentService;
  snapshots: SnapshotService;
  signIn: SignInMode;
}

type Params = { model: ModelName; id: string; snapshot?: string };

const params = documentParams({ snapshot: snapshotParam });

/** A profile keeps its resolutions as snapshots too; what they hold is a catalog. */
const kindsOf = (model: ModelName): SnapshotKind[] => (model === 'profile' ? ['content', 'resolved'] : ['content']);

const KIND_LABELS: Record<SnapshotKind, string> = { content: 'Copy of the document', resolved: 'Resolved catalog' };

/**
 * GET and POST /documents/<model>/<id>/snapshots, and each snapshot opened read-only: for those
 * who may read the document; making one, for those who may change it (the snapshot API's rules).
 */
export function snapshotRoutes(app: FastifyInstance, deps: SnapshotDeps): void {
  const { documents, snapshots, signIn } = deps;

  /** The snapshot of either kind the page names; snapshot ids are UUIDs, unique across kinds. */
  async function findSnapshot(identity: Identity, model: ModelName, id: string, snapshotId: string) {
    for (const kind of kindsOf(model)) {
      try {
        return await snapshots.get(identity, model, id, kind, snapshotId);
      } catch (e) {
        if (!(e instanceof ServiceError && e.status === 404)) throw e;
      }
    }
    throw notFound('snapshot');
  }

  app.get<{ Params: Params }>(
    '/documents/:model/:id/snapshots',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id } = request.params;
      const { doc, rights } = await documents.readable(request.identity, model, id);
      const all: SnapshotRecord[] = [];
      for (const kind of kindsOf(model)) all.push(...(await snapshots.list(request.identity, model, id, kind)));
      all.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
      const base = `/documents/${model}/${id}`;
      const rows = all.map(
        (s) =>
          html`<tr>
            <td>
              <a href="${base}/snapshots/${s.id}"><time datetime="${s.createdAt}">${s.createdAt}</time></a>
            </td>
            <td>${KIND_LABELS[s.kind]}</td>
            <td>${s.description ?? ''}</td>
            <td>${s.labels.join(', ')}</td>
            <td>${s.revision}</td>
            <td>${s.author}</td>
          </tr>`,
      );
      const body = html`${documentNav({ model, id, title: doc.title, rights, current: 'snapshots' })}
        <h1>Snapshots</h1>
        ${
          rows.length
            ? dataTable(['Made', 'Kind', 'Description', 'Labels', 'Of version', 'By'], rows, {
                caption: 'Kept copies of this document, newest first',
              })
            : html`<p class="empty">No snapshots of this document yet.</p>`
        }
        ${
          rights.write &&
          html`<form method="post" action="${base}/snapshots" class="inline-form">
            <div>
              <label for="description">Description</label>
              <input id="description" name="description" maxlength="1000" size="50" />
            </div>
            <button type="submit">Keep a snapshot of the current version</button>
          </form>`
        }`;
      return sendPage(reply, { title: `Snapshots of ${doc.title}`, identity: request.identity, signIn, body });
    },
  );

  app.post<{ Params: Params; Body: Record<string, string> | undefined }>(
    '/documents/:model/:id/snapshots',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id } = request.params;
      const description = request.body?.description?.trim();
      // The snapshot API's own body, so that its rules for a description hold here word for word.
      const notes = Buffer.from(JSON.stringify({ snapshot: description ? { description } : {} }));
      await snapshots.create(request.identity, model, id, notes, 'application/json');
      return reply.code(303).header('location', `/documents/${model}/${id}/snapshots`).send();
    },
  );

  app.get<{ Params: Params }>(
    '/documents/:model/:id/snapshots/:snapshot',
    { schema: { hide: true, params } },
    async (request, reply) => {
      const { model, id, snapshot: snapshotId } = request.params;
      const { doc, rights } = await documents.readable(request.identity, model, id);
      const snapshot = await findSnapshot(request.identity, model, id, snapshotId!);
      const content = await snapshots.content(snapshot);
      const view = documentView({ model: snapshot.kind === 'resolved' ? 'catalog' : model, content: content.content });
      const body = html`${documentNav({ model, id, title: doc.title, rights, current: 'snapshots' })}
        <p class="version-note" role="note">
          Snapshot made ${snapshot.createdAt} by ${snapshot.author} of version ${snapshot.revision}: read-only.
        </p>
        ${view.body}`;
      return sendPage(reply, {
        title: `${doc.title} (snapshot)`,
        identity: request.identity,
        signIn,
        body,
        scripts: view.scripts,
        styles: view.styles,
      });
    },
  );
}
