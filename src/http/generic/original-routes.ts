import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { retryWhenGone } from '../../service/content.js';
import type { DocumentService } from '../../service/documents.js';
import { RESPONSE_TYPE } from '../../service/media-types.js';
import type { Store } from '../../store/types.js';
import { sendStored } from '../send-rendition.js';
import { MODELS } from './models.js';

const params = {
  type: 'object',
  properties: {
    model: { type: 'string', enum: [...MODELS] },
    id: { type: 'string', maxLength: 64 },
    // Revisions are numbered from 1; any other segment names no resource (404).
    revision: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' },
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
  const send = (request: Request, reply: FastifyReply) => retryWhenGone(async () => {
    const { model, id, revision } = request.params;
    const original = await deps.documents.original(request.identity, model, id, revision === undefined ? undefined : Number(revision));
    return sendStored(deps.store, request, reply, original.hash, RESPONSE_TYPE[original.format]);
  });
  app.get('/:model/:id/original', {
    schema: { summary: 'The current revision as it was received, byte for byte (owner or admin)', params },
  }, send);
  app.get('/:model/:id/revision/:revision/original', {
    schema: { summary: 'A revision as it was received, byte for byte (owner or admin)', params: { ...params, required: ['model', 'id', 'revision'] } },
  }, send);
}
