import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessChangeOf, type AccessChange } from '../../service/access-change.js';
import type { AliasService } from '../../service/aliases.js';
import type { AttachmentService } from '../../service/attachments.js';
import { retryWhenGone, type ContentService } from '../../service/content.js';
import type { SearchService } from '../../service/search.js';
import type { DiffService } from '../../service/diff.js';
import type { DocumentService } from '../../service/documents.js';
import type { MetapathService } from '../../service/metapath.js';
import { acceptedFormat, RESPONSE_TYPE } from '../../service/media-types.js';
import type { RenditionWorkers } from '../../service/rendition-workers.js';
import type { ResolutionService } from '../../service/resolution.js';
import { snapshotEntry, type SnapshotService } from '../../service/snapshots.js';
import type { Grant, Store, Visibility } from '../../store/types.js';
import { findingJson } from '../findings.js';
import { idParam, modelParam, snapshotParam, uuidParam } from '../params.js';
import { bodyOf, jsonBodyOf } from '../request-body.js';
import { sendStored } from '../send-rendition.js';
import { aliasRoutes, queryAliases } from './alias-routes.js';
import { keepFindingsOf, KEEP_FINDINGS_PARAM } from './keep-findings.js';
import { listItem } from './list-item.js';
import { searchRoutes } from './search-routes.js';
import { attachmentRoutes } from './attachment-routes.js';
import { diffRoutes } from './diff-routes.js';
import { metapathRoutes } from './metapath-routes.js';
import { originalRoutes } from './original-routes.js';
import { resolutionRoutes } from './resolution-routes.js';
import { snapshotReadRoutes } from './snapshot-routes.js';
import { LIST_QUERYSTRING, listPage, type ListQuerystring } from '../list-page.js';
import {
  CONDITIONAL,
  describe,
  empty,
  HEADERS,
  json,
  jsonBody,
  NOT_MODIFIED,
  oscal,
  OSCAL_BODY,
  ref,
  TAGS,
} from '../openapi.js';

export interface GenericDeps {
  store: Store;
  documents: DocumentService;
  content: ContentService;
  workers?: RenditionWorkers;
  attachments: AttachmentService;
  snapshots: SnapshotService;
  resolution: ResolutionService;
  aliases: AliasService;
  diff: DiffService;
  search: SearchService;
  metapath: MetapathService;
  publicUrl: string;
  maxAttachment: number;
}

/** ?alias= and ?keep-findings= of writes, read by the handler (queryAliases, keepFindingsOf), for the description only. */
const WRITE_QUERY = {
  type: 'object',
  properties: {
    alias: {
      type: 'array',
      items: { type: 'string', maxLength: 1000 },
      description: 'a name profile imports may find the document by (a file name or URL); repeatable',
    },
    'keep-findings': KEEP_FINDINGS_PARAM,
  },
} as const;

const UNKNOWN_MODEL = 'The path names no OSCAL model type (unknown-model)';
const NO_DOCUMENT = 'No such document, or the caller may not read it';

export async function genericRoutes(app: FastifyInstance, deps: GenericDeps): Promise<void> {
  const { documents, content, store } = deps;
  const base = `${deps.publicUrl}/oscal/v1`;

  app.get<{ Params: { model: string }; Querystring: ListQuerystring }>(
    '/:model',
    {
      ...describe({
        operationId: 'listDocuments',
        summary: 'List the documents of a model that the caller may read',
        tags: [TAGS.documents],
        access: 'optional',
        description:
          "Anonymous callers see the public documents. Paged: `limit` and the opaque `cursor` of the Link header's next page.",
        params: { type: 'object', properties: { model: modelParam }, required: ['model'] },
        querystring: LIST_QUERYSTRING,
        responses: {
          200: json('One page of the list, under "<model>-list"', ref('ContentList'), { headers: HEADERS.link }),
          400: 'A query parameter is out of range, or the cursor is not one this server gave out',
          422: UNKNOWN_MODEL,
        },
      }),
    },
    async (request, reply) => {
      const { model } = request.params;
      const items = await listPage(documents, request.identity, model, request.query, reply, `${base}/${model}`);
      return { [`${model}-list`]: items.map(listItem) };
    },
  );

  app.post<{ Params: { model: string }; Body: Buffer }>(
    '/:model',
    {
      ...describe({
        operationId: 'createDocument',
        summary: 'Create a document from OSCAL content in JSON, XML or YAML',
        tags: [TAGS.documents],
        access: 'required',
        description:
          'Content-Type names the format: application/json, application/xml or application/yaml (also application/oscal+json, text/xml, application/oscal+xml, text/yaml, application/x-yaml). The server sets the content uuid (metadata document-ids) unless the document carries one. Needs the writer or admin role.',
        params: { type: 'object', properties: { model: modelParam }, required: ['model'] },
        query: WRITE_QUERY,
        body: OSCAL_BODY,
        responses: {
          201: json(
            'Created: the list item, and its findings (below the reject level, or any with keep-findings)',
            ref('ContentCreated'),
            {
              headers: HEADERS.location,
            },
          ),
          400: 'The body is not well-formed in its format, an alias is not acceptable, or keep-findings is neither true nor false',
          401: 'No credentials, or refused ones',
          403: 'Creating documents needs the writer or admin role',
          409: 'A document with this content uuid already exists',
          413: 'The body is larger than this server accepts',
          415: "Content-Type is missing or names no OSCAL format, or the body's encoding is not read",
          422: 'Not valid OSCAL, another model than the path names, a content identifier that is not acceptable, findings at the reject level (without keep-findings), or an unknown model type in the path',
        },
      }),
    },
    async (request, reply) => {
      const { model } = request.params;
      const given = queryAliases(request);
      const { record, jobs, findings } = await documents.create(
        request.identity,
        model,
        bodyOf(request),
        request.headers['content-type'],
        { keepFindings: keepFindingsOf(request) },
      );
      await deps.aliases.add(request.identity, record.id, given);
      if (jobs.length) deps.workers?.wake();
      reply.code(201).header('Location', `${base}/${model}/${record.id}`);
      // What was found below the reject level travels beside the list item the interface specifies.
      return {
        [`${model}-list`]: [listItem(record)],
        ...(findings.length ? { findings: findings.map(findingJson) } : {}),
      };
    },
  );

  app.get<{ Params: { model: string; id: string } }>(
    '/:model/:id',
    {
      ...describe({
        operationId: 'getDocument',
        summary: 'Read a document in the format the Accept header asks for',
        tags: [TAGS.documents],
        access: 'optional',
        description:
          "Accept: application/json (also absent or */*), application/xml or application/yaml, with q weights. A large document's other formats may still be in the making: 202 with the job.",
        params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] },
        headers: CONDITIONAL,
        responses: {
          200: oscal('The current revision in the asked format'),
          202: json('The format is still being made: the job, also in Location', ref('Job'), {
            headers: HEADERS.location,
          }),
          304: NOT_MODIFIED,
          404: NO_DOCUMENT,
          406: 'Accept names no format this server produces, or the document cannot be given in the asked one',
          409: 'The document kept changing while it was read',
          422: UNKNOWN_MODEL,
        },
      }),
    },
    async (request, reply) => {
      const { model, id } = request.params;
      const format = acceptedFormat(request.headers.accept);
      return retryWhenGone(async () => {
        const rendition = await content.rendition(request.identity, model, id, format);
        if (rendition.state === 'pending') {
          const location = `${base}/jobs/${rendition.job.id}`;
          return reply
            .code(202)
            .header('Location', location)
            .send({ job: { id: rendition.job.id, status: rendition.job.status, format, self: location } });
        }
        return sendStored(store, request, reply, rendition.hash, RESPONSE_TYPE[format]);
      });
    },
  );

  app.put<{ Params: { model: string; id: string }; Body: Buffer }>(
    '/:model/:id',
    {
      ...describe({
        operationId: 'replaceDocument',
        summary: 'Replace a document; adds a revision',
        tags: [TAGS.documents],
        access: 'required',
        description:
          'The content, in any of the three formats, becomes the next revision. Owner, admin or a holder of a write grant.',
        params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] },
        query: WRITE_QUERY,
        body: OSCAL_BODY,
        responses: {
          204: empty('Replaced'),
          400: 'The body is not well-formed in its format, an alias is not acceptable, or keep-findings is neither true nor false',
          401: 'No credentials, or refused ones',
          403: 'The caller may read the document but not change it',
          404: NO_DOCUMENT,
          409: "The document's content identifier differs from the one in the path",
          413: 'The body is larger than this server accepts',
          415: "Content-Type is missing or names no OSCAL format, or the body's encoding is not read",
          422: 'Not valid OSCAL, another model, findings at the reject level (without keep-findings), or an unknown model type in the path',
        },
      }),
    },
    async (request, reply) => {
      const { model, id } = request.params;
      const given = queryAliases(request);
      const { jobs } = await documents.replace(
        request.identity,
        model,
        id,
        bodyOf(request),
        request.headers['content-type'],
        { keepFindings: keepFindingsOf(request) },
      );
      await deps.aliases.add(request.identity, id, given);
      if (jobs.length) deps.workers?.wake();
      return reply.code(204).send();
    },
  );

  app.delete<{ Params: { model: string; id: string } }>(
    '/:model/:id',
    {
      ...describe({
        operationId: 'deleteDocument',
        summary: 'Delete a document with all its revisions',
        tags: [TAGS.documents],
        access: 'required',
        params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] },
        responses: {
          204: empty('Deleted'),
          401: 'No credentials, or refused ones',
          403: 'Only the owner or an admin may delete it',
          404: NO_DOCUMENT,
          409: 'The document is under a legal hold',
          422: UNKNOWN_MODEL,
        },
      }),
    },
    async (request, reply) => {
      await documents.remove(request.identity, request.params.model, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { model: string; id: string } }>(
    '/:model/:id/access',
    {
      ...describe({
        operationId: 'getAccess',
        summary: 'Owner, visibility, grants and legal hold of a document',
        tags: [TAGS.access],
        access: 'required',
        params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] },
        responses: {
          200: json('The access settings', ref('AccessSettings')),
          401: 'No credentials, or refused ones',
          403: 'Only the owner or an admin may see them',
          404: NO_DOCUMENT,
          422: UNKNOWN_MODEL,
        },
      }),
    },
    async (request) => accessBody(await documents.access(request.identity, request.params.model, request.params.id)),
  );

  app.put<{ Params: { model: string; id: string }; Body: Buffer }>(
    '/:model/:id/access',
    {
      ...describe({
        operationId: 'changeAccess',
        summary: 'Change visibility and grants (and, for admins, the legal hold)',
        tags: [TAGS.access],
        access: 'required',
        params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] },
        body: jsonBody(ref('AccessChange')),
        responses: {
          200: json('The access settings after the change', ref('AccessSettings')),
          400: 'The body is not valid JSON, or not valid access settings',
          401: 'No credentials, or refused ones',
          403: 'Only the owner or an admin may change them; only an admin the legal hold',
          404: NO_DOCUMENT,
          413: 'The body is larger than settings can be',
          415: 'The body is not application/json',
          422: UNKNOWN_MODEL,
        },
      }),
    },
    async (request) => {
      const change = parseAccessChange(request);
      return accessBody(await documents.setAccess(request.identity, request.params.model, request.params.id, change));
    },
  );

  await app.register(async (scope) =>
    attachmentRoutes(scope, { attachments: deps.attachments, base, maxAttachment: deps.maxAttachment }),
  );

  const snapshotParams = {
    type: 'object',
    properties: { model: modelParam, id: idParam, snapshot: snapshotParam },
    required: ['model', 'id'],
  } as const;
  app.post<{ Params: { model: string; id: string } }>(
    '/:model/:id/snapshot',
    {
      ...describe({
        operationId: 'createSnapshot',
        summary: 'Snapshot the current content; the server sets snapshot-created',
        tags: [TAGS.snapshots],
        access: 'required',
        description:
          'The body (optional) gives the description, labels and types. Owner, admin or a holder of a write grant.',
        params: snapshotParams,
        body: jsonBody(ref('SnapshotNotes'), false),
        responses: {
          201: json('The snapshot', ref('SnapshotEntry'), { headers: HEADERS.location }),
          400: 'The body is not valid JSON, or not valid snapshot settings (snapshot-created cannot be set)',
          401: 'No credentials, or refused ones',
          403: 'The caller may read the document but not change it',
          404: NO_DOCUMENT,
          409: 'The document is under a legal hold, or kept changing',
          413: 'The body is larger than this server accepts',
          415: 'A body that is not application/json',
          422: UNKNOWN_MODEL,
        },
      }),
    },
    async (request, reply) => {
      const { model, id } = request.params;
      const snapshot = await deps.snapshots.create(
        request.identity,
        model,
        id,
        bodyOf(request),
        request.headers['content-type'],
      );
      return reply
        .code(201)
        .header('Location', `${base}/${model}/${id}/snapshot/${snapshot.id}`)
        .send(snapshotEntry(snapshot));
    },
  );
  snapshotReadRoutes(app, {
    store,
    snapshots: deps.snapshots,
    kind: 'content',
    prefix: '/:model/:id/snapshot',
    listName: (model) => `${model}-snapshot-list`,
    params: snapshotParams,
    describe: { name: 'Snapshot', tag: TAGS.snapshots, list: 'SnapshotList' },
  });
  resolutionRoutes(app, { store, resolution: deps.resolution, snapshots: deps.snapshots, base });
  aliasRoutes(app, {
    aliases: deps.aliases,
    params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] },
  });
  originalRoutes(app, { store, documents });
  searchRoutes(app, { search: deps.search, base });
  await diffRoutes(app, { diff: deps.diff });
  metapathRoutes(app, { metapath: deps.metapath });

  app.get<{ Params: { id: string } }>(
    '/jobs/:id',
    {
      ...describe({
        operationId: 'getJob',
        summary: 'A conversion job: 200 while it runs, 303 to the content when done',
        tags: [TAGS.documents],
        access: 'optional',
        params: { type: 'object', properties: { id: uuidParam('the job id') }, required: ['id'] },
        responses: {
          200: json('The job, queued, running or failed', ref('Job')),
          303: empty('Done: the document, in Location', HEADERS.location),
          404: 'No such job, or the caller may not read its document',
        },
      }),
    },
    async (request, reply) => {
      const { job, model } = await content.job(request.identity, request.params.id);
      if (job.status === 'done') return reply.code(303).header('Location', `${base}/${model}/${job.documentId}`).send();
      return {
        job: {
          id: job.id,
          status: job.status,
          format: job.format,
          ...(job.error ? { error: job.error } : {}),
          self: `${base}/jobs/${job.id}`,
        },
      };
    },
  );
}

function accessBody(access: { owner: string; visibility: Visibility; legalHold: boolean; grants: Grant[] }) {
  return { owner: access.owner, visibility: access.visibility, 'legal-hold': access.legalHold, grants: access.grants };
}

/** The access settings of a PUT: the service's rule, over the JSON body. */
function parseAccessChange(request: FastifyRequest): AccessChange {
  return accessChangeOf(jsonBodyOf(request, 'the access settings are'));
}
