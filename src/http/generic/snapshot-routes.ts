import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializeOscal } from '../../oscal/formats/index.js';
import { retryWhenGone } from '../../service/content.js';
import { ServiceError } from '../../service/errors.js';
import { negotiateFormat, RESPONSE_TYPE } from '../../service/media-types.js';
import { snapshotEntry, type SnapshotService } from '../../service/snapshots.js';
import type { SnapshotKind, SnapshotRecord, Store } from '../../store/types.js';
import { bodyOf } from '../request-body.js';
import { sendStored } from '../send-rendition.js';

export type SnapshotParams = { model: string; id: string; snapshot: string };

/** One snapshot in the format Accept asks for: the stored JSON form, or a rendition made now; ContentGone as sendStored. */
export async function sendSnapshot(store: Store, snapshots: SnapshotService, snapshot: SnapshotRecord, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const format = negotiateFormat(request.headers.accept);
  if (!format) throw new ServiceError(406, 'not-acceptable', 'Accept names no format this server produces: use application/json, application/xml or application/yaml');
  if (format === 'json') return sendStored(store, request, reply, snapshot.canonicalHash, RESPONSE_TYPE.json);
  const text = serializeOscal(await snapshots.content(snapshot), format);
  return reply.header('ETag', `W/"${snapshot.canonicalHash}-${format}"`).header('Vary', 'Accept, Accept-Encoding').type(RESPONSE_TYPE[format]).send(text);
}

/**
 * The snapshot endpoints that content and resolved snapshots share: list, read, annotate,
 * delete under `{prefix}` (e.g. `/:model/:id/snapshot`). Making one differs, so the caller adds it.
 */
export function snapshotReadRoutes(app: FastifyInstance, deps: {
  store: Store; snapshots: SnapshotService; kind: SnapshotKind; prefix: string; listName: (model: string) => string; params: object;
  /** The model, when the prefix names it rather than a `:model` parameter. */
  model?: string;
}): void {
  const { store, snapshots, kind, prefix, params } = deps;
  const paramsOf = (request: FastifyRequest<{ Params: SnapshotParams }>) => ({ ...request.params, model: deps.model ?? request.params.model });
  app.get<{ Params: SnapshotParams }>(prefix, { schema: { summary: `List the ${kind} snapshots`, params } }, async (request) => {
    const { model, id } = paramsOf(request);
    return { [deps.listName(model)]: (await snapshots.list(request.identity, model, id, kind)).map(snapshotEntry) };
  });

  app.get<{ Params: SnapshotParams }>(`${prefix}/:snapshot`, { schema: { summary: `One ${kind} snapshot, in the format Accept asks for`, params } }, async (request, reply) => {
    const { model, id, snapshot } = paramsOf(request);
    return retryWhenGone(async () => sendSnapshot(store, snapshots, await snapshots.get(request.identity, model, id, kind, snapshot.toLowerCase()), request, reply));
  });

  app.put<{ Params: SnapshotParams }>(`${prefix}/:snapshot`, { schema: { summary: 'Change the description, labels and types of a snapshot', params } }, async (request) => {
    const { model, id, snapshot } = paramsOf(request);
    return snapshotEntry(await snapshots.annotate(request.identity, model, id, kind, snapshot.toLowerCase(), bodyOf(request), request.headers['content-type']));
  });

  app.delete<{ Params: SnapshotParams }>(`${prefix}/:snapshot`, { schema: { summary: 'Delete a snapshot', params } }, async (request, reply) => {
    const { model, id, snapshot } = paramsOf(request);
    await snapshots.remove(request.identity, model, id, kind, snapshot.toLowerCase());
    return reply.code(204).send();
  });
}
