import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { refuse } from '../../errors.js';
import type { DiffBody, DiffService } from '../../service/diff.js';
import { parseJsonBody } from '../../service/json-body.js';
import { malformedForm } from '../errors.js';
import { idParam, modelParam } from '../params.js';
import { bodyOf, MULTIPART_LIMITS } from '../request-body.js';
import { describe, json, ref, TAGS } from '../openapi.js';

export const IGNORE_VOLATILE = {
  type: 'boolean',
  default: false,
  description:
    "leave out what changes on every save without changing what the document says: metadata's last-modified and this server's content identifier",
} as const;

const SIDE = (which: string) =>
  ({
    type: 'string',
    maxLength: 100,
    description: `${which}: a revision number (1, 2, 3, …) or snapshot:<snapshot id> (a content or resolved snapshot)`,
  }) as const;

interface StoredQuery {
  from?: string;
  to?: string;
  'ignore-volatile': boolean;
}

const FORM_FIELDS = ['from', 'to'] as const;

/** The files "from" and "to" of a form, each with the type its part declares. */
async function formDocuments(request: FastifyRequest): Promise<Partial<Record<'from' | 'to', DiffBody>>> {
  const files: Partial<Record<'from' | 'to', DiffBody>> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      // Every file part is read to its end (the parser waits for that), but only "from" and "to" are kept.
      const bytes = await part.toBuffer();
      const name = FORM_FIELDS.find((f) => f === part.fieldname);
      if (name) files[name] = { bytes, contentType: part.mimetype };
    }
  } catch (e) {
    const code = (e as FastifyError).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw refuse('too-many-parts', 'the form has too many parts; send two files, in the fields "from" and "to"');
    throw malformedForm(e);
  }
  return files;
}

/** `{"from": <document>, "to": <document>}`, each side held to the limit of one document. */
function jsonPair(request: FastifyRequest, limit: number): { from: DiffBody; to: DiffBody } {
  const pair = parseJsonBody(
    bodyOf(request),
    request.headers['content-type'],
    'the two documents are',
    'multipart/form-data with the files "from" and "to"',
  ) as Record<string, unknown> | null;
  if (
    typeof pair !== 'object' ||
    pair === null ||
    Array.isArray(pair) ||
    Object.keys(pair).some((k) => k !== 'from' && k !== 'to')
  )
    throw refuse('bad-request', 'the body must be {"from": <OSCAL JSON document>, "to": <OSCAL JSON document>}');
  const side = (name: 'from' | 'to'): DiffBody => {
    if (pair[name] === undefined) throw refuse('missing-file', `the body has no "${name}" document`);
    const bytes = Buffer.from(JSON.stringify(pair[name]));
    if (bytes.length > limit) throw refuse('too-large', `the "${name}" document is larger than this server accepts`);
    return { bytes, contentType: 'application/json' };
  };
  return { from: side('from'), to: side('to') };
}

/**
 * Semantic diffs (issue 21): of two revisions or snapshots of a stored document, and of two
 * documents sent in one request (either of them in any format), neither stored.
 */
export async function diffRoutes(app: FastifyInstance, deps: { diff: DiffService }): Promise<void> {
  const { diff } = deps;
  // A form's or a pair's two documents may each be as large as one document sent alone.
  const maxDocument = app.initialConfig.bodyLimit!;

  app.get<{ Params: { model: string; id: string }; Querystring: StoredQuery }>(
    '/:model/:id/diff',
    describe({
      operationId: 'diffDocument',
      summary: 'What changed between two revisions or snapshots of a document, in OSCAL terms',
      description:
        'Both sides are read as the document is: a caller who may not read it gets 404, whatever the sides name. Anonymous callers may compare public documents.',
      tags: [TAGS.documents],
      access: 'optional',
      params: { type: 'object', properties: { model: modelParam, id: idParam }, required: ['model', 'id'] },
      querystring: {
        type: 'object',
        properties: {
          from: SIDE('the older side (required)'),
          to: SIDE('the newer side; the current revision when absent'),
          'ignore-volatile': IGNORE_VOLATILE,
        },
      },
      responses: {
        200: json('The diff report', ref('DiffReport')),
        400: 'from is missing, or from or to names neither a revision number nor snapshot:<uuid>',
        404: 'No such document, revision or snapshot, or the caller may not read the document',
        409: 'The document kept changing while it was read',
        422: 'The two sides are of different models (a resolved snapshot of a profile is a catalog), or the path names no OSCAL model type',
      },
    }),
    async (request) => {
      const { model, id } = request.params;
      const { from, to } = request.query;
      return diff.compare(request.identity, model, id, from, to, {
        ignoreVolatile: request.query['ignore-volatile'],
      });
    },
  );

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { ...MULTIPART_LIMITS, files: FORM_FIELDS.length } });
    scope.post<{ Querystring: { 'ignore-volatile': boolean } }>(
      '/diff',
      {
        ...describe({
          operationId: 'diffContent',
          summary: 'What changed between two documents sent in the request, neither stored',
          description:
            'multipart/form-data with the files "from" (older) and "to" (newer), each in JSON, XML or YAML by its part\'s Content-Type or, when that names no OSCAL format, by its first significant character; or application/json with both documents as OSCAL JSON. Of one model, any releases; each at most as large as one document may be.',
          tags: [TAGS.documents],
          access: 'required',
          querystring: { type: 'object', properties: { 'ignore-volatile': IGNORE_VOLATILE } },
          body: {
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: {
                    from: { type: 'string', format: 'binary', description: 'the older document' },
                    to: { type: 'string', format: 'binary', description: 'the newer document' },
                  },
                  required: ['from', 'to'],
                },
              },
              'application/json': { schema: ref('DiffPair') },
            },
          },
          responses: {
            200: json('The diff report', ref('DiffReport')),
            400: 'A document is missing or empty, not well-formed in its format, or the form or JSON body is malformed',
            401: 'No credentials, or refused ones',
            413: 'A document is larger than this server accepts, or the form has too many parts',
            415: "Neither multipart/form-data nor application/json, or a document's encoding is not read",
            422: 'A document is not valid OSCAL, or the two are of different models',
          },
        }),
        bodyLimit: FORM_FIELDS.length * maxDocument,
      },
      async (request) => {
        const { from, to } = request.isMultipart() ? await formDocuments(request) : jsonPair(request, maxDocument);
        if (!from || !to)
          throw refuse('missing-file', 'the form needs two files: the older in the field "from", the newer in "to"');
        return diff.compareBodies(request.identity, from, to, { ignoreVolatile: request.query['ignore-volatile'] });
      },
    );
  });
}
