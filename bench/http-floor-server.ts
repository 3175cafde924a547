/**
 * Child process of the HTTP benchmark: a bare node:http server replaying replies captured from
 * oscal-depot, byte for byte with the same headers, so it is the floor for the same wire traffic.
 * Uploads are read to the end before replying, as the depot does. Prints {"port": …} when listening.
 *
 * Usage: node dist/bench/http-floor-server.js <routes.json>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { floorKey, type FloorRoute } from './http-support.js';

const routes = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
for (const route of JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as FloorRoute[]) {
  routes.set(route.key, {
    status: route.status,
    headers: Object.fromEntries(route.headers),
    body: readFileSync(route.bodyFile),
  });
}

const server = createServer((req, res) => {
  const route = routes.get(floorKey(req.method ?? 'GET', req.url ?? '/', req.headers['accept-encoding']));
  req.on('end', () => {
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(route.status, route.headers).end(route.body);
  });
  req.resume();
});
// Fastify's default, so the Keep-Alive header reads the same.
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
