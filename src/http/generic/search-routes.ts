import type { FastifyInstance } from 'fastify';
import { MODELS } from '../../oscal/model/models.js';
import type { SearchResult, SearchService } from '../../service/search.js';
import { RANKED_MATCHES } from '../../store/search-query.js';
import { describe, HEADERS, json, ref, TAGS } from '../openapi.js';
import { listItem } from './list-item.js';

type Querystring = { q?: string; model?: string; 'control-id'?: string; limit: number; cursor?: string };

/** The store's snippet marks matched runs with \u0002 and \u0003: a client gets plain text and offsets. */
function highlighted(snippet: string): { snippet: string; highlights: [number, number][] } {
  let text = '';
  let start = -1;
  const highlights: [number, number][] = [];
  for (const ch of snippet) {
    if (ch === '\u0002') start = text.length;
    else if (ch === '\u0003') {
      if (start >= 0 && text.length > start) highlights.push([start, text.length]);
      start = -1;
    } else text += ch;
  }
  return { snippet: text, highlights };
}

function resultJson({ hit, document }: SearchResult): Record<string, unknown> {
  return {
    ...listItem(document),
    model: hit.model,
    path: hit.path,
    kind: hit.kind,
    ...(hit.key !== undefined ? { key: hit.key } : {}),
    ...(hit.title !== undefined ? { 'object-title': hit.title } : {}),
    ...highlighted(hit.snippet),
  };
}

/** GET /search: located hits across every document the caller may read (issue 22). */
export function searchRoutes(app: FastifyInstance, deps: { search: SearchService; base: string }): void {
  app.get<{ Querystring: Querystring }>(
    '/search',
    describe({
      operationId: 'search',
      summary: 'Full-text search: objects of the documents the caller may read, best first',
      tags: [TAGS.documents],
      access: 'optional',
      description:
        'Words (all must match), "phrases", prefixes (crypt*) and control ids (ac-2.1 and AC-2(1) alike) over titles, Markdown text, prop values, ids, parameter labels and values, names. Filters: model, control-id. ' +
        `The newest ${RANKED_MATCHES.toLocaleString('en-US')} matches are ranked, best first; any further matches follow them, newest first. ` +
        'Paging as the lists: the next page in a Link header.',
      querystring: {
        type: 'object',
        properties: {
          q: { type: 'string', maxLength: 500, description: 'what to find' },
          model: { type: 'string', enum: [...MODELS] },
          'control-id': { type: 'string', maxLength: 100, description: 'only objects about this control' },
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          cursor: { type: 'string', maxLength: 200 },
        },
        additionalProperties: false,
      },
      responses: {
        200: json('The hits, with their documents’ list fields', ref('SearchResults'), { headers: HEADERS.link }),
        400: 'Neither q nor control-id, a malformed cursor, or a parameter out of range',
      },
    }),
    async (request, reply) => {
      const query = request.query;
      const { results, next } = await deps.search.search(request.identity, {
        limit: query.limit,
        ...(query.q !== undefined ? { q: query.q } : {}),
        ...(query.model !== undefined ? { model: query.model } : {}),
        ...(query['control-id'] !== undefined ? { controlId: query['control-id'] } : {}),
        ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
      });
      if (next) {
        const params = new URLSearchParams();
        for (const [key, value] of Object.entries(query)) if (key !== 'cursor') params.set(key, String(value));
        params.set('cursor', next);
        reply.header('Link', `<${deps.base}/search?${params}>; rel="next"`);
      }
      return { 'search-results': results.map(resultJson) };
    },
  );
}
