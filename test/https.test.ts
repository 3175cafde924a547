/**
 * HTTPS with --tls-cert/--tls-key: a certificate made for the run by openssl, a TLS 1.3 client
 * served, a client that stops at TLS 1.2 refused at the handshake, plain HTTP not answered.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { catalogJson } from './support/documents.js';
import { cli, newDataDir, TestServer } from './support/server.js';

let server: TestServer;
let cert: Buffer;
let files: { cert: string; key: string };

function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const out = { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      out.key,
      '-out',
      out.cert,
    ],
    { stdio: 'ignore' },
  );
  return out;
}

before(async () => {
  const dataDir = newDataDir();
  files = selfSignedCertificate(dataDir);
  cert = readFileSync(files.cert);
  server = await TestServer.start({ dataDir, args: ['--tls-cert', files.cert, '--tls-key', files.key] });
});

after(async () => {
  await server.stop();
});

/** A request trusting only the run's certificate, with the negotiated protocol. */
function get(
  path: string,
  options: { method?: string; token?: string; body?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; protocol: string | null; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body) headers['content-type'] = 'application/json';
    const req = httpsRequest(
      `${server.url}${path}`,
      { method: options.method ?? 'GET', ca: cert, headers, agent: false },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            protocol: (res.socket as TLSSocket).getProtocol(),
            text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('HTTPS', () => {
  test('a TLS 1.3 client that trusts the certificate is served, with HSTS', async () => {
    const res = await get('/healthz');
    assert.equal(res.status, 200);
    assert.equal(res.protocol, 'TLSv1.3');
    assert.match(String(res.headers['strict-transport-security']), /^max-age=\d+/);
  });

  test('a client that speaks at most TLS 1.2 is refused during the handshake', async () => {
    const error = await new Promise<Error>((resolve, reject) => {
      const socket = connectTls(
        { host: '127.0.0.1', port: server.port, ca: cert, maxVersion: 'TLSv1.2', servername: '' },
        () => reject(new Error(`handshake succeeded with ${socket.getProtocol()}`)),
      );
      socket.on('error', resolve);
    });
    assert.match(
      `${(error as NodeJS.ErrnoException).code} ${error.message}`,
      /protocol version|ALERT_PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL/i,
    );
  });

  test('plain HTTP on the HTTPS port gets no HTTP answer', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = connectTcp(server.port, '127.0.0.1', () =>
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      let data = '';
      socket.on('data', (d) => (data += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(data));
    });
    assert.doesNotMatch(answer, /^HTTP\/1\.1 200/);
  });

  test('links the server makes are https by default', async () => {
    const token = readFileSync(join(server.dataDir, 'admin-token'), 'utf8').trim();
    const created = await get('/oscal/v1/catalog', { method: 'POST', token, body: catalogJson() });
    assert.equal(created.status, 201, created.text);
    assert.match(
      String(created.headers.location),
      new RegExp(`^https://127\\.0\\.0\\.1:${server.port}/oscal/v1/catalog/`),
    );
  });

  test('--tls-cert without --tls-key is refused at start, naming both options', () => {
    const r = cli(['serve', '--port', '0', '--data', newDataDir(), '--tls-cert', files.cert]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--tls-cert and --tls-key/);
  });
});
