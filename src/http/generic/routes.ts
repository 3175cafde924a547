import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AliasService } from '../../service/aliases.js';
import type { AttachmentService } from '../../service/attachments.js';
import { retryWhenGone, type ContentService } from '../../service/content.js';
import type { DocumentService } from '../../service/documents.js';
import { ServiceError } from '../../service/errors.js';
import { negotiateFormat, RESPONSE_TYPE } from '../../service/media-types.js';
import type { RenditionWorkers } from '../../service/rendition-workers.js';
import type { ResolutionService } from '../../service/resolution.js';
import { snapshotEntry, type SnapshotService } from '../../service/snapshots.js';
import type { DocumentRecord, Grant, Store, Visibility } from '../../store/types.js';
import { findingJson } from '../findings.js';
import { bodyOf } from '../request-body.js';
import { sendStored } from '../send-rendition.js';
import { aliasRoutes, queryAliases } from './alias-routes.js';
import { attachmentRoutes } from './attachment-routes.js';
import { MODELS } from './models.js';
import { originalRoutes } from './original-routes.js';
import { resolutionRoutes } from './resolution-routes.js';
import { snapshotReadRoutes } from './snapshot-routes.js';
import { LIST_QUERYSTRING, listPage, type ListQuerystring } from '../list-page.js';


export interface GenericDeps {
  store: Store;
  documents: DocumentService;
  content: ContentService;
  workers?: RenditionWorkers;
  attachments: AttachmentService;
  snapshots: SnapshotService;
  resolution: ResolutionService;
  aliases: AliasService;
  publicUrl: string;
  maxAttachment: number;
}

const modelParam = { type: 'string', enum: [...MODELS] } as const;
const idParam = { type: 'string', maxLength: 64 } as const;

/** A content list item (generic-interface 2.3, D4). */
function listItem(doc: DocumentRecord): Record<string, unknown> {
  return {
    'content-uuid': doc.id,
    title: doc.title,
    ...(doc.published !== undefined ? { published: doc.published } : {}),
    'last-modified': doc.lastModified,
    version: doc.version,
    'oscal-version': doc.oscalVersion,
    'document-ids': doc.documentIds,
    markings: doc.markings,
    ...(doc.remarks !== undefined ? { remarks: doc.remarks } : {}),
  };
}

export async function genericRoutes(app: FastifyInstance, deps: GenericDeps): Promise<void> {
  const { documents, content, store } = deps;
  const base = `${deps.publicUrl}/oscal/v1`;

  app.get<{ Params: { model: string }; Querystring: ListQuerystring }>('/:model', {
    schema: {
      summary: 'List the documents of a model that the caller may read',
      params: { type: 'object', properties: { model: modelParam }, required: ['model'] },
      querystring: LIST_QUERYSTRING,
    },
  }, async (request, reply) => {
    const { model } = request.params;
    const items = await listPage(documents, request.identity, model, request.query, reply, `${base}/${model}`);
    return { [`${model}-list`]: items.map(listItem) };
  });

  app.post<{ Params: { model: string }; Body: Buffer }>('/:model', {
    schema: { summary: 'Create a document from OSCAL content in JSON, XML or YAML', params: { type: 'object', properties: { model: modelParam }, required: ['model'] } },
  }, async (request, reply) => {
    const { model } = request.params;
    const given = queryAliases(request);
    const { record, jobs, findings } = await documents.create(request.identity, model, bodyOf(request), request.headers['content-type']);
    await deps.aliases.add(request.identity, record.id, given);
    if (jobs.length) deps.workers?.wake();
    reply.code(201).header('Location', `${base}/${model}/${record.id}`);
    // What was found below the reject level travels beside the list item the interface specifies.
    return { [`${model}-list`]: [listItem(record)], ...(findings.length ? { findings: findings.map(findingJson) } : {}) };
  });

  app.get<{ Params: { model: string; id: string } }>('/:model/:id', {
    schema: { summary: 'Read a document in the format the Accept header asks for', params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] } },
  }, async (request, reply) => {
    const { model, id } = request.params;
    const format = negotiateFormat(request.headers.accept);
    if (!format) throw new ServiceError(406, 'not-acceptable', 'Accept names no format this server produces: use application/json, application/xml or application/yaml');
    return retryWhenGone(async () => {
      const rendition = await content.rendition(request.identity, model, id, format);
      if (rendition.state === 'pending') {
        const location = `${base}/jobs/${rendition.job.id}`;
        return reply.code(202).header('Location', location).send({ job: { id: rendition.job.id, status: rendition.job.status, format, self: location } });
      }
      return sendStored(store, request, reply, rendition.hash, RESPONSE_TYPE[format]);
    });
  });

  app.put<{ Params: { model: string; id: string }; Body: Buffer }>('/:model/:id', {
    schema: { summary: 'Replace a document; adds a revision', params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] } },
  }, async (request, reply) => {
    const { model, id } = request.params;
    const given = queryAliases(request);
    const { jobs } = await documents.replace(request.identity, model, id, bodyOf(request), request.headers['content-type']);
    await deps.aliases.add(request.identity, id, given);
    if (jobs.length) deps.workers?.wake();
    return reply.code(204).send();
  });

  app.delete<{ Params: { model: string; id: string } }>('/:model/:id', {
    schema: { summary: 'Delete a document with all its revisions', params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] } },
  }, async (request, reply) => {
    await documents.remove(request.identity, request.params.model, request.params.id);
    return reply.code(204).send();
  });

  app.get<{ Params: { model: string; id: string } }>('/:model/:id/access', {
    schema: { summary: 'Owner, visibility, grants and legal hold of a document', params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] } },
  }, async (request) => accessBody(await documents.access(request.identity, request.params.model, request.params.id)));

  app.put<{ Params: { model: string; id: string }; Body: Buffer }>('/:model/:id/access', {
    schema: { summary: 'Change visibility and grants (and, for admins, the legal hold)', params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] } },
  }, async (request) => {
    const change = parseAccessChange(request);
    return accessBody(await documents.setAccess(request.identity, request.params.model, request.params.id, change));
  });

  await app.register(async (scope) => attachmentRoutes(scope, { attachments: deps.attachments, base, maxAttachment: deps.maxAttachment }));

  const snapshotParams = { type: 'object', properties: { model: modelParam, id: idParam, snapshot: idParam }, required: ['model', 'id'] } as const;
  app.post<{ Params: { model: string; id: string } }>('/:model/:id/snapshot', {
    schema: { summary: 'Snapshot the current content; the server sets snapshot-created', params: snapshotParams },
  }, async (request, reply) => {
    const { model, id } = request.params;
    const snapshot = await deps.snapshots.create(request.identity, model, id, bodyOf(request), request.headers['content-type']);
    return reply.code(201).header('Location', `${base}/${model}/${id}/snapshot/${snapshot.id}`).send(snapshotEntry(snapshot));
  });
  snapshotReadRoutes(app, { store, snapshots: deps.snapshots, kind: 'content', prefix: '/:model/:id/snapshot', listName: (model) => `${model}-snapshot-list`, params: snapshotParams });
  resolutionRoutes(app, { store, resolution: deps.resolution, snapshots: deps.snapshots, base });
  aliasRoutes(app, { aliases: deps.aliases, params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] } });
  originalRoutes(app, { store, documents });

  app.get<{ Params: { id: string } }>('/jobs/:id', {
    schema: { summary: 'A conversion job: 200 while it runs, 303 to the content when done', params: { type: 'object', properties: { id: idParam }, required: ['id'] } },
  }, async (request, reply) => {
    const { job, model } = await content.job(request.identity, request.params.id);
    if (job.status === 'done') return reply.code(303).header('Location', `${base}/${model}/${job.documentId}`).send();
    return { job: { id: job.id, status: job.status, format: job.format, ...(job.error ? { error: job.error } : {}), self: `${base}/jobs/${job.id}` } };
  });

}


function accessBody(access: { owner: string; visibility: Visibility; legalHold: boolean; grants: Grant[] }) {
  return { owner: access.owner, visibility: access.visibility, 'legal-hold': access.legalHold, grants: access.grants };
}

const PRINCIPAL = /^(user|group):[^\s]{1,200}$/;

/** The access body: `{"visibility": "public", "grants": [{"principal": "user:alice", "permission": "read"}], "legal-hold": true}`. */
function parseAccessChange(request: FastifyRequest): { visibility?: Visibility; grants?: Grant[]; legalHold?: boolean } {
  const bad = (message: string) => new ServiceError(400, 'bad-request', message);
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) throw new ServiceError(415, 'unsupported-media-type', 'the access settings are JSON: send Content-Type: application/json');
  let body: unknown;
  try {
    body = JSON.parse(bodyOf(request).toString('utf8'));
  } catch {
    throw bad('the body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('the body must be an object with visibility, grants and/or legal-hold');
  const { visibility, grants, 'legal-hold': legalHold, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length) throw bad(`unknown properties: ${Object.keys(rest).join(', ')}; allowed: visibility, grants, legal-hold`);
  const change: { visibility?: Visibility; grants?: Grant[]; legalHold?: boolean } = {};
  if (visibility !== undefined) {
    if (visibility !== 'public' && visibility !== 'private') throw bad('visibility must be "public" or "private"');
    change.visibility = visibility;
  }
  if (grants !== undefined) {
    if (!Array.isArray(grants) || grants.length > 1000) throw bad('grants must be an array (at most 1000)');
    change.grants = grants.map((g) => {
      const { principal, permission } = (g ?? {}) as Record<string, unknown>;
      if (typeof principal !== 'string' || !PRINCIPAL.test(principal)) throw bad('each grant needs a principal "user:<name>" or "group:<name>"');
      if (permission !== 'read' && permission !== 'write') throw bad('each grant needs a permission "read" or "write"');
      return { principal, permission };
    });
  }
  if (legalHold !== undefined) {
    if (typeof legalHold !== 'boolean') throw bad('legal-hold must be true or false');
    change.legalHold = legalHold;
  }
  return change;
}
