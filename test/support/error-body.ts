/** Checks of the one error body of D3 and of what responses must not reveal. */
import assert from 'node:assert/strict';
import type { ApiResponse } from './http.js';

export interface ErrorBody {
  'status-code': number;
  code: string;
  message: string;
  errors?: { path: string; message: string; line?: number; column?: number }[];
}

/** `{"status-code": N, "code", "message", "errors"?}` with N the HTTP status, and a message naming the problem. */
export function assertErrorBody(res: ApiResponse, status: number, message?: RegExp): ErrorBody {
  assert.equal(res.status, status, `expected HTTP ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
  assert.match(String(res.headers['content-type']), /^application\/json\b/, 'an error body is JSON');
  const body = res.json() as ErrorBody;
  assert.equal(typeof body, 'object');
  assert.deepEqual(
    Object.keys(body).filter((k) => !['status-code', 'code', 'message', 'errors'].includes(k)),
    [],
    'no other members in an error body',
  );
  assert.equal(body['status-code'], status, 'status-code equals the HTTP status');
  assert.equal(typeof body.code, 'string');
  assert.ok(body.code.length > 0, 'code is not empty');
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0, 'message is not empty');
  if ('errors' in body) {
    assert.ok(Array.isArray(body.errors) && body.errors.length > 0, 'errors, when present, is a non-empty array');
    for (const e of body.errors!) {
      assert.equal(typeof e.path, 'string');
      assert.equal(typeof e.message, 'string');
      if (e.line !== undefined) assert.ok(Number.isInteger(e.line) && e.line > 0, `line ${e.line}`);
      if (e.column !== undefined) assert.ok(Number.isInteger(e.column) && e.column >= 0, `column ${e.column}`);
    }
  }
  if (message) assert.match(body.message, message);
  return body;
}

/** No byte of these strings anywhere in the response: status line aside, neither headers nor body. */
export function assertNoneOf(res: ApiResponse, secrets: string[], what = 'the response'): void {
  const headers = JSON.stringify(res.headers);
  for (const s of secrets) {
    assert.ok(!res.text.includes(s), `${what} body reveals ${JSON.stringify(s)}: ${res.text.slice(0, 300)}`);
    assert.ok(!headers.includes(s), `${what} headers reveal ${JSON.stringify(s)}: ${headers}`);
  }
}

/**
 * A response to a caller who may not read a document: none of its identifying strings, and
 * exactly what the same caller gets for a document that does not exist (D3: never reveal existence).
 */
export function assertConceals(res: ApiResponse, fingerprints: string[], absent: ApiResponse): void {
  assertNoneOf(res, fingerprints);
  assert.equal(res.status, absent.status, 'the same status as for a document that does not exist');
  assert.deepEqual(res.json(), absent.json(), 'the same body as for a document that does not exist');
}
