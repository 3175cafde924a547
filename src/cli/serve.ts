import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { signInSettings, type SignInOptions } from '../auth/oidc-settings.js';
import { createToken, expiryFrom } from '../auth/tokens.js';
import type { AppOptions } from '../http/app.js';
import { parseCorsOrigins } from '../http/cors.js';
import type { TlsFiles } from '../http/server-factory.js';
import { LEVELS, type Level } from '../oscal/constraints/model.js';
import { RenditionWorkers } from '../service/rendition-workers.js';
import type { StoreConfig } from '../store/index.js';
import type { TokenStore } from '../store/types.js';
import { openStoreFor, UsageError } from './failures.js';
import { parseMap } from './file-loader.js';
import { durationValue, portValue, sizeValue, wholeNumberValue } from './option-values.js';
import { collectMapping } from './resolve.js';

interface ServeOptions extends SignInOptions {
  databaseUrl?: string;
  port: number;
  host: string;
  data: string;
  publicUrl?: string;
  maxBody: number;
  maxAttachment: number;
  resolveMap: string[];
  tokenCache: number;
  resolveAllowHost: string[];
  workers: number;
  inlineRenditions: number;
  logLevel: string;
  defaultVisibility: 'public' | 'private';
  rejectLevel: Level;
  requestTimeout: string;
  headersTimeout: string;
  authFailureLimit: number;
  authFailureWindow: string;
  corsOrigins?: string;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: string;
}

const milliseconds = (duration: string) => expiryFrom(duration, 0).getTime();

function tlsFiles(opts: ServeOptions): TlsFiles | undefined {
  if (!opts.tlsCert !== !opts.tlsKey) throw new UsageError('--tls-cert and --tls-key go together: give both to serve HTTPS, or neither');
  return opts.tlsCert && opts.tlsKey ? { cert: readFileSync(opts.tlsCert), key: readFileSync(opts.tlsKey) } : undefined;
}

/** The server's protections against slow, hostile or foreign clients, from the options. */
function protectionsOf(opts: ServeOptions): Pick<AppOptions, 'timeouts' | 'authFailures' | 'corsOrigins' | 'tls' | 'trustProxy'> {
  const tls = tlsFiles(opts);
  return {
    timeouts: { requestMs: milliseconds(opts.requestTimeout), headersMs: milliseconds(opts.headersTimeout) },
    authFailures: { limit: opts.authFailureLimit === 0 ? Infinity : opts.authFailureLimit, windowMs: milliseconds(opts.authFailureWindow) },
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

function seconds(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n)) throw new InvalidArgumentError('expected a number of seconds, e.g. 5 or 0');
  return n;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('serve the OSCAL REST interface (/oscal/v1) from the store in the data directory')
    .addOption(new Option('--port <port>', 'TCP port').env('PORT').default(8080).argParser(portValue))
    .addOption(new Option('--host <host>', 'address to listen on').env('HOST').default('127.0.0.1'))
    .addOption(new Option('--data <dir>', 'data directory (SQLite file, admin token)').env('OSCAL_DEPOT_DATA').default('./data'))
    .addOption(new Option('--database-url <url>', 'PostgreSQL URL: store everything there instead of the SQLite file (several servers may share it)').env('DATABASE_URL'))
    .addOption(new Option('--public-url <url>', 'the URL clients reach this server at (for links)').env('OSCAL_DEPOT_PUBLIC_URL'))
    .addOption(new Option('--max-body <size>', 'largest request body, e.g. 50MB').env('OSCAL_DEPOT_MAX_BODY').default(sizeValue('50MB'), '50MB').argParser(sizeValue))
    .addOption(new Option('--max-attachment <size>', 'largest attachment file').env('OSCAL_DEPOT_MAX_ATTACHMENT').default(sizeValue('100MB'), '100MB').argParser(sizeValue))
    .addOption(new Option('--token-cache <seconds>', 'how long a token stays trusted without a store lookup; a revocation takes up to this long to reach a running server (0: look up every request)').env('OSCAL_DEPOT_TOKEN_CACHE').default(5).argParser(seconds))
    .option('--resolve-map <URL=path>', 'profile imports at URL (as written, or once resolved) come from this local file; repeatable', collectMapping, [])
    .option('--resolve-allow-host <host>', 'profile imports may be fetched from this host; repeatable (default: none, no network fetch)', (host: string, all: string[]) => [...all, host], [])
    .addOption(new Option('--workers <n>', 'rendition worker threads (0: this process makes none in the background)').env('OSCAL_DEPOT_WORKERS').default(1).argParser(wholeNumberValue))
    .addOption(new Option('--inline-renditions <size>', 'largest document (JSON form) whose XML and YAML are made within the write; larger ones go to workers').env('OSCAL_DEPOT_INLINE_RENDITIONS').default(sizeValue('512KB'), '512KB').argParser(sizeValue))
    .addOption(new Option('--default-visibility <v>', 'visibility of new documents').choices(['private', 'public']).env('OSCAL_DEPOT_DEFAULT_VISIBILITY').default('private'))
    .addOption(new Option('--reject-level <level>', 'writes whose content breaks a constraint at this level or above are refused (422); lower findings are kept with the revision').choices(LEVELS).env('OSCAL_DEPOT_REJECT_LEVEL').default('ERROR'))
    .addOption(new Option('--oidc-issuer <url>', 'OpenID Connect provider for bearer JWTs and web sign-in (without it: local tokens only)').env('OSCAL_DEPOT_OIDC_ISSUER'))
    .addOption(new Option('--oidc-client-id <id>', 'this server\'s client id at the provider').env('OSCAL_DEPOT_OIDC_CLIENT_ID'))
    .addOption(new Option('--oidc-client-secret <secret>', 'the client\'s secret (prefer the environment variable)').env('OSCAL_DEPOT_OIDC_CLIENT_SECRET'))
    .addOption(new Option('--oidc-audience <aud>', 'audience bearer JWTs must carry (default: the client id)').env('OSCAL_DEPOT_OIDC_AUDIENCE'))
    .addOption(new Option('--oidc-username-claim <claim>', 'claim naming the user; names become oidc:<value>').env('OSCAL_DEPOT_OIDC_USERNAME_CLAIM').default('sub'))
    .addOption(new Option('--oidc-roles-claim <claim>', 'claim with admin, writer or reader (array or space-separated; highest wins; default reader)').env('OSCAL_DEPOT_OIDC_ROLES_CLAIM').default('roles'))
    .addOption(new Option('--oidc-groups-claim <claim>', 'claim with the groups that grants to group:<name> reach').env('OSCAL_DEPOT_OIDC_GROUPS_CLAIM').default('groups'))
    .addOption(new Option('--oidc-scopes <scopes>', 'scopes web sign-in asks for').env('OSCAL_DEPOT_OIDC_SCOPES').default('openid profile email'))
    .addOption(new Option('--session-secret <secret>', 'key material for session cookies, 32+ characters (default: generated into the data directory; set it when several servers share a database)').env('OSCAL_DEPOT_SESSION_SECRET'))
    .addOption(new Option('--session-lifetime <duration>', 'how long a web sign-in lasts, e.g. 8h').env('OSCAL_DEPOT_SESSION_LIFETIME').default('8h').argParser(durationValue))
    .addOption(new Option('--tls-cert <file>', 'serve HTTPS (TLS 1.3 at least) with this PEM certificate chain; needs --tls-key').env('OSCAL_DEPOT_TLS_CERT'))
    .addOption(new Option('--tls-key <file>', 'the PEM private key of --tls-cert').env('OSCAL_DEPOT_TLS_KEY'))
    .addOption(new Option('--request-timeout <duration>', 'a request\'s headers and body must arrive within this, e.g. 120s').env('OSCAL_DEPOT_REQUEST_TIMEOUT').default('120s').argParser(durationValue))
    .addOption(new Option('--headers-timeout <duration>', 'a request\'s headers must arrive within this').env('OSCAL_DEPOT_HEADERS_TIMEOUT').default('30s').argParser(durationValue))
    .addOption(new Option('--auth-failure-limit <n>', 'refused credentials one client address may present per window before it gets 429 (0: no limit)').env('OSCAL_DEPOT_AUTH_FAILURE_LIMIT').default(10).argParser(wholeNumberValue))
    .addOption(new Option('--auth-failure-window <duration>', 'the window of --auth-failure-limit').env('OSCAL_DEPOT_AUTH_FAILURE_WINDOW').default('1m').argParser(durationValue))
    .addOption(new Option('--cors-origins <origins>', 'origins whose web pages may call the API, comma-separated, or * for any (default: none, CORS off)').env('OSCAL_DEPOT_CORS_ORIGINS'))
    .addOption(new Option('--trust-proxy <value>', 'take the client address from X-Forwarded-For set by these proxies: addresses or CIDR ranges, comma-separated, or true for any (default: none)').env('OSCAL_DEPOT_TRUST_PROXY'))
    .addOption(new Option('--log-level <level>', 'log level').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).env('LOG_LEVEL').default('info'))
    .action(async (opts: ServeOptions) => {
      // Options are checked before the store opens or a worker starts.
      const protections = protectionsOf(opts);
      const storeConfig: StoreConfig = { dataDir: opts.data, ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}) };
      const store = await openStoreFor(storeConfig);
      // Jobs a stopped server left running go back to the queue (each backend knows which those are).
      await store.requeueRunningJobs();
      const publicUrl = (opts.publicUrl ?? `${protections.tls ? 'https' : 'http'}://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${opts.port}`).replace(/\/+$/, '');
      const signIn = signInSettings(opts, { publicUrl, dataDir: opts.data, sharedStore: Boolean(opts.databaseUrl) });
      const workers = new RenditionWorkers(opts.workers, storeConfig, (e) => app.log.error({ err: e }, 'rendition worker failed'));
      // The server's modules load only when serving, so the other commands start quickly.
      const { buildApp } = await import('../http/app.js');
      const app = await buildApp({
        store, workers, publicUrl, maxBody: opts.maxBody, maxAttachment: opts.maxAttachment,
        tokenCacheMs: opts.tokenCache * 1000,
        imports: { importMap: parseMap(opts.resolveMap), allowHosts: new Set(opts.resolveAllowHost) }, defaultVisibility: opts.defaultVisibility, inlineRenditionLimit: opts.inlineRenditions,
        rejectLevel: opts.rejectLevel,
        logger: { level: opts.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
        ...(signIn ? { signIn: signIn.settings } : {}),
        ...protections,
      });
      if (signIn?.info) app.log.info(signIn.info);
      if (signIn?.warning) app.log.warn(signIn.warning);
      await ensureAdminToken(store, opts.data, (m) => app.log.info(m));

      let closing = false;
      const shutdown = async (signal: string) => {
        if (closing) return;
        closing = true;
        app.log.info(`${signal}: finishing in-flight requests, then stopping`);
        await app.close();
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
    });
}

function hostAndPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Node's "listen EADDRINUSE: address already in use 127.0.0.1:8080", without the code and the address, which the line names already. */
function listenFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  const reason = error.message.replace(/^listen \w+: /, '').replace(/ \S*:\d+$/, '');
  return code === 'EACCES' ? `${reason} (ports below 1024 need privileges; choose another with --port)` : reason;
}
