import * as contentDisposition from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { plainBytes, type OutgoingFile } from '../service/attachments.js';
import { accepts, stillCurrent } from './send-rendition.js';

/**
 * An attached file, to the API and to the web interface alike: a file is never run as a page of
 * this site, so it is a download, its type taken as given, and sandboxed should a browser show it.
 */
export function sendAttachment(request: FastifyRequest, reply: FastifyReply, file: OutgoingFile): FastifyReply {
  reply
    .header('ETag', `W/"${file.hash}"`)
    .header('Content-Disposition', contentDisposition.create(file.filename))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', 'sandbox')
    .header('Vary', 'Accept-Encoding')
    .header('Cache-Control', 'private, no-cache')
    .type(file.mediaType);
  if (stillCurrent(request.headers['if-none-match'], file.hash)) return reply.code(304).send();
  if (file.gzipped && accepts(request.headers['accept-encoding'], 'gzip'))
    return reply.header('Content-Encoding', 'gzip').send(file.data);
  return reply.send(plainBytes(file));
}
