import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkedAliases, type AliasList, type AliasService } from '../../service/aliases.js';
import { refuse } from '../../errors.js';
import { jsonBodyOf } from '../request-body.js';
import { describe, json, jsonBody, ref, TAGS } from '../openapi.js';

type Params = { model: string; id: string };

function aliasesJson(list: AliasList): Record<string, string[]> {
  return { aliases: list.aliases, 'from-metadata': list.fromMetadata };
}

/** The body of PUT .../aliases: {"aliases": [...]}. */
function bodyAliases(request: FastifyRequest): string[] {
  const body = jsonBodyOf(request, 'the aliases are');
  const keys = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
  if (keys.length !== 1 || keys[0] !== 'aliases')
    throw refuse('bad-request', 'the body must be {"aliases": ["...", ...]}');
  return checkedAliases((body as { aliases: unknown }).aliases, 'aliases');
}

/** Aliases given with a write: ?alias=... (repeatable). */
export function queryAliases(request: FastifyRequest): string[] {
  const value = (request.query as { alias?: unknown } | undefined)?.alias;
  if (value === undefined) return [];
  return checkedAliases(Array.isArray(value) ? value : [value], '?alias=');
}

/** GET and PUT /{model}/{id}/aliases: the names other documents import this one by. */
export function aliasRoutes(app: FastifyInstance, deps: { aliases: AliasService; params: object }): void {
  app.get<{ Params: Params }>(
    '/:model/:id/aliases',
    {
      ...describe({
        operationId: 'getAliases',
        summary: 'The aliases a document is known by to profile imports: given ones, and those its metadata holds',
        tags: [TAGS.aliases],
        access: 'optional',
        params: deps.params,
        responses: {
          200: json('The aliases', ref('AliasList')),
          404: 'No such document, or the caller may not read it',
          422: 'The path names no OSCAL model type (unknown-model)',
        },
      }),
    },
    async (request) => aliasesJson(await deps.aliases.list(request.identity, request.params.model, request.params.id)),
  );

  app.put<{ Params: Params }>(
    '/:model/:id/aliases',
    {
      ...describe({
        operationId: 'replaceAliases',
        summary: 'Replace the aliases given to a document (file names or URLs that profiles import it by)',
        tags: [TAGS.aliases],
        access: 'required',
        params: deps.params,
        body: jsonBody(ref('AliasChange')),
        responses: {
          200: json('The aliases after the change', ref('AliasList')),
          400: 'The body is not {"aliases": [...]} with acceptable aliases',
          401: 'No credentials, or refused ones',
          403: 'The caller may read the document but not change it',
          404: 'No such document, or the caller may not read it',
          413: 'The body is larger than this server accepts',
          415: 'The body is not application/json',
          422: 'The path names no OSCAL model type (unknown-model)',
        },
      }),
    },
    async (request) =>
      aliasesJson(
        await deps.aliases.replace(request.identity, request.params.model, request.params.id, bodyAliases(request)),
      ),
  );
}
