import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from '../store/types.js';

/** /healthz, /readyz and /metrics (Prometheus text), outside the API's base paths. */
export async function opsRoutes(app: FastifyInstance, store: Store): Promise<void> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'oscal_depot_http_requests_total', help: 'HTTP requests by method, route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({ name: 'oscal_depot_http_request_duration_seconds', help: 'HTTP request duration', labelNames: ['method', 'route'], buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 1, 5], registers: [registry] });
  new Gauge({ name: 'oscal_depot_documents', help: 'Stored documents', registers: [registry], async collect() { this.set(await store.countDocuments()); } });
  new Gauge({
    name: 'oscal_depot_rendition_jobs', help: 'Rendition jobs by status', labelNames: ['status'], registers: [registry],
    async collect() {
      for (const status of ['queued', 'running', 'failed'] as const) this.set({ status }, await store.countJobs(status));
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const hidden = { schema: { hide: true } };
  app.get('/healthz', hidden, async () => ({ status: 'ok' }));
  app.get('/readyz', hidden, async (_request, reply) => {
    const ok = await store.ping().catch(() => false);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'store unavailable' });
  });
  app.get('/metrics', hidden, async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
