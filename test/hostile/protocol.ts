/**
 * HTTP framing no client library would send, over raw sockets: wrong Content-Length, smuggling
 * shapes, bodies and headers that trickle in past the timeouts, broken request lines. Every
 * answer is a 4xx with the error object, or the server closes the connection.
 */
import type { Category, RawCase } from './case.js';

const AUTH = 'Authorization: Bearer {{token}}\r\n';
const post = (path: string, headers: string) => `POST ${path} HTTP/1.1\r\nHost: depot\r\n${AUTH}${headers}\r\n`;
const CREATE = (headers: string) => post('/oscal/v1/catalog', `Content-Type: application/json\r\n${headers}`);
const GET_AUDIT_ANONYMOUSLY = 'GET /oscal/v1/audit HTTP/1.1\r\nHost: depot\r\n';

/** A stalled or trickling request must end in 408 (or a closed connection) once the server's timeouts pass. */
const SLOW = [408];
/** Bytes that are no valid HTTP at all. */
const BROKEN = [400];

export const protocol: Category = {
  name: 'protocol abuse over raw sockets',
  cases: (seeds): RawCase[] => [
    {
      name: 'Content-Length shorter than the body (the rest is read as a request)',
      raw: true,
      chunks: [CREATE('Content-Length: 2\r\n'), '{}GARBAGE / HTTP/1.1\r\n\r\n'],
      expect: [400, 422],
    },
    {
      name: 'Content-Length longer than the body, then half-close',
      raw: true,
      chunks: [CREATE('Content-Length: 1000\r\n'), '{"catalog":'],
      halfClose: true,
      expect: [400],
    },
    {
      name: 'Content-Length longer than the body, then silence',
      raw: true,
      chunks: [CREATE('Content-Length: 1000\r\n'), '{"catalog":'],
      expect: SLOW,
    },
    {
      name: 'Content-Length not a number',
      raw: true,
      chunks: [CREATE('Content-Length: abc\r\n'), '{}'],
      expect: BROKEN,
    },
    { name: 'Content-Length negative', raw: true, chunks: [CREATE('Content-Length: -5\r\n'), '{}'], expect: BROKEN },
    {
      name: 'Content-Length in exponent form',
      raw: true,
      chunks: [CREATE('Content-Length: 1e3\r\n'), '{}'],
      expect: BROKEN,
    },
    { name: 'Content-Length in hex', raw: true, chunks: [CREATE('Content-Length: 0x10\r\n'), '{}'], expect: BROKEN },
    {
      name: 'two different Content-Lengths',
      raw: true,
      chunks: [CREATE('Content-Length: 2\r\nContent-Length: 5\r\n'), '{}abc'],
      expect: BROKEN,
    },
    {
      name: 'Content-Length and chunked together (smuggling)',
      raw: true,
      chunks: [
        CREATE('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n'),
        '0\r\n\r\nGET /oscal/v1/audit HTTP/1.1\r\n\r\n',
      ],
      expect: BROKEN,
    },
    {
      name: 'two Transfer-Encodings',
      raw: true,
      chunks: [CREATE('Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n'), '2\r\n{}\r\n0\r\n\r\n'],
      expect: BROKEN,
    },
    {
      name: 'an unknown Transfer-Encoding',
      raw: true,
      chunks: [CREATE('Transfer-Encoding: xchunked\r\n'), '2\r\n{}\r\n0\r\n\r\n'],
      expect: BROKEN,
    },
    // Node passes the coded bytes on as they are: here they read as JSON that is no document.
    {
      name: 'gzip transfer coding',
      raw: true,
      chunks: [CREATE('Transfer-Encoding: gzip, chunked\r\n'), '2\r\n{}\r\n0\r\n\r\n'],
      expect: [400, 415, 422],
    },
    {
      name: 'a chunk size that is not hex',
      raw: true,
      chunks: [CREATE('Transfer-Encoding: chunked\r\n'), 'zz\r\nabc\r\n0\r\n\r\n'],
      expect: BROKEN,
    },
    {
      name: 'a chunk size of 2^64',
      raw: true,
      chunks: [CREATE('Transfer-Encoding: chunked\r\n'), 'ffffffffffffffffff\r\nabc\r\n'],
      expect: [400, 413],
    },
    {
      name: 'a chunk extension of 20 KB',
      raw: true,
      chunks: [CREATE('Transfer-Encoding: chunked\r\n'), `2;${'x'.repeat(20 * 1024)}\r\n{}\r\n0\r\n\r\n`],
      expect: [400, 413],
    },
    {
      name: 'a trailer of 20 KB',
      raw: true,
      chunks: [CREATE('Transfer-Encoding: chunked\r\n'), `1\r\n{\r\n0\r\nX-Trailer: ${'t'.repeat(20 * 1024)}\r\n\r\n`],
      expect: [400, 413, 431],
    },
    {
      name: 'a chunked body that stops without its last chunk',
      raw: true,
      chunks: [CREATE('Transfer-Encoding: chunked\r\n'), '2\r\n{}\r\n'],
      expect: SLOW,
    },
    {
      name: 'a declared 200 MB body (over the limit) that never comes',
      raw: true,
      chunks: [CREATE(`Content-Length: ${200 * 1024 * 1024}\r\n`)],
      expect: [413],
    },
    {
      name: 'Expect: 100-continue for 200 MB',
      raw: true,
      chunks: [CREATE(`Content-Length: ${200 * 1024 * 1024}\r\nExpect: 100-continue\r\n`)],
      expect: [413, 417],
    },
    {
      name: 'an unknown Expect',
      raw: true,
      chunks: [CREATE('Content-Length: 2\r\nExpect: 200-ok\r\n'), '{}'],
      expect: [417],
    },
    {
      name: 'headers trickling in a byte at a time',
      raw: true,
      chunks: [...`${GET_AUDIT_ANONYMOUSLY}X-Slow: ${'s'.repeat(40)}`],
      gapMs: 100,
      expect: SLOW,
    },
    { name: 'headers that never end', raw: true, chunks: [GET_AUDIT_ANONYMOUSLY], expect: SLOW },
    {
      name: 'a body trickling in a byte at a time',
      raw: true,
      chunks: [CREATE('Content-Length: 200\r\n'), ...'{"catalog":{"uuid":"x","metadata":{"title":"slowly"'],
      gapMs: 250,
      expect: SLOW,
    },
    {
      name: 'a body trickling into the registry',
      raw: true,
      chunks: [
        `PUT /api/v1/catalogs/${seeds.registryCatalog} HTTP/1.1\r\nHost: depot\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
        ...'{"catalog":{"uuid":"slow"',
      ],
      gapMs: 250,
      expect: SLOW,
    },
    {
      name: 'a multipart upload trickling in',
      raw: true,
      chunks: [
        post('/api/upload', 'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 500\r\n'),
        ...'--b\r\nContent-Disposition: form-data; name="file"; filename="x.json"\r\n\r\n{"cat',
      ],
      gapMs: 100,
      expect: SLOW,
    },
    {
      name: 'garbage bytes',
      raw: true,
      chunks: [Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 13, 10, 13, 10])],
      expect: BROKEN,
    },
    { name: 'an HTTP/0.9 request', raw: true, chunks: ['GET /oscal/v1/audit\r\n\r\n'], expect: [400, 401] },
    { name: 'an HTTP/1.1 request without Host', raw: true, chunks: ['GET /healthz HTTP/1.1\r\n\r\n'], expect: BROKEN },
    {
      name: 'an HTTP/2 preface on the HTTP/1.1 port',
      raw: true,
      chunks: ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
      expect: BROKEN,
    },
    {
      name: 'HTTP/9.9',
      raw: true,
      chunks: ['GET /oscal/v1/audit HTTP/9.9\r\nHost: depot\r\n\r\n'],
      expect: [400, 401, 505],
    },
    {
      name: 'an unknown method',
      raw: true,
      chunks: ['HACK /oscal/v1/audit HTTP/1.1\r\nHost: depot\r\n\r\n'],
      expect: BROKEN,
    },
    // With no handler for CONNECT, Node drops the connection.
    {
      name: 'CONNECT to another host',
      raw: true,
      chunks: ['CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n'],
      expect: [400, 404],
      orClosed: true,
    },
    {
      name: 'a WebSocket upgrade',
      raw: true,
      chunks: [
        `GET /oscal/v1/audit HTTP/1.1\r\nHost: depot\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${Buffer.from('0123456789abcdef').toString('base64')}\r\n\r\n`,
      ],
      expect: [400, 401, 404],
    },
    {
      name: 'a header line without a colon',
      raw: true,
      chunks: [`${GET_AUDIT_ANONYMOUSLY}NoColonHere\r\n\r\n`],
      expect: BROKEN,
    },
    {
      name: 'a space inside a header name',
      raw: true,
      chunks: [`${GET_AUDIT_ANONYMOUSLY}Bad Name: x\r\n\r\n`],
      expect: BROKEN,
    },
    {
      name: 'a folded header line',
      raw: true,
      chunks: [`${GET_AUDIT_ANONYMOUSLY}X-Folded: a\r\n  b\r\n\r\n`],
      expect: [400, 401],
    },
    {
      name: 'a NUL in a header value',
      raw: true,
      chunks: [`${GET_AUDIT_ANONYMOUSLY}X-Nul: a\u0000b\r\n\r\n`],
      expect: BROKEN,
    },
    {
      name: 'a CR without LF in a header value',
      raw: true,
      chunks: [`${GET_AUDIT_ANONYMOUSLY}X-Cr: a\rInjected: b\r\n\r\n`],
      expect: BROKEN,
    },
    {
      name: 'a file name injecting a header line',
      raw: true,
      chunks: [
        CREATE('Content-Disposition: attachment; filename="a.json"\r\nX-Injected: yes\r\nContent-Length: 1\r\n'),
        '{',
      ],
      expect: [400],
    },
    {
      name: 'a request id injecting a header line',
      raw: true,
      chunks: ['GET /oscal/v1/audit HTTP/1.1\r\nHost: depot\r\nX-Request-Id: a\rX-Injected: yes\r\n\r\n'],
      expect: BROKEN,
    },
    {
      name: 'a request line of 100 KB',
      raw: true,
      chunks: [`GET /oscal/v1/catalog?q=${'q'.repeat(100 * 1024)} HTTP/1.1\r\nHost: depot\r\n\r\n`],
      expect: [400, 414, 431],
    },
    {
      name: 'absolute-form URL naming another host',
      raw: true,
      chunks: ['GET http://evil.example/oscal/v1/audit HTTP/1.1\r\nHost: evil.example\r\n\r\n'],
      expect: [400, 401],
    },
    {
      name: '100 pipelined broken requests',
      raw: true,
      chunks: ['GET /oscal/v1/audit HTTP/1.1\r\nHost: depot\r\nBad Header\r\n\r\n'.repeat(100)],
      expect: BROKEN,
    },
  ],
};
