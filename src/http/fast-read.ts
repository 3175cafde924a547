import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ANONYMOUS, type Identity } from '../auth/identity.js';
import type { TokenCache } from '../auth/token-cache.js';
import type { ContentService } from '../service/content.js';
import { negotiateFormat, RESPONSE_TYPE } from '../service/media-types.js';
import type { Store } from '../store/types.js';
import type { AuthFailures } from './auth-failures.js';
import { bearerToken, isJwt, localTokenIdentity } from './authenticate.js';
import { MODELS } from '../oscal/model/models.js';
import type { HttpMetrics } from './ops.js';
import { storedReply } from './send-rendition.js';

/** The generic interface's read of a document, as fastify routes it: `/oscal/v1/:model/:id`. */
const DOCUMENT_PATH = /^\/oscal\/v1\/([a-z-]{1,40})\/([0-9A-Za-z-]{1,64})$/;
const ROUTE = '/oscal/v1/:model/:id';
const KNOWN_MODELS: ReadonlySet<string> = new Set(MODELS);
/** The levels at which fastify logs every request. */
const LOGS_REQUESTS: ReadonlySet<string> = new Set(['trace', 'debug', 'info']);

export interface FastReadDeps {
  store: Store;
  tokens: TokenCache;
  content: ContentService;
  failures: AuthFailures;
  metrics: HttpMetrics;
  /** What every answer carries (security headers, HSTS). */
  headers: Readonly<Record<string, string>>;
  /** Sessions and provider JWTs are left to the full path. */
  signIn: boolean;
}

export type FrontHandler = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/**
 * GET of a document's current rendition, the request clients repeat most, answered before
 * fastify sees it: a small document costs a fraction of the full request cycle (hooks, schema
 * validation, reply decoration), which is most of the CPU such a read takes. It answers only
 * the plain success (200 or 304) of the same checks the full path makes, with the same headers
 * and bytes; anything else (no such document, no right to read it, a credential to refuse or to
 * count, a session cookie or provider JWT, a rendition still being made, a query string, an
 * Origin header, a body) resolves false, and fastify answers as if this did not exist.
 */
export function fastReads(
  deps: FastReadDeps,
  log: () => FastifyBaseLogger,
): { handle: FrontHandler; stop: () => void } {
  let open = true;
  const record = deps.metrics.recorder('GET', ROUTE);
  const handle: FrontHandler = async (request, response) => {
    if (!open || request.method !== 'GET') return false;
    const started = performance.now();
    const match = DOCUMENT_PATH.exec(request.url ?? '');
    if (!match || !KNOWN_MODELS.has(match[1]!)) return false;
    const headers = request.headers;
    if (
      headers.host === undefined ||
      headers.origin !== undefined ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined
    )
      return false;
    const identity = await identityOf(deps, request);
    if (!identity) return false;
    const format = negotiateFormat(headers.accept);
    if (!format) return false;
    const rendition = await deps.content.rendition(identity, match[1]!, match[2]!.toLowerCase(), format);
    if (rendition.state !== 'ready') return false;
    const stored = await storedReply(
      deps.store,
      headers['if-none-match'],
      headers['accept-encoding'],
      rendition.hash,
      RESPONSE_TYPE[format],
    );
    if (!stored || stored.compressible || !open) return false;
    const requestId = (headers['x-request-id'] as string | undefined) || randomUUID();
    const logger = log();
    const logged = LOGS_REQUESTS.has(logger.level) ? logger.child({ reqId: requestId }) : undefined;
    logged?.info(
      {
        req: {
          method: 'GET',
          url: request.url,
          headers,
          host: headers.host,
          ip: request.socket.remoteAddress,
          socket: request.socket,
        },
      },
      'incoming request',
    );
    response.writeHead(stored.status, {
      ...stored.headers,
      ...deps.headers,
      'x-request-id': requestId,
      ...(stored.body ? { 'content-length': String(stored.body.length) } : {}),
    });
    response.end(stored.body);
    const ms = performance.now() - started;
    record(stored.status, ms);
    logged?.info({ res: { statusCode: stored.status }, responseTime: ms }, 'request completed');
    return true;
  };
  return { handle, stop: () => void (open = false) };
}

/** Who the request is from, when the full path would take its credentials without a word. */
async function identityOf(deps: FastReadDeps, request: IncomingMessage): Promise<Identity | undefined> {
  const header = request.headers.authorization;
  if (header === undefined) return deps.signIn && request.headers.cookie !== undefined ? undefined : ANONYMOUS;
  // An address with refused credentials on record may be over its limit: the full path decides.
  if (!deps.failures.clear) return undefined;
  const token = bearerToken(header);
  if (token === undefined || (deps.signIn && isJwt(token))) return undefined;
  return localTokenIdentity(deps.tokens, token);
}
