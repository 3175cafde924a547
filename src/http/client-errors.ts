import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../errors.js';
import { errorBody } from './errors.js';
import { SECURITY_HEADERS } from './security-headers.js';

const REFUSALS: Record<string, { code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'timeout',
    message: 'the request did not arrive in time: headers and body must be sent without stalling',
  },
  HPE_HEADER_OVERFLOW: {
    code: 'headers-too-large',
    message: 'the request headers are larger than this server accepts',
  },
};
const MALFORMED = { code: 'malformed', message: 'the request is not well-formed HTTP' } as const;

/**
 * Requests Node's HTTP parser refuses before fastify sees them (broken framing, oversized
 * headers, a request that stalls past its timeout) still get D3's error body, then the
 * connection is closed: after such a request nothing more on it can be trusted.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = REFUSALS[error.code ?? ''] ?? MALFORMED;
  this.log.debug({ err: error }, 'refused a malformed or stalled request');
  const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !answered) {
    const body = errorBody(refusal.code, refusal.message);
    const text = JSON.stringify(body);
    const headers = Object.entries(SECURITY_HEADERS)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const status = body['status-code'];
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${headers}connection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
