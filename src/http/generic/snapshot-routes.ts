import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializeOscal } from '../../oscal/formats/index.js';
import { retryWhenGone } from '../../service/content.js';
import { acceptedFormat, RESPONSE_TYPE } from '../../service/media-types.js';
import { snapshotEntry, type SnapshotService } from '../../service/snapshots.js';
import type { SnapshotKind, SnapshotRecord, Store } from '../../store/types.js';
import { bodyOf } from '../request-body.js';
import { sendStored } from '../send-rendition.js';
import { CONDITIONAL, describe, empty, json, jsonBody, NOT_MODIFIED, oscal, ref, type Tag } from '../openapi.js';

export type SnapshotParams = { model: string; id: string; snapshot: string };

/** One snapshot in the format Accept asks for: the stored JSON form, or a rendition made now; ContentGone as sendStored. */
export async function sendSnapshot(
  store: Store,
  snapshots: SnapshotService,
  snapshot: SnapshotRecord,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const format = acceptedFormat(request.headers.accept);
  if (format === 'json') return sendStored(store, request, reply, snapshot.canonicalHash, RESPONSE_TYPE.json);
  const text = serializeOscal(await snapshots.content(snapshot), format);
  return reply
    .header('ETag', `W/"${snapshot.canonicalHash}-${format}"`)
    .header('Vary', 'Accept, Accept-Encoding')
    .type(RESPONSE_TYPE[format])
    .send(text);
}

/**
 * The snapshot endpoints that content and resolved snapshots share: list, read, annotate,
 * delete under `{prefix}` (e.g. `/:model/:id/snapshot`). Making one differs, so the caller adds it.
 */
export function snapshotReadRoutes(
  app: FastifyInstance,
  deps: {
    store: Store;
    snapshots: SnapshotService;
    kind: SnapshotKind;
    prefix: string;
    listName: (model: string) => string;
    params: object;
    /** The model, when the prefix names it rather than a `:model` parameter. */
    model?: string;
    /** How the description tells the two kinds apart: operationIds, tag and list schema. */
    describe: { name: string; tag: Tag; list: string };
  },
): void {
  const { store, snapshots, kind, prefix, params } = deps;
  const { name, tag, list } = deps.describe;
  const what = `${kind} snapshot`;
  const problems: Record<number, string> = {
    404: `No such document or ${what}, or the caller may not read the document`,
  };
  if (deps.model === undefined) problems[422] = 'The path names no OSCAL model type (unknown-model)';
  const paramsOf = (request: FastifyRequest<{ Params: SnapshotParams }>) => ({
    ...request.params,
    model: deps.model ?? request.params.model,
  });
  app.get<{ Params: SnapshotParams }>(
    prefix,
    describe({
      operationId: `list${name}s`,
      summary: `List the ${kind} snapshots`,
      tags: [tag],
      access: 'optional',
      params,
      responses: { 200: json(`The ${kind} snapshots`, ref(list)), ...problems },
    }),
    async (request) => {
      const { model, id } = paramsOf(request);
      return { [deps.listName(model)]: (await snapshots.list(request.identity, model, id, kind)).map(snapshotEntry) };
    },
  );

  app.get<{ Params: SnapshotParams }>(
    `${prefix}/:snapshot`,
    describe({
      operationId: `get${name}`,
      summary: `One ${kind} snapshot, in the format Accept asks for`,
      tags: [tag],
      access: 'optional',
      params,
      headers: CONDITIONAL,
      responses: {
        200: oscal(`The ${what}: a document carrying its snapshot props`),
        304: NOT_MODIFIED,
        406: 'Accept names no format this server produces, or the snapshot cannot be given in the asked one',
        409: 'The document kept changing while it was read',
        ...problems,
      },
    }),
    async (request, reply) => {
      const { model, id, snapshot } = paramsOf(request);
      return retryWhenGone(async () =>
        sendSnapshot(
          store,
          snapshots,
          await snapshots.get(request.identity, model, id, kind, snapshot),
          request,
          reply,
        ),
      );
    },
  );

  app.put<{ Params: SnapshotParams }>(
    `${prefix}/:snapshot`,
    describe({
      operationId: `annotate${name}`,
      summary: 'Change the description, labels and types of a snapshot',
      tags: [tag],
      access: 'required',
      params,
      description:
        'What the body leaves out stays; snapshot-created never changes. Owner, admin or a holder of a write grant.',
      body: jsonBody(ref('SnapshotNotes'), false),
      responses: {
        200: json(`The ${what} after the change`, ref('SnapshotEntry')),
        400: 'The body is not valid JSON, or not valid snapshot settings (snapshot-created cannot be changed)',
        401: 'No credentials, or refused ones',
        403: 'The caller may read the document but not change it',
        409: 'The document is under a legal hold, or kept changing',
        413: 'The body is larger than this server accepts',
        415: 'A body that is not application/json',
        ...problems,
      },
    }),
    async (request) => {
      const { model, id, snapshot } = paramsOf(request);
      return snapshotEntry(
        await snapshots.annotate(
          request.identity,
          model,
          id,
          kind,
          snapshot,
          bodyOf(request),
          request.headers['content-type'],
        ),
      );
    },
  );

  app.delete<{ Params: SnapshotParams }>(
    `${prefix}/:snapshot`,
    describe({
      operationId: `delete${name}`,
      summary: 'Delete a snapshot',
      tags: [tag],
      access: 'required',
      params,
      responses: {
        204: empty('Deleted'),
        401: 'No credentials, or refused ones',
        403: 'Only the owner or an admin may delete snapshots',
        409: 'The document is under a legal hold',
        ...problems,
      },
    }),
    async (request, reply) => {
      const { model, id, snapshot } = paramsOf(request);
      await snapshots.remove(request.identity, model, id, kind, snapshot);
      return reply.code(204).send();
    },
  );
}
