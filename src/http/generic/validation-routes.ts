import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LEVELS } from '../../oscal/constraints/index.js';
import type { ValidationResult } from '../../oscal/validate/index.js';
import { sarifLog } from '../../oscal/validate/sarif.js';
import type { ConstraintSetService } from '../../service/constraint-sets.js';
import { ServiceError } from '../../service/errors.js';
import { negotiateReport, REPORT_MEDIA_TYPE } from '../../service/media-types.js';
import type { ValidationService } from '../../service/validation.js';
import type { ConstraintSetRecord } from '../../store/types.js';
import { findingJson } from '../findings.js';
import { bodyOf } from '../request-body.js';
import { MODELS } from './models.js';

export interface ValidationDeps {
  validation: ValidationService;
  constraintSets: ConstraintSetService;
  publicUrl: string;
}

const nameParam = { type: 'string', maxLength: 64 } as const;
const VALIDATION_QUERY = {
  type: 'object',
  properties: {
    constraints: { type: 'string', maxLength: 2000, description: 'registered constraint sets to apply too, comma-separated' },
    'include-pass': { type: 'boolean', description: 'SARIF only: a "pass" result for each constraint that was evaluated and held' },
  },
  additionalProperties: false,
} as const;

interface ValidationQuery {
  constraints?: string;
  'include-pass'?: boolean;
}

function setNames(query: ValidationQuery): string[] {
  return (query.constraints ?? '').split(',').map((s) => s.trim()).filter(Boolean);
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
function report(result: ValidationResult, sets: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const counts = Object.fromEntries(LEVELS.map((level) => [level, result.issues.filter((i) => (i.level ?? 'ERROR') === level).length]));
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

function sendReport(request: FastifyRequest<{ Querystring: ValidationQuery }>, reply: FastifyReply, result: ValidationResult, subject: string, extra: Record<string, unknown> = {}): FastifyReply {
  const as = negotiateReport(request.headers.accept);
  if (!as) throw new ServiceError(406, 'not-acceptable', 'a validation report is given as application/json or application/sarif+json');
  if (as === 'sarif') {
    return reply.type(REPORT_MEDIA_TYPE.sarif).send(sarifLog([{ ...result, file: subject }], request.query['include-pass'] === true));
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

  app.get('/constraint-set', {
    schema: { summary: 'List the registered constraint sets', tags: ['constraint sets'] },
  }, async (request) => ({ 'constraint-sets': (await constraintSets.list(request.identity)).map((r) => setEntry(r, base)) }));

  app.put<{ Params: { name: string }; Body: Buffer }>('/constraint-set/:name', {
    schema: { summary: 'Register or replace a constraint set (metaschema-meta-constraints XML); admins only', tags: ['constraint sets'], params: nameParams },
  }, async (request, reply) => {
    const { created, record } = await constraintSets.put(request.identity, request.params.name, bodyOf(request));
    if (created) reply.code(201).header('Location', `${base}/constraint-set/${record.name}`);
    return setEntry(record, base);
  });

  app.get<{ Params: { name: string } }>('/constraint-set/:name', {
    schema: { summary: 'The XML of a registered constraint set', tags: ['constraint sets'], params: nameParams },
  }, async (request, reply) => {
    const record = await constraintSets.get(request.identity, request.params.name);
    return reply.type('application/xml').header('ETag', `"${record.hash}"`).send(record.text);
  });

  app.delete<{ Params: { name: string } }>('/constraint-set/:name', {
    schema: { summary: 'Remove a registered constraint set; admins only', tags: ['constraint sets'], params: nameParams },
  }, async (request, reply) => {
    await constraintSets.remove(request.identity, request.params.name);
    return reply.code(204).send();
  });

  app.post<{ Body: Buffer; Querystring: ValidationQuery }>('/validate', {
    schema: { summary: 'Validate content in JSON, XML or YAML without storing it: schema, model constraints and the named sets', tags: ['validation'], querystring: VALIDATION_QUERY },
  }, async (request, reply) => {
    const result = await validation.validateBody(request.identity, bodyOf(request), request.headers['content-type'], setNames(request.query));
    return sendReport(request, reply, result, 'request-body');
  });

  app.get<{ Params: { model: string; id: string }; Querystring: ValidationQuery }>('/:model/:id/validation', {
    schema: {
      summary: 'Validate the current revision of a document: schema, model constraints and the named sets',
      tags: ['validation'],
      params: { type: 'object', properties: { model: { type: 'string', enum: [...MODELS] }, id: { type: 'string', maxLength: 64 } }, required: ['model', 'id'] },
      querystring: VALIDATION_QUERY,
    },
  }, async (request, reply) => {
    const { model, id } = request.params;
    const result = await validation.validateStored(request.identity, model, id, setNames(request.query));
    return sendReport(request, reply, result, `${base}/${model}/${id}`, { revision: result.revision, 'findings-when-stored': result.stored.map(findingJson) });
  });
}
