import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { errorBody } from './errors.js';
import type { FrontHandler } from './fast-read.js';
import { SECURITY_HEADERS } from './security-headers.js';

export interface Timeouts {
  /** The whole request, headers and body, must arrive within this. */
  requestMs: number;
  /** The headers must arrive within this (at most requestMs). */
  headersMs: number;
}

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** A connection with no traffic at all is closed after this. */
const IDLE_SOCKET_MS = 120_000;
const KEEP_ALIVE_MS = 72_000;
/** Node checks the request and header timeouts this often (its own 30 s would let a 10 s timeout run to 40 s). */
const TIMEOUT_CHECK_MS = 1000;
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The HTTP or HTTPS server fastify runs on. HTTPS takes TLS 1.3 only: every client of the last
 * years speaks it, and generic-interface 5.4 asks for nothing less.
 */
export function serverFactory(
  timeouts: Timeouts,
  tls: TlsFiles | undefined,
  front?: { handle?: FrontHandler },
): (handler: RequestListener) => Server {
  return (fastify) => {
    // A request the front handler does not answer goes to fastify untouched (its body unread).
    const handler: RequestListener = front
      ? (request, response) => {
          if (!front.handle) return fastify(request, response);
          const unanswered = () => void (response.headersSent || fastify(request, response));
          front.handle(request, response).then((done) => done || unanswered(), unanswered);
        }
      : fastify;
    const options = {
      requestTimeout: timeouts.requestMs,
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
      maxHeaderSize: MAX_HEADER_BYTES,
      // Checked by requestGuards, which answers with the error object.
      requireHostHeader: false,
    };
    const server = tls
      ? createHttpsServer({ ...options, cert: tls.cert, key: tls.key, minVersion: 'TLSv1.3' }, handler)
      : createHttpServer(options, handler);
    server.on('checkExpectation', refuseExpectation);
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.setTimeout(IDLE_SOCKET_MS);
    // An https.Server is an http.Server for everything fastify does with it.
    return server as Server;
  };
}

/** An Expect other than 100-continue: Node would answer 417 with no body; this one has the error object. */
function refuseExpectation(request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify(
    errorBody(
      'expectation-failed',
      `this server meets no expectation but 100-continue, not "${String(request.headers.expect).slice(0, 100)}"`,
    ),
  );
  response.writeHead(417, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.end(body);
}
