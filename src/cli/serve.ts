import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import type { FastifyBaseLogger } from 'fastify';
import { signInSettings } from '../auth/oidc-settings.js';
import { createToken, expiryFrom } from '../auth/tokens.js';
import type { AppOptions } from '../http/app.js';
import { parseCorsOrigins } from '../http/cors.js';
import type { TlsFiles } from '../http/server-factory.js';
import { RenditionWorkers } from '../service/rendition-workers.js';
import { SearchService } from '../service/search.js';
import type { Store, TokenStore } from '../store/types.js';
import { UsageError } from './failures.js';
import { parseMap } from './file-loader.js';
import { addServeOptions, type ServeOptions } from './serve-options.js';
import { openStoreFor, storeConfigOf } from './store-options.js';

const milliseconds = (duration: string) => expiryFrom(duration, 0).getTime();

function tlsFiles(opts: ServeOptions): TlsFiles | undefined {
  if (!opts.tlsCert !== !opts.tlsKey) {
    throw new UsageError('--tls-cert and --tls-key go together: give both to serve HTTPS, or neither');
  }
  if (!opts.tlsCert || !opts.tlsKey) return undefined;
  return { cert: readFileSync(opts.tlsCert), key: readFileSync(opts.tlsKey) };
}

type Protection = 'timeouts' | 'authFailures' | 'corsOrigins' | 'tls' | 'trustProxy';

/** The server's protections against slow, hostile or foreign clients, from the options. */
function protectionsOf(opts: ServeOptions): Pick<AppOptions, Protection> {
  const tls = tlsFiles(opts);
  return {
    timeouts: { requestMs: milliseconds(opts.requestTimeout), headersMs: milliseconds(opts.headersTimeout) },
    authFailures: {
      limit: opts.authFailureLimit === 0 ? Infinity : opts.authFailureLimit,
      windowMs: milliseconds(opts.authFailureWindow),
    },
    corsOrigins: opts.corsOrigins ? parseCorsOrigins(opts.corsOrigins) : [],
    ...(tls ? { tls } : {}),
    ...(opts.trustProxy ? { trustProxy: trustProxy(opts.trustProxy) } : {}),
  };
}

/** `true` (any), `false`, or addresses and CIDR ranges separated by commas. */
function trustProxy(text: string): boolean | string {
  return text === 'true' || text === 'false' ? text === 'true' : text;
}

/** On first start in local mode an admin token is written where only this user can read it (D6). */
async function ensureAdminToken(store: TokenStore, dataDir: string, log: (message: string) => void): Promise<void> {
  if ((await store.countTokens()) > 0) return;
  const { token } = await createToken(store, { user: 'admin', role: 'admin', actor: 'server' });
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'admin-token');
  writeFileSync(file, token + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  log(`created the first admin token; it is in ${file} (readable only by this user)`);
}

export function serveCommand(): Command {
  return addServeOptions(new Command('serve'))
    .description('serve the OSCAL REST interface (/oscal/v1) from the store in the data directory')
    .action(async (opts: ServeOptions) => {
      // Options are checked before the store opens or a worker starts.
      const protections = protectionsOf(opts);
      const storeConfig = storeConfigOf(opts);
      const store = await openStoreFor(storeConfig);
      // Jobs a stopped server left running go back to the queue (each backend knows which those are).
      await store.requeueRunningJobs();
      const scheme = protections.tls ? 'https' : 'http';
      const publicUrl = (opts.publicUrl ?? `${scheme}://${hostAndPort(opts.host, opts.port)}`).replace(/\/+$/, '');
      const signIn = signInSettings(opts, { publicUrl, dataDir: opts.data, sharedStore: Boolean(opts.databaseUrl) });
      const workers = new RenditionWorkers(opts.workers, storeConfig, (e) => {
        app.log.error({ err: e }, 'rendition worker failed');
      });
      // The server's modules load only when serving, so the other commands start quickly.
      const { buildApp } = await import('../http/app.js');
      const app = await buildApp({
        store,
        workers,
        publicUrl,
        maxBody: opts.maxBody,
        maxAttachment: opts.maxAttachment,
        tokenCacheMs: opts.tokenCache * 1000,
        imports: { importMap: parseMap(opts.resolveMap), allowHosts: new Set(opts.resolveAllowHost) },
        defaultVisibility: opts.defaultVisibility,
        inlineRenditionLimit: opts.inlineRenditions,
        rejectLevel: opts.rejectLevel,
        logger: { level: opts.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
        ...(signIn ? { signIn: signIn.settings } : {}),
        ...protections,
      });
      if (signIn?.info) app.log.info(signIn.info);
      if (signIn?.warning) app.log.warn(signIn.warning);
      await ensureAdminToken(store, opts.data, (m) => app.log.info(m));

      let closing = false;
      const stopIndexing = new AbortController();
      let indexing: Promise<void> = Promise.resolve();
      const shutdown = async (signal: string) => {
        if (closing) return;
        closing = true;
        app.log.info(`${signal}: finishing in-flight requests, then stopping`);
        stopIndexing.abort();
        await app.close();
        await indexing;
        await workers.stop();
        await store.close();
        app.log.info('stopped');
      };
      process.once('SIGTERM', () => void shutdown('SIGTERM'));
      process.once('SIGINT', () => void shutdown('SIGINT'));
      try {
        await app.listen({ port: opts.port, host: opts.host });
      } catch (e) {
        // Without this the open store and worker threads would keep a server that serves nothing running.
        closing = true;
        await app.close().catch(() => undefined);
        await workers.stop();
        await store.close();
        throw new UsageError(`cannot listen on ${hostAndPort(opts.host, opts.port)}: ${listenFailure(e)}`);
      }
      indexing = indexInBackground(store, stopIndexing.signal, app.log);
    });
}

/**
 * Documents without search entries (stored before the index, or before a migration emptied it)
 * are indexed while the server serves: searches find them as they are done.
 */
async function indexInBackground(store: Store, stop: AbortSignal, log: FastifyBaseLogger): Promise<void> {
  let indexed = 0;
  try {
    await new SearchService(store).indexUnindexed((done) => (done ? indexed++ : undefined), stop);
    if (indexed) log.info(`indexed ${indexed} document${indexed === 1 ? '' : 's'} for search`);
  } catch (e) {
    log.error({ err: e }, `indexing for search stopped after ${indexed} documents`);
  }
}

function hostAndPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Node's "listen EADDRINUSE: address already in use 127.0.0.1:8080", without the code and the
 * address, which the line names already.
 */
function listenFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  const reason = error.message.replace(/^listen \w+: /, '').replace(/ \S*:\d+$/, '');
  return code === 'EACCES' ? `${reason} (ports below 1024 need privileges; choose another with --port)` : reason;
}
