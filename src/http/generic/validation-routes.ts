import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LEVELS } from '../../oscal/constraints/index.js';
import { SUPPORTED_VERSIONS } from '../../oscal/model/versions.js';
import type { ValidationResult } from '../../oscal/validate/index.js';
import { sarifLog } from '../../oscal/validate/sarif.js';
import type { ConstraintSetService } from '../../service/constraint-sets.js';
import { refuse } from '../../errors.js';
import { negotiateReport, REPORT_MEDIA_TYPE } from '../../service/media-types.js';
import type { ValidationService } from '../../service/validation.js';
import type { ConstraintSetRecord } from '../../store/types.js';
import { findingJson } from '../findings.js';
import { bodyOf } from '../request-body.js';
import { ID_LENGTH, idParam, modelParam } from '../params.js';
import { describe, empty, json, OSCAL_BODY, ref, TAGS, type ResponseSpec } from '../openapi.js';

export interface ValidationDeps {
  validation: ValidationService;
  constraintSets: ConstraintSetService;
  publicUrl: string;
}

const nameParam = { type: 'string', maxLength: ID_LENGTH, description: 'the name of the constraint set' } as const;
const VALIDATION_QUERY = {
  type: 'object',
  properties: {
    constraints: {
      type: 'string',
      maxLength: 2000,
      description: 'registered constraint sets to apply too, comma-separated',
    },
    'include-pass': {
      type: 'boolean',
      description: 'SARIF only: a "pass" result for each constraint that was evaluated and held',
    },
  },
  additionalProperties: false,
} as const;

/** POST /validate's choices besides the sets: oscal-cli's flags, as query parameters. */
const VALIDATE_BODY_QUERY = {
  ...VALIDATION_QUERY,
  properties: {
    ...VALIDATION_QUERY.properties,
    'disable-schema-validation': {
      type: 'boolean',
      description: 'skip the schema check; the constraints still run on what could be read',
    },
    'disable-constraint-validation': { type: 'boolean', description: 'check the schema only' },
    'oscal-version': {
      type: 'string',
      enum: SUPPORTED_VERSIONS,
      description: 'the OSCAL release to check content that declares none against (default: the newest)',
    },
  },
} as const;

interface ValidationQuery {
  constraints?: string;
  'include-pass'?: boolean;
}

interface ValidateBodyQuery extends ValidationQuery {
  'disable-schema-validation'?: boolean;
  'disable-constraint-validation'?: boolean;
  'oscal-version'?: string;
}

/** A validation report: JSON, or SARIF as Accept asks. */
function reportResponse(description: string, schema: string): ResponseSpec {
  return {
    description,
    content: { 'application/json': { schema: ref(schema) }, 'application/sarif+json': { schema: ref('SarifLog') } },
  };
}

const SET_XML = {
  'application/xml': {
    schema: { type: 'string', description: 'a METASCHEMA-CONSTRAINTS document (metaschema-meta-constraints)' },
  },
};

function setNames(query: ValidationQuery): string[] {
  return (query.constraints ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function setEntry(record: Omit<ConstraintSetRecord, 'text'>, base: string): Record<string, unknown> {
  return {
    name: record.name,
    sha256: record.hash,
    size: record.size,
    'created-by': record.createdBy,
    created: record.createdAt,
    updated: record.updatedAt,
    href: `${base}/constraint-set/${record.name}`,
  };
}

/** A validation result as the API gives it: the findings in the error detail's terms, with counts by level. */
function report(
  result: ValidationResult,
  sets: string[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const counts = Object.fromEntries(
    LEVELS.map((level) => [level, result.issues.filter((i) => (i.level ?? 'ERROR') === level).length]),
  );
  return {
    valid: result.valid,
    ...(result.model !== undefined ? { model: result.model } : {}),
    ...(result.version !== undefined ? { 'oscal-version': result.version } : {}),
    ...(result.format !== undefined ? { format: result.format } : {}),
    ...extra,
    'constraints-checked': result.constraintsChecked === true,
    'constraint-sets': sets,
    counts,
    findings: result.issues.map(findingJson),
  };
}

function sendReport(
  request: FastifyRequest<{ Querystring: ValidationQuery }>,
  reply: FastifyReply,
  result: ValidationResult,
  subject: string,
  extra: Record<string, unknown> = {},
): FastifyReply {
  const as = negotiateReport(request.headers.accept);
  if (!as) throw refuse('not-acceptable', 'a validation report is given as application/json or application/sarif+json');
  if (as === 'sarif') {
    return reply
      .type(REPORT_MEDIA_TYPE.sarif)
      .send(sarifLog([{ ...result, file: subject }], request.query['include-pass'] === true));
  }
  return reply.type(REPORT_MEDIA_TYPE.json).send(report(result, setNames(request.query), extra));
}

/**
 * Constraint sets (admins register them by name) and validation: of a body in any format,
 * without storing it, and of a stored document's current revision; each against the release's
 * own constraints plus the sets the `constraints` parameter names.
 */
export async function validationRoutes(app: FastifyInstance, deps: ValidationDeps): Promise<void> {
  const { validation, constraintSets } = deps;
  const base = `${deps.publicUrl}/oscal/v1`;
  const nameParams = { type: 'object', properties: { name: nameParam }, required: ['name'] } as const;

  app.get(
    '/constraint-set',
    {
      ...describe({
        operationId: 'listConstraintSets',
        summary: 'List the registered constraint sets',
        tags: [TAGS.constraintSets],
        access: 'required',
        responses: {
          200: json('The registered sets', ref('ConstraintSetList')),
          401: 'No credentials, or refused ones',
        },
      }),
    },
    async (request) => ({
      'constraint-sets': (await constraintSets.list(request.identity)).map((r) => setEntry(r, base)),
    }),
  );

  app.put<{ Params: { name: string }; Body: Buffer }>(
    '/constraint-set/:name',
    {
      ...describe({
        operationId: 'putConstraintSet',
        summary: 'Register or replace a constraint set (metaschema-meta-constraints XML); admins only',
        tags: [TAGS.constraintSets],
        access: 'required',
        params: nameParams,
        description:
          'Names are 1 to 64 of a-z, 0-9, ".", "_" and "-", starting with a letter or digit. Imports name other registered sets.',
        body: { content: SET_XML },
        responses: {
          200: json('Replaced', ref('ConstraintSet')),
          201: json('Registered', ref('ConstraintSet'), {
            headers: { Location: { type: 'string', description: 'the URL of the set' } },
          }),
          400: 'Not a constraint set name, or the body is not UTF-8',
          401: 'No credentials, or refused ones',
          403: 'Registering constraint sets needs the admin role',
          413: 'The body is larger than this server accepts',
          415: 'Content-Type is missing or not XML',
          422: 'Not a valid constraint set',
        },
      }),
    },
    async (request, reply) => {
      const { created, record } = await constraintSets.put(request.identity, request.params.name, bodyOf(request));
      if (created) reply.code(201).header('Location', `${base}/constraint-set/${record.name}`);
      return setEntry(record, base);
    },
  );

  app.get<{ Params: { name: string } }>(
    '/constraint-set/:name',
    {
      ...describe({
        operationId: 'getConstraintSet',
        summary: 'The XML of a registered constraint set',
        tags: [TAGS.constraintSets],
        access: 'required',
        params: nameParams,
        responses: {
          200: {
            description: 'The set as registered',
            content: SET_XML,
            headers: { ETag: { type: 'string', description: 'the sha-256 of the set' } },
          },
          400: 'Not a constraint set name',
          401: 'No credentials, or refused ones',
          404: 'No constraint set of this name',
        },
      }),
    },
    async (request, reply) => {
      const record = await constraintSets.get(request.identity, request.params.name);
      return reply.type('application/xml').header('ETag', `"${record.hash}"`).send(record.text);
    },
  );

  app.delete<{ Params: { name: string } }>(
    '/constraint-set/:name',
    {
      ...describe({
        operationId: 'deleteConstraintSet',
        summary: 'Remove a registered constraint set; admins only',
        tags: [TAGS.constraintSets],
        access: 'required',
        params: nameParams,
        responses: {
          204: empty('Removed'),
          400: 'Not a constraint set name',
          401: 'No credentials, or refused ones',
          403: 'Deleting constraint sets needs the admin role',
          404: 'No constraint set of this name',
        },
      }),
    },
    async (request, reply) => {
      await constraintSets.remove(request.identity, request.params.name);
      return reply.code(204).send();
    },
  );

  app.post<{ Body: Buffer; Querystring: ValidateBodyQuery }>(
    '/validate',
    {
      ...describe({
        operationId: 'validateContent',
        summary:
          'Validate content in JSON, XML or YAML without storing it: schema, model constraints and the named sets',
        tags: [TAGS.validation],
        access: 'required',
        description:
          'Content that is not valid is still 200: the report says what is wrong. Accept: application/json (default) or application/sarif+json.',
        querystring: VALIDATE_BODY_QUERY,
        body: OSCAL_BODY,
        responses: {
          200: reportResponse('The validation report', 'ValidationReport'),
          400: 'A named constraint set is not registered, the body cannot be read as text of its encoding, or a query parameter is not valid',
          401: 'No credentials, or refused ones',
          406: 'Accept names neither application/json nor application/sarif+json',
          413: 'The body is larger than this server accepts',
          415: "Content-Type names no OSCAL format, or the body's encoding is not read",
        },
      }),
    },
    async (request, reply) => {
      const { query } = request;
      const result = await validation.validateBody(request.identity, bodyOf(request), request.headers['content-type'], {
        sets: setNames(query),
        schema: query['disable-schema-validation'] !== true,
        constraints: query['disable-constraint-validation'] !== true,
        ...(query['oscal-version'] !== undefined ? { oscalVersion: query['oscal-version'] } : {}),
      });
      return sendReport(request, reply, result, 'request-body');
    },
  );

  app.get<{ Params: { model: string; id: string }; Querystring: ValidationQuery }>(
    '/:model/:id/validation',
    {
      ...describe({
        operationId: 'validateDocument',
        summary: 'Validate the current revision of a document: schema, model constraints and the named sets',
        description:
          'The current revision checked now (the documents it reaches may have changed), located in the bytes it was sent as, beside what was found when it was stored and whether it was stored valid (false: kept with findings at the reject level, ?keep-findings=true). Anonymous callers may validate public documents, without constraint sets.',
        tags: [TAGS.validation],
        access: 'optional',
        params: {
          type: 'object',
          properties: { model: modelParam, id: idParam },
          required: ['model', 'id'],
        },
        querystring: VALIDATION_QUERY,
        responses: {
          200: reportResponse('The validation report of the current revision', 'StoredValidationReport'),
          400: 'A named constraint set is not registered, or a query parameter is not valid',
          401: 'Constraint sets were named without credentials, or credentials were refused',
          404: 'No such document, or the caller may not read it',
          406: 'Accept names neither application/json nor application/sarif+json',
          409: 'The document kept changing while it was read',
          422: 'The path names no OSCAL model type (unknown-model)',
        },
      }),
    },
    async (request, reply) => {
      const { model, id } = request.params;
      const result = await validation.validateStored(request.identity, model, id, setNames(request.query));
      return sendReport(request, reply, result, `${base}/${model}/${id}`, {
        revision: result.revision,
        'valid-when-stored': result.storedValid,
        'findings-when-stored': result.stored.map(findingJson),
      });
    },
  );
}
