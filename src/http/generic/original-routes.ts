import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { retryWhenGone } from '../../service/content.js';
import type { DocumentService } from '../../service/documents.js';
import { RESPONSE_TYPE } from '../../service/media-types.js';
import type { Store } from '../../store/types.js';
import { sendStored } from '../send-rendition.js';
import { idParam, modelParam } from '../params.js';
import { CONDITIONAL, describe, HEADERS, NOT_MODIFIED, OSCAL_CONTENT, TAGS, type ResponseSpec } from '../openapi.js';

const params = {
  type: 'object',
  properties: {
    model: modelParam,
    id: idParam,
    // Revisions are numbered from 1; any other segment names no resource (404).
    revision: { type: 'string', pattern: '^[1-9][0-9]{0,8}$', description: 'the revision number, from 1' },
  },
  required: ['model', 'id'],
} as const;

type Request = FastifyRequest<{ Params: { model: string; id: string; revision?: string } }>;

/**
 * The bytes a revision was written as, exactly as received (generic-interface 4.2, POST rule 4
 * keeps "the original content exactly as received"), with the media type of their format: the
 * current revision's, and any kept revision's by number.
 */
export function originalRoutes(app: FastifyInstance, deps: { store: Store; documents: DocumentService }): void {
  const send = (request: Request, reply: FastifyReply) =>
    retryWhenGone(async () => {
      const { model, id, revision } = request.params;
      const original = await deps.documents.original(
        request.identity,
        model,
        id,
        revision === undefined ? undefined : Number(revision),
      );
      return sendStored(deps.store, request, reply, original.hash, RESPONSE_TYPE[original.format]);
    });
  const responses = (what: string, missing: string): Record<number, ResponseSpec> => ({
    200: {
      description: `${what} as received, with the media type of its format`,
      content: OSCAL_CONTENT,
      headers: HEADERS.etag,
    },
    304: NOT_MODIFIED,
    401: 'No credentials, or refused ones',
    403: 'Only the owner or an admin may read the bytes as sent',
    404: missing,
    409: 'The document kept changing while it was read',
    422: 'The path names no OSCAL model type (unknown-model)',
  });
  app.get(
    '/:model/:id/original',
    describe({
      operationId: 'getOriginal',
      summary: 'The current revision as it was received, byte for byte (owner or admin)',
      tags: [TAGS.documents],
      access: 'required',
      params,
      headers: CONDITIONAL,
      responses: responses('The current revision', 'No such document, or the caller may not read it'),
    }),
    send,
  );
  app.get(
    '/:model/:id/revision/:revision/original',
    describe({
      operationId: 'getRevisionOriginal',
      summary: 'A revision as it was received, byte for byte (owner or admin)',
      tags: [TAGS.documents],
      access: 'required',
      params: { ...params, required: ['model', 'id', 'revision'] },
      headers: CONDITIONAL,
      responses: responses(
        'The revision',
        'No such document or revision (a revision number is from 1), or the caller may not read the document',
      ),
    }),
    send,
  );
}
