import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from '../store/types.js';
import { describe, json, ref, TAGS } from './openapi.js';

/** Request counts and durations by route, kept for /metrics whichever path answered. */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'oscal_depot_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'oscal_depot_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 1, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  record(method: string, route: string, status: number, ms: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.duration.observe({ method, route }, ms / 1000);
  }

  /** record() for one route, with its series looked up once rather than on every request. */
  recorder(method: string, route: string): (status: number, ms: number) => void {
    const counts = new Map<number, { inc: () => void }>();
    const duration = this.duration.labels({ method, route });
    return (status, ms) => {
      let count = counts.get(status);
      if (!count) counts.set(status, (count = this.requests.labels({ method, route, status: String(status) })));
      count.inc();
      duration.observe(ms / 1000);
    };
  }
}

/** How often the server's kept compilations and resolutions were made and reused, by outcome. */
export interface ReuseCounts {
  constraintSets: { compiled: number; reused: number };
  profileResolutions: { resolved: number; reused: number };
}

/** /healthz, /readyz and /metrics (Prometheus text), outside the API's base paths. */
export async function opsRoutes(
  app: FastifyInstance,
  store: Store,
  metrics: HttpMetrics,
  reuse: ReuseCounts,
): Promise<void> {
  const registry = metrics.registry;
  new Gauge({
    name: 'oscal_depot_constraint_set_compilations',
    help: 'Registered constraint sets compiled for validation since the server started, and compiled ones reused',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      for (const [outcome, n] of Object.entries(reuse.constraintSets)) this.set({ outcome }, n);
    },
  });
  new Gauge({
    name: 'oscal_depot_profile_resolutions',
    help: "Profiles that validation's resolve-profile() resolved since the server started, and resolutions reused",
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      for (const [outcome, n] of Object.entries(reuse.profileResolutions)) this.set({ outcome }, n);
    },
  });
  new Gauge({
    name: 'oscal_depot_documents',
    help: 'Stored documents',
    registers: [registry],
    async collect() {
      this.set(await store.countDocuments());
    },
  });
  new Gauge({
    name: 'oscal_depot_rendition_jobs',
    help: 'Rendition jobs by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      for (const status of ['queued', 'running', 'failed'] as const)
        this.set({ status }, await store.countJobs(status));
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    metrics.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime);
  });

  const ops = { tags: [TAGS.operations], access: 'public', api: false } as const;
  app.get(
    '/healthz',
    describe({
      ...ops,
      operationId: 'getHealth',
      summary: 'Liveness: the process answers',
      responses: { 200: json('The process is up', ref('Status'), { example: { status: 'ok' } }) },
    }),
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    describe({
      ...ops,
      operationId: 'getReadiness',
      summary: 'Readiness: the store answers',
      responses: {
        200: json('Ready to serve', ref('Status'), { example: { status: 'ready' } }),
        503: json('The store does not answer', ref('Status'), { example: { status: 'store unavailable' } }),
      },
    }),
    async (_request, reply) => {
      const ok = await store.ping().catch(() => false);
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'store unavailable' });
    },
  );
  app.get(
    '/metrics',
    describe({
      ...ops,
      operationId: 'getMetrics',
      summary: 'Prometheus metrics: requests by route and status, documents, rendition jobs, the process',
      responses: {
        200: {
          description: 'Prometheus text exposition format 0.0.4',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      },
    }),
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );
}
