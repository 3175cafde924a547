import type { FastifyInstance } from 'fastify';
import { METAPATH_LIMITS, type MetapathService } from '../../service/metapath.js';
import { documentParams } from '../params.js';
import { describe, json, TAGS } from '../openapi.js';

const QUERY = {
  type: 'object',
  properties: {
    expression: {
      type: 'string',
      minLength: 1,
      maxLength: 4000,
      description:
        "a Metapath expression, evaluated with the document node as its context: //control[@id='ac-1']/title",
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: METAPATH_LIMITS.maxItems,
      description: `items given at most (${METAPATH_LIMITS.maxItems} by default and at most); count is of all`,
    },
  },
  required: ['expression'],
  additionalProperties: false,
} as const;

interface Query {
  expression: string;
  limit?: number;
}

const ITEM = {
  type: 'object',
  description:
    'A node (kind node: metapath, pointer, text), an atomic value (kind atomic: type, value), or a map, array or function rendered as JSON (value)',
  properties: {
    kind: { type: 'string', enum: ['node', 'atomic', 'map', 'array', 'function'] },
    metapath: { type: 'string', description: 'the Metapath of the node, each step with its position: /catalog[1]/…' },
    pointer: { type: 'string', description: 'JSON pointer to the node in the JSON form' },
    text: { type: 'string', description: "the node's value, or the start of its text, whitespace collapsed" },
    type: { type: 'string', description: 'the atomic type: xs:string, xs:integer, …' },
    value: {
      description:
        'an atomic value: a boolean as a boolean, an integer as a number, others as their text; of a map, array or function, its JSON rendering',
    },
    'value-truncated': {
      type: 'boolean',
      description: `the value was longer than ${METAPATH_LIMITS.maxValueLength} characters (of a map or array, its members counted too); its start is given`,
    },
  },
  required: ['kind'],
  additionalProperties: false,
} as const;

const RESULT = {
  type: 'object',
  properties: {
    revision: { type: 'integer', description: 'the revision the expression was evaluated over' },
    count: { type: 'integer', minimum: 0, description: 'the number of items of the result' },
    truncated: { type: 'boolean', description: 'items holds only the first of them' },
    items: { type: 'array', items: ITEM },
  },
  required: ['revision', 'count', 'truncated', 'items'],
  additionalProperties: false,
} as const;

/** Metapath over a stored document: reading it through an expression, one item of the result a JSON object. */
export function metapathRoutes(app: FastifyInstance, deps: { metapath: MetapathService }): void {
  app.get<{ Params: { model: string; id: string }; Querystring: Query }>(
    '/:model/:id/metapath',
    describe({
      operationId: 'evaluateMetapath',
      summary: 'Evaluate a Metapath expression over the current revision of a document',
      description: `The result sequence, each item as JSON: first ${METAPATH_LIMITS.maxItems} items at most, with the count of all. An evaluation is stopped after ${METAPATH_LIMITS.timeLimitMs / 1000} s or ${METAPATH_LIMITS.memoryMb} MB (expression-too-costly). doc() and resolve-profile() reach no other document. Anonymous callers may query public documents.`,
      tags: [TAGS.documents],
      access: 'optional',
      params: documentParams(),
      querystring: QUERY,
      responses: {
        200: json('The result sequence', RESULT),
        400: 'The expression is not valid Metapath (invalid-expression, naming the line and column), or a query parameter is not valid',
        401: 'Credentials were refused',
        404: 'No such document, or the caller may not read it',
        409: 'The document kept changing while it was read',
        422: 'The expression failed when evaluated (expression-failed), was stopped for its cost (expression-too-costly), or the path names no OSCAL model type (unknown-model)',
      },
    }),
    async (request) => {
      const { model, id } = request.params;
      const { expression, limit } = request.query;
      return deps.metapath.evaluateStored(request.identity, model, id, expression, limit);
    },
  );
}
