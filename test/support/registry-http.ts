/** One HTTP request like support/http.ts's api(), but one that gives up (and closes the connection) after a time limit. */
import { request as httpRequest } from 'node:http';
import type { ApiRequest, ApiResponse } from './http.js';

export class NoAnswer extends Error {}

/**
 * Rejects with NoAnswer when the server has not answered within `ms`, and destroys the socket so
 * that a request the server never finishes does not keep the server from shutting down.
 */
export function timedApi(base: string, method: string, path: string, options: ApiRequest = {}, ms = 5_000): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.accept) headers.accept = options.accept;
  const body = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: bytes, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new NoAnswer(`${method} ${path}: no answer within ${ms} ms`));
    }, ms);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    if (body) req.write(body);
    req.end();
  });
}
