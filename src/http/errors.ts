import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { drainRefusedBody } from './refused-body.js';
import {
  AuthenticationRequired,
  authenticationRequired,
  ERROR_CODES,
  MAX_ERROR_DETAILS,
  refuse,
  ServiceError,
  type ErrorDetail,
  type ErrorCode,
} from '../errors.js';

/** The one error body of both interfaces (D3). */
export interface ErrorBody {
  'status-code': number;
  code: ErrorCode;
  message: string;
  errors?: ErrorDetail[];
}

/** Messages and pointers may quote the input: a 100 MB property name must not come back thrice. */
const MAX_TEXT = 1000;

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

export function errorBody(
  code: ErrorCode,
  message: string,
  errors?: ErrorDetail[],
  status: number = ERROR_CODES[code].status,
): ErrorBody {
  const details = errors
    ?.slice(0, MAX_ERROR_DETAILS)
    .map((e) => ({ ...e, path: clip(e.path), message: clip(e.message) }));
  return { 'status-code': status, code, message: clip(message), ...(details?.length ? { errors: details } : {}) };
}

/** fastify's own refusals, by its error code, as catalogued refusals in our words. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'too-large', message: 'the body is larger than this server accepts' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported-media-type',
    message: 'this Content-Type is not accepted; send application/json, application/xml or application/yaml',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'malformed', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed', message: 'the body is empty' },
  FST_REQ_FILE_TOO_LARGE: { code: 'too-large', message: 'the file is larger than this server accepts' },
  FST_FILES_LIMIT: { code: 'too-many-parts', message: 'send one file, in the field "file"' },
  FST_PARTS_LIMIT: {
    code: 'too-many-parts',
    message: 'the form has too many parts; send one file, in the field "file"',
  },
  FST_FIELDS_LIMIT: {
    code: 'too-many-parts',
    message: 'the form has too many fields; send one file, in the field "file"',
  },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: 'unsupported-media-type', message: 'not a multipart/form-data request' },
  FST_NO_FORM_DATA: { code: 'missing-file', message: 'the form holds no file: send it in the field "file"' },
  FST_PROTO_VIOLATION: { code: 'malformed', message: 'the multipart body is malformed' },
};

export function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  errors?: ErrorDetail[],
  status?: number,
): FastifyReply {
  const body = errorBody(code, message, errors, status);
  return reply.code(body['status-code']).type('application/json').send(body);
}

/** Maps every failure to D3's statuses and body; anything unexpected is a 500 that reveals nothing. */
export async function errorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') await drainRefusedBody(request.raw);
  if (error instanceof AuthenticationRequired)
    return sendError(reply, error.code, authenticationRequired(Boolean(request.server.signIn)));
  if (error instanceof ServiceError) {
    if (error.headers) reply.headers(error.headers);
    return sendError(reply, error.code, error.message, error.errors);
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && !request.headers['content-type']) {
    return sendError(
      reply,
      'unsupported-media-type',
      'Content-Type is missing; send application/json, application/xml or application/yaml',
    );
  }
  const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
  if (known) return sendError(reply, known.code, known.message);
  if (error.validation && error.validationContext === 'params') {
    // An unknown model segment is "unknown model type" (422 in D3 and registry-api 7); any other
    // malformed path segment names no resource (404).
    const failed = error.validation[0]?.instancePath;
    if (failed === '/model' || failed === '/plural')
      return sendError(reply, 'unknown-model', `${request.url.split('?')[0]} names no OSCAL model type`);
    return sendError(reply, 'not-found', `no such resource: ${error.message}`);
  }
  if (error.validation) return sendError(reply, 'bad-request', `invalid request: ${error.message}`);
  // Any other client error of fastify's keeps its status, under the general code.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return sendError(reply, 'bad-request', error.message, undefined, error.statusCode);
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, 'internal', `something went wrong on the server; the request id is ${request.id}`);
}

/** Requests fastify's router refuses before any route or hook runs: a URL that is not valid percent-encoding, an over-long path segment. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_BAD_URL')
    return sendError(reply, 'bad-request', 'the URL is not valid percent-encoded UTF-8');
  // An over-long id names no resource, as any other malformed path segment (D3).
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return sendError(reply, 'not-found', 'no such resource: a path segment is longer than any id');
  return sendError(reply, 'bad-request', 'the request cannot be routed');
}

/**
 * busboy's errors carry no code: an error out of a form parser that is no refusal of ours or of
 * fastify's (a limit, a missing file) means the form itself is malformed.
 */
export function malformedForm(error: unknown): unknown {
  if (error instanceof ServiceError || (error as FastifyError | undefined)?.code !== undefined) return error;
  return refuse(
    'malformed',
    `the multipart body is malformed: ${error instanceof Error ? error.message : String(error)}`,
  );
}
