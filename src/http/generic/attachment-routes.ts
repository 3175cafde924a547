import multipart from '@fastify/multipart';
import * as contentDisposition from 'content-disposition';
import contentType from 'content-type';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { plainBytes, type AttachmentService, type IncomingFile } from '../../service/attachments.js';
import { ServiceError } from '../../service/errors.js';
import { errorHandler, sendError } from '../errors.js';
import { bodyOf, fileField, MULTIPART_LIMITS } from '../request-body.js';
import { accepts } from '../send-rendition.js';
import { MODELS } from './models.js';

const params = {
  type: 'object',
  properties: { model: { type: 'string', enum: [...MODELS] }, id: { type: 'string', maxLength: 64 }, resource: { type: 'string', maxLength: 64 } },
  required: ['model', 'id'],
} as const;

type Params = { model: string; id: string; resource: string };

/** The file of a raw body (D9): its Content-Type, parameters kept; its name from Content-Disposition. */
function rawFile(request: FastifyRequest): IncomingFile {
  const header = request.headers['content-type'];
  let mediaType = 'application/octet-stream';
  if (header) {
    try {
      mediaType = contentType.format(contentType.parse(header));
    } catch {
      throw new ServiceError(400, 'bad-request', `Content-Type ${JSON.stringify(header)} is not a media type`);
    }
  }
  let filename: string | undefined;
  const disposition = request.headers['content-disposition'];
  if (disposition) {
    try {
      filename = utf8Name(contentDisposition.parse(disposition).parameters.filename);
    } catch {
      throw new ServiceError(400, 'bad-request', 'Content-Disposition is malformed; send attachment; filename="name.ext"');
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
  if (!file) throw new ServiceError(400, 'missing-file', 'the form holds no file: send it in the field "file"');
  if (file.bytes.length === 0) throw new ServiceError(400, 'missing-file', 'the file is empty');
  return file;
}

/**
 * Attachment endpoints (generic-interface 4.3, D9). The file travels as the raw body, with any
 * media type, or as multipart field "file"; their own size limit applies.
 */
export async function attachmentRoutes(app: FastifyInstance, deps: { attachments: AttachmentService; base: string; maxAttachment: number }): Promise<void> {
  const { attachments } = deps;
  // Any media type is a file's own; one fastify cannot even parse is a malformed header.
  app.setErrorHandler((error: FastifyError, request, reply) => (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && request.headers['content-type']
    ? sendError(reply, 400, 'bad-request', `Content-Type ${JSON.stringify(request.headers['content-type'])} is not a media type; send e.g. application/pdf`)
    : errorHandler(error, request, reply)));
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.maxAttachment }, (_request, body, done) => done(null, body));
  await app.register(multipart, { limits: { fileSize: deps.maxAttachment, ...MULTIPART_LIMITS } });

  app.get<{ Params: Params }>('/:model/:id/attachment', {
    schema: { summary: 'The back-matter resources of a document, without base64', params },
  }, async (request) => ({ 'attachment-list': await attachments.list(request.identity, request.params.model, request.params.id) }));

  app.post<{ Params: Params }>('/:model/:id/attachment', {
    schema: { summary: 'Attach a file: a new back-matter resource with an rlink to it', params },
    bodyLimit: deps.maxAttachment,
  }, async (request, reply) => {
    const { model, id } = request.params;
    const entry = await attachments.add(request.identity, model, id, await incomingFile(request, deps.maxAttachment));
    return reply.code(201).header('Location', `${deps.base}/${model}/${id}/attachment/${entry.uuid}`).send(entry);
  });

  app.get<{ Params: Params }>('/:model/:id/attachment/:resource', {
    schema: { summary: 'The file alone, with its media type and name', params },
    compress: false,
  }, async (request, reply) => {
    const { model, id, resource } = request.params;
    const file = await attachments.read(request.identity, model, id, resource.toLowerCase());
    const etag = `W/"${file.hash}"`;
    // A file is never run as a page of this site: downloaded, its type taken as given, sandboxed.
    reply.header('ETag', etag).header('Content-Disposition', contentDisposition.create(file.filename))
      .header('X-Content-Type-Options', 'nosniff').header('Content-Security-Policy', 'sandbox').header('Vary', 'Accept-Encoding')
      .header('Cache-Control', 'private, no-cache').type(file.mediaType);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === `"${file.hash}"` || t.trim() === '*')) return reply.code(304).send();
    if (file.gzipped && accepts(request.headers['accept-encoding'], 'gzip')) return reply.header('Content-Encoding', 'gzip').send(file.data);
    return reply.send(plainBytes(file));
  });

  app.put<{ Params: Params }>('/:model/:id/attachment/:resource', {
    schema: { summary: 'Replace the file; the resource keeps an rlink to it and loses any base64', params },
    bodyLimit: deps.maxAttachment,
  }, async (request, reply) => {
    const { model, id, resource } = request.params;
    await attachments.replace(request.identity, model, id, resource.toLowerCase(), await incomingFile(request, deps.maxAttachment));
    return reply.code(204).send();
  });

  app.delete<{ Params: Params }>('/:model/:id/attachment/:resource', {
    schema: { summary: 'Delete the file and its resource entry', params },
  }, async (request, reply) => {
    const { model, id, resource } = request.params;
    await attachments.remove(request.identity, model, id, resource.toLowerCase());
    return reply.code(204).send();
  });

  app.get<{ Params: Params }>('/:model/:id/attachment/:resource/resource', {
    schema: { summary: 'The resource entry as the JSON form holds it, base64 included', params },
  }, async (request) => attachments.resource(request.identity, request.params.model, request.params.id, request.params.resource.toLowerCase()));

  app.put<{ Params: Params }>('/:model/:id/attachment/:resource/resource', {
    schema: { summary: 'Replace the resource entry (JSON); its uuid must stay', params },
  }, async (request, reply) => {
    const { model, id, resource } = request.params;
    await attachments.putResource(request.identity, model, id, resource.toLowerCase(), bodyOf(request), request.headers['content-type']);
    return reply.code(204).send();
  });
}
