import { request as httpRequest } from 'node:http';

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json: () => any;
}

export interface ApiRequest {
  token?: string;
  body?: string | Buffer;
  contentType?: string;
  accept?: string;
  headers?: Record<string, string>;
  /** Give up after this long, destroying the socket so a request the server never finishes cannot hold up its shutdown. */
  timeoutMs?: number;
}

export class NoAnswer extends Error {}

/**
 * One request over a fresh loopback connection with node:http, so that the exact bytes and
 * headers on the wire are seen (no automatic decompression, no added headers).
 */
export function api(base: string, method: string, path: string, options: ApiRequest = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.accept) headers.accept = options.accept;
  const body =
    options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            req.destroy();
            reject(new NoAnswer(`${method} ${path}: no answer within ${options.timeoutMs} ms`));
          }, options.timeoutMs);
    // The path goes on the wire as written: no dot segments resolved, no escapes normalised.
    const target = new URL(base);
    const prefix = `${target.pathname === '/' ? '' : target.pathname}${target.search}`;
    const req = httpRequest(
      { hostname: target.hostname, port: target.port, path: `${prefix}${path}` || '/', method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const bytes = Buffer.concat(chunks);
          // Decoded on first use: a large binary body is never read as text.
          let text: string | undefined;
          const textOf = () => (text ??= bytes.toString('utf8'));
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: bytes,
            get text() {
              return textOf();
            },
            json: () => JSON.parse(textOf()),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    if (body) req.write(body);
    req.end();
  });
}
