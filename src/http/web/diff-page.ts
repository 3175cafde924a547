import type { FastifyInstance } from 'fastify';
import type { ModelName } from '../../oscal/model/models.js';
import type { DiffService } from '../../service/diff.js';
import type { DocumentService } from '../../service/documents.js';
import type { SnapshotService } from '../../service/snapshots.js';
import type { SnapshotKind } from '../../store/types.js';
import { documentParams } from '../params.js';
import { documentNav } from './document-nav.js';
import { html, type Html } from './html.js';
import { sendPage, type SignInMode } from './layout.js';
import { changesView, summaryView } from './views/diff.js';

interface DiffDeps {
  documents: DocumentService;
  snapshots: SnapshotService;
  diff: DiffService;
  signIn: SignInMode;
}

type Query = { from?: string; to?: string; 'ignore-volatile'?: string };

const SIDE = { type: 'string', maxLength: 64 } as const;

/** The choices of either side: every version by number (the newest is the current one), and the snapshots. */
function picker(
  name: 'from' | 'to',
  label: string,
  selected: string,
  versions: number,
  snapshots: { id: string; label: string }[],
): Html {
  const option = (value: string, text: string) =>
    html`<option value="${value}" ${value === selected ? html`selected` : ''}>${text}</option>`;
  const numbers = Array.from({ length: versions }, (_, i) => versions - i);
  return html`<div>
    <label for="${name}">${label}</label>
    <select id="${name}" name="${name}">
      ${numbers.map((n) => option(String(n), n === versions ? `Version ${n} (current)` : `Version ${n}`))}
      ${snapshots.map((s) => option(`snapshot:${s.id}`, s.label))}
    </select>
  </div>`;
}

/**
 * GET /documents/<model>/<id>/diff: two versions or snapshots picked and compared, for anyone who
 * may read the document (the diff API's rule); a GET form, so every comparison has its own URL.
 */
export function diffRoutes(app: FastifyInstance, deps: DiffDeps): void {
  const { documents, snapshots, diff, signIn } = deps;
  app.get<{ Params: { model: ModelName; id: string }; Querystring: Query }>(
    '/documents/:model/:id/diff',
    {
      schema: {
        hide: true,
        params: documentParams(),
        querystring: {
          type: 'object',
          properties: { from: SIDE, to: SIDE, 'ignore-volatile': { type: 'string', enum: ['true', 'false'] } },
        },
      },
    },
    async (request, reply) => {
      const { model, id } = request.params;
      const { doc, rights } = await documents.readable(request.identity, model, id);
      const kinds: SnapshotKind[] = model === 'profile' ? ['content', 'resolved'] : ['content'];
      const kept = [];
      for (const kind of kinds) kept.push(...(await snapshots.list(request.identity, model, id, kind)));
      const snapshotChoices = kept.map((s) => ({
        id: s.id,
        label: `Snapshot of ${s.createdAt}${s.description ? `: ${s.description}` : ''}${s.kind === 'resolved' ? ' (resolved)' : ''}`,
      }));
      const to = request.query.to ?? String(doc.revision);
      const from = request.query.from ?? String(Math.max(1, doc.revision - 1));
      const ignoreVolatile = request.query['ignore-volatile'] !== 'false';
      const base = `/documents/${model}/${id}`;
      const form = html`<form method="get" action="${base}/diff" class="inline-form">
        ${picker('from', 'Compare', from, doc.revision, snapshotChoices)}
        ${picker('to', 'with', to, doc.revision, snapshotChoices)}
        <div>
          <label
            ><input type="checkbox" name="ignore-volatile" value="false" ${ignoreVolatile ? '' : html`checked`} /> Also
            show last-modified and the content identifier</label
          >
        </div>
        <button type="submit">Compare</button>
      </form>`;
      let result: Html = html``;
      if (request.query.from !== undefined || doc.revision > 1) {
        const report = await diff.compare(request.identity, model, id, from, to, { ignoreVolatile });
        result = html`${summaryView(report.summary)} ${changesView(report.changes)}`;
      }
      const body = html`${documentNav({ model, id, title: doc.title, rights, current: 'diff' })}
        <h1>What changed</h1>
        ${form} ${result}`;
      return sendPage(reply, {
        title: `What changed in ${doc.title}`,
        identity: request.identity,
        signIn,
        body,
        styles: ['document.css'],
      });
    },
  );
}
