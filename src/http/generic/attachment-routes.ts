import multipart from '@fastify/multipart';
import * as contentDisposition from 'content-disposition';
import contentType from 'content-type';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { type AttachmentService, type IncomingFile } from '../../service/attachments.js';
import { refuse } from '../../errors.js';
import { errorHandler, sendError } from '../errors.js';
import { bodyOf, fileField, MULTIPART_LIMITS } from '../request-body.js';
import { sendAttachment } from '../send-attachment.js';
import { idParam, modelParam, resourceParam } from '../params.js';
import {
  CONDITIONAL,
  describe,
  empty,
  HEADERS,
  json,
  jsonBody,
  NOT_MODIFIED,
  ref,
  TAGS,
  type Media,
} from '../openapi.js';

const params = {
  type: 'object',
  properties: {
    model: modelParam,
    id: idParam,
    resource: resourceParam,
  },
  required: ['model', 'id'],
} as const;

/** A file: the raw body with its own media type, or the form field "file". */
const FILE_BODY: { content: Record<string, Media> } = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        properties: {
          file: { type: 'string', format: 'binary', description: 'the file, with its name and media type' },
        },
        required: ['file'],
      },
    },
    '*/*': {
      schema: {
        type: 'string',
        format: 'binary',
        description: 'the file as the body: its media type in Content-Type, its name in Content-Disposition',
      },
    },
  },
};
const FILE_HEADERS = {
  type: 'object',
  properties: {
    'content-disposition': { type: 'string', description: 'with a raw body: attachment; filename="name.ext"' },
  },
} as const;
const UNKNOWN_MODEL = 'The path names no OSCAL model type (unknown-model)';
const NO_DOCUMENT = 'No such document, or the caller may not read it';
const NO_RESOURCE = 'No such document or resource, or the caller may not read the document';
const tags = [TAGS.attachments];

type Params = { model: string; id: string; resource: string };

/** The file of a raw body (D9): its Content-Type, parameters kept; its name from Content-Disposition. */
function rawFile(request: FastifyRequest): IncomingFile {
  const header = request.headers['content-type'];
  let mediaType = 'application/octet-stream';
  if (header) {
    try {
      mediaType = contentType.format(contentType.parse(header));
    } catch {
      throw refuse('bad-request', `Content-Type ${JSON.stringify(header)} is not a media type`);
    }
  }
  let filename: string | undefined;
  const disposition = request.headers['content-disposition'];
  if (disposition) {
    try {
      filename = utf8Name(contentDisposition.parse(disposition).parameters.filename);
    } catch {
      throw refuse('bad-request', 'Content-Disposition is malformed; send attachment; filename="name.ext"');
    }
  }
  return { bytes: bodyOf(request), mediaType, ...(filename !== undefined ? { filename } : {}) };
}

/** Node reads header bytes as Latin-1; clients commonly send the name's UTF-8 bytes in filename="". */
function utf8Name(name: string | undefined): string | undefined {
  if (name === undefined || !/[\u0080-\u00ff]/.test(name) || /[^\u0000-\u00ff]/.test(name)) return name;
  const decoded = Buffer.from(name, 'latin1').toString('utf8');
  return decoded.includes('\uFFFD') ? name : decoded;
}

async function incomingFile(request: FastifyRequest, limit: number): Promise<IncomingFile> {
  const file = request.isMultipart() ? await fileField(request, limit) : rawFile(request);
  if (!file) throw refuse('missing-file', 'the form holds no file: send it in the field "file"');
  if (file.bytes.length === 0) throw refuse('missing-file', 'the file is empty');
  return file;
}

/**
 * Attachment endpoints (generic-interface 4.3, D9). The file travels as the raw body, with any
 * media type, or as multipart field "file"; their own size limit applies.
 */
export async function attachmentRoutes(
  app: FastifyInstance,
  deps: { attachments: AttachmentService; base: string; maxAttachment: number },
): Promise<void> {
  const { attachments } = deps;
  // Any media type is a file's own; one fastify cannot even parse is a malformed header.
  app.setErrorHandler((error: FastifyError, request, reply) =>
    error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && request.headers['content-type']
      ? sendError(
          reply,
          'bad-request',
          `Content-Type ${JSON.stringify(request.headers['content-type'])} is not a media type; send e.g. application/pdf`,
        )
      : errorHandler(error, request, reply),
  );
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.maxAttachment }, (_request, body, done) =>
    done(null, body),
  );
  await app.register(multipart, { limits: { fileSize: deps.maxAttachment, ...MULTIPART_LIMITS } });

  app.get<{ Params: Params }>(
    '/:model/:id/attachment',
    {
      ...describe({
        operationId: 'listAttachments',
        summary: 'The back-matter resources of a document, without base64',
        tags,
        access: 'optional',
        params,
        responses: {
          200: json('The resources', ref('AttachmentList')),
          404: NO_DOCUMENT,
          409: 'The document kept changing while it was read',
          422: UNKNOWN_MODEL,
        },
      }),
    },
    async (request) => ({
      'attachment-list': await attachments.list(request.identity, request.params.model, request.params.id),
    }),
  );

  app.post<{ Params: Params }>(
    '/:model/:id/attachment',
    {
      ...describe({
        operationId: 'addAttachment',
        summary: 'Attach a file: a new back-matter resource with an rlink to it',
        tags,
        access: 'required',
        params,
        headers: FILE_HEADERS,
        description:
          'The file travels as the raw body (any media type) or as the multipart/form-data field "file"; the attachment size limit applies. A new revision of the document.',
        body: FILE_BODY,
        responses: {
          201: json('The new resource entry', ref('Resource'), { headers: HEADERS.location }),
          400: 'No file, an empty one, a malformed form, Content-Type or Content-Disposition',
          401: 'No credentials, or refused ones',
          403: 'The caller may read the document but not change it',
          404: NO_DOCUMENT,
          409: 'The document kept changing while the file was stored',
          413: 'The file is larger than this server accepts, or the form has too many parts',
          422: 'The document would not be valid OSCAL with the entry, or an unknown model type in the path',
        },
      }),
      bodyLimit: deps.maxAttachment,
    },
    async (request, reply) => {
      const { model, id } = request.params;
      const entry = await attachments.add(request.identity, model, id, await incomingFile(request, deps.maxAttachment));
      return reply.code(201).header('Location', `${deps.base}/${model}/${id}/attachment/${entry.uuid}`).send(entry);
    },
  );

  app.get<{ Params: Params }>(
    '/:model/:id/attachment/:resource',
    {
      ...describe({
        operationId: 'getAttachment',
        summary: 'The file alone, with its media type and name',
        tags,
        access: 'optional',
        params,
        headers: CONDITIONAL,
        description:
          "The stored file of an rlink to this document's attachment, else the resource's base64 content decoded. Sent as a download (Content-Disposition), sandboxed.",
        responses: {
          200: {
            description: 'The file, with the media type it was stored with',
            content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
            headers: {
              ...HEADERS.etag,
              'Content-Disposition': { type: 'string', description: 'attachment, with the file name' },
            },
          },
          304: NOT_MODIFIED,
          404: 'No such document or resource, the resource has no file here, or the caller may not read the document',
          409: 'The document kept changing while it was read',
          422: UNKNOWN_MODEL,
        },
      }),
      compress: false,
    },
    async (request, reply) => {
      const { model, id, resource } = request.params;
      return sendAttachment(request, reply, await attachments.read(request.identity, model, id, resource));
    },
  );

  app.put<{ Params: Params }>(
    '/:model/:id/attachment/:resource',
    {
      ...describe({
        operationId: 'replaceAttachment',
        summary: 'Replace the file; the resource keeps an rlink to it and loses any base64',
        tags,
        access: 'required',
        params,
        headers: FILE_HEADERS,
        body: FILE_BODY,
        responses: {
          204: empty('Replaced'),
          400: 'No file, an empty one, a malformed form, Content-Type or Content-Disposition',
          401: 'No credentials, or refused ones',
          403: 'The caller may read the document but not change it',
          404: NO_RESOURCE,
          409: 'The document is under a legal hold, or kept changing',
          413: 'The file is larger than this server accepts, or the form has too many parts',
          422: 'The document would not be valid OSCAL, or an unknown model type in the path',
        },
      }),
      bodyLimit: deps.maxAttachment,
    },
    async (request, reply) => {
      const { model, id, resource } = request.params;
      await attachments.replace(request.identity, model, id, resource, await incomingFile(request, deps.maxAttachment));
      return reply.code(204).send();
    },
  );

  app.delete<{ Params: Params }>(
    '/:model/:id/attachment/:resource',
    {
      ...describe({
        operationId: 'deleteAttachment',
        summary: 'Delete the file and its resource entry',
        tags,
        access: 'required',
        params,
        responses: {
          204: empty('Deleted'),
          401: 'No credentials, or refused ones',
          403: 'The caller may read the document but not change it',
          404: NO_RESOURCE,
          409: 'The document is under a legal hold, or kept changing',
          422: 'The document would not be valid OSCAL without the entry, or an unknown model type in the path',
        },
      }),
    },
    async (request, reply) => {
      const { model, id, resource } = request.params;
      await attachments.remove(request.identity, model, id, resource);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: Params }>(
    '/:model/:id/attachment/:resource/resource',
    {
      ...describe({
        operationId: 'getResource',
        summary: 'The resource entry as the JSON form holds it, base64 included',
        tags,
        access: 'optional',
        params,
        responses: {
          200: json('The resource entry', ref('Resource')),
          404: NO_RESOURCE,
          409: 'The document kept changing while it was read',
          422: UNKNOWN_MODEL,
        },
      }),
    },
    async (request) =>
      attachments.resource(request.identity, request.params.model, request.params.id, request.params.resource),
  );

  app.put<{ Params: Params }>(
    '/:model/:id/attachment/:resource/resource',
    {
      ...describe({
        operationId: 'replaceResource',
        summary: 'Replace the resource entry (JSON); its uuid must stay',
        tags,
        access: 'required',
        params,
        body: jsonBody(ref('Resource')),
        responses: {
          204: empty('Replaced'),
          400: 'The body is not valid JSON, or not one resource object',
          401: 'No credentials, or refused ones',
          403: 'The caller may read the document but not change it',
          404: NO_RESOURCE,
          409: "The entry's uuid differs from the one in the path, or the document kept changing",
          413: 'The body is larger than this server accepts',
          415: 'The body is not application/json',
          422: 'The document would not be valid OSCAL with the entry (located in the body sent), or an unknown model type in the path',
        },
      }),
    },
    async (request, reply) => {
      const { model, id, resource } = request.params;
      await attachments.putResource(
        request.identity,
        model,
        id,
        resource,
        bodyOf(request),
        request.headers['content-type'],
      );
      return reply.code(204).send();
    },
  );
}
