import type { FastifyInstance } from 'fastify';
import { serializeOscal } from '../../oscal/formats/index.js';
import type { ResolutionWarning } from '../../oscal/resolve/index.js';
import { acceptedFormat, RESPONSE_TYPE } from '../../service/media-types.js';
import type { ResolutionService } from '../../service/resolution.js';
import { snapshotEntry, type SnapshotService } from '../../service/snapshots.js';
import type { Store } from '../../store/types.js';
import { snapshotParam, uuidParam } from '../params.js';
import { bodyOf } from '../request-body.js';
import { snapshotReadRoutes } from './snapshot-routes.js';
import { describe, json, jsonBody, OSCAL_CONTENT, ref, TAGS } from '../openapi.js';

/** Header room for warnings: proxies commonly refuse header lines past 8 KB. */
const WARNINGS_HEADER_LIMIT = 6000;

/**
 * The warnings as a JSON array in one header line, ASCII only; as many as fit, the count in
 * Resolution-Warning-Count tells whether some were left out.
 */
function warningsHeader(warnings: ResolutionWarning[]): string {
  const ascii = (text: string) =>
    text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  let value = '[]';
  for (let n = 1; n <= warnings.length; n++) {
    const next = ascii(JSON.stringify(warnings.slice(0, n)));
    if (next.length > WARNINGS_HEADER_LIMIT) break;
    value = next;
  }
  return value;
}

/** Profile resolution (generic-interface 4.5, D8, D10). */
export function resolutionRoutes(
  app: FastifyInstance,
  deps: { store: Store; resolution: ResolutionService; snapshots: SnapshotService; base: string },
): void {
  const params = {
    type: 'object',
    properties: { id: uuidParam('the content uuid of the profile'), snapshot: snapshotParam },
    required: ['id'],
  } as const;
  const cannotResolve =
    'The profile cannot be resolved (an import not found or not readable, a circular import, an invalid directive, ...): the chain of imports in errors';

  app.get<{ Params: { id: string } }>(
    '/profile/:id/resolved-catalog',
    {
      ...describe({
        operationId: 'resolveProfile',
        summary: 'Resolve the profile now; warnings in the Resolution-Warnings header (JSON)',
        tags: [TAGS.resolution],
        access: 'optional',
        params,
        description:
          'Imports come from this store (as the caller may read them, by URL or alias), the configured import map, and the network for allowed hosts only.',
        responses: {
          200: {
            description: 'The resolved catalog in the asked format',
            content: OSCAL_CONTENT,
            headers: {
              'Resolution-Warnings': {
                type: 'string',
                description: 'the warnings as a JSON array of {code, message, path, profile?}, as many as fit, ASCII',
              },
              'Resolution-Warning-Count': { type: 'string', description: 'how many warnings there were' },
            },
          },
          404: 'No such profile, or the caller may not read it',
          406: 'Accept names no format this server produces',
          409: 'The profile kept changing while it was read',
          422: cannotResolve,
        },
      }),
    },
    async (request, reply) => {
      const format = acceptedFormat(request.headers.accept);
      const resolved = await deps.resolution.resolve(request.identity, request.params.id);
      reply
        .header('Resolution-Warning-Count', String(resolved.warnings.length))
        .header('Resolution-Warnings', warningsHeader(resolved.warnings))
        .header('Vary', 'Accept, Accept-Encoding');
      return reply.type(RESPONSE_TYPE[format]).send(serializeOscal(resolved.document, format));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/profile/:id/resolved-snapshot',
    {
      ...describe({
        operationId: 'createResolvedSnapshot',
        summary: 'Resolve the profile and keep the result as a resolved snapshot',
        tags: [TAGS.resolution],
        access: 'required',
        params,
        description:
          'The body (optional) gives the description, labels and types; the type resolved-profile is always among them.',
        body: jsonBody(ref('SnapshotNotes'), false),
        responses: {
          201: json('The resolved snapshot, with the warnings of the resolution', ref('SnapshotEntry'), {
            headers: { Location: { type: 'string', description: 'the URL of the snapshot' } },
          }),
          400: 'The body is not valid JSON, or not valid snapshot settings',
          401: 'No credentials, or refused ones',
          403: 'The caller may read the profile but not change it',
          404: 'No such profile, or the caller may not read it',
          409: 'The profile is under a legal hold, or kept changing',
          413: 'The body is larger than this server accepts',
          415: 'A body that is not application/json',
          422: cannotResolve,
        },
      }),
    },
    async (request, reply) => {
      const snapshot = await deps.resolution.snapshot(
        request.identity,
        request.params.id,
        bodyOf(request),
        request.headers['content-type'],
      );
      return reply
        .code(201)
        .header('Location', `${deps.base}/profile/${request.params.id}/resolved-snapshot/${snapshot.id}`)
        .send(snapshotEntry(snapshot));
    },
  );

  snapshotReadRoutes(app, {
    store: deps.store,
    snapshots: deps.snapshots,
    kind: 'resolved',
    prefix: '/profile/:id/resolved-snapshot',
    listName: () => 'resolved-snapshot-list',
    params,
    model: 'profile',
    describe: { name: 'ResolvedSnapshot', tag: TAGS.resolution, list: 'ResolvedSnapshotList' },
  });
}
