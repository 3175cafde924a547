import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { signInSettings, type SignInOptions } from '../auth/oidc-settings.js';
import { createToken } from '../auth/tokens.js';
import { buildApp } from '../http/app.js';
import { RenditionWorkers } from '../service/rendition-workers.js';
import { openStore, type StoreConfig } from '../store/index.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/types.js';
import { parseSize } from './sizes.js';

interface ServeOptions extends SignInOptions {
  databaseUrl?: string;
  port: string;
  host: string;
  data: string;
  publicUrl?: string;
  maxBody: string;
  workers: string;
  inlineRenditions: string;
  logLevel: string;
  defaultVisibility: 'public' | 'private';
}

/** On first start in local mode an admin token is written where only this user can read it (D6). */
async function ensureAdminToken(store: Store, dataDir: string, log: (message: string) => void): Promise<void> {
  if ((await store.countTokens()) > 0) return;
  const { token } = await createToken(store, { user: 'admin', role: 'admin', actor: 'server' });
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'admin-token');
  writeFileSync(file, token + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  log(`created the first admin token; it is in ${file} (readable only by this user)`);
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('serve the OSCAL REST interface (/oscal/v1) from the store in the data directory')
    .addOption(new Option('--port <port>', 'TCP port').env('PORT').default('8080'))
    .addOption(new Option('--host <host>', 'address to listen on').env('HOST').default('127.0.0.1'))
    .addOption(new Option('--data <dir>', 'data directory (SQLite file, admin token)').env('OSCAL_DEPOT_DATA').default('./data'))
    .addOption(new Option('--database-url <url>', 'PostgreSQL URL: store everything there instead of the SQLite file (several servers may share it)').env('DATABASE_URL'))
    .addOption(new Option('--public-url <url>', 'the URL clients reach this server at (for links)').env('OSCAL_DEPOT_PUBLIC_URL'))
    .addOption(new Option('--max-body <size>', 'largest request body, e.g. 50MB').env('OSCAL_DEPOT_MAX_BODY').default('50MB'))
    .addOption(new Option('--workers <n>', 'rendition worker threads (0: this process makes none in the background)').env('OSCAL_DEPOT_WORKERS').default('1'))
    .addOption(new Option('--inline-renditions <size>', 'largest document (JSON form) whose XML and YAML are made within the write; larger ones go to workers').env('OSCAL_DEPOT_INLINE_RENDITIONS').default('512KB'))
    .addOption(new Option('--default-visibility <v>', 'visibility of new documents').choices(['private', 'public']).env('OSCAL_DEPOT_DEFAULT_VISIBILITY').default('private'))
    .addOption(new Option('--oidc-issuer <url>', 'OpenID Connect provider for bearer JWTs and web sign-in (without it: local tokens only)').env('OSCAL_DEPOT_OIDC_ISSUER'))
    .addOption(new Option('--oidc-client-id <id>', 'this server\'s client id at the provider').env('OSCAL_DEPOT_OIDC_CLIENT_ID'))
    .addOption(new Option('--oidc-client-secret <secret>', 'the client\'s secret (prefer the environment variable)').env('OSCAL_DEPOT_OIDC_CLIENT_SECRET'))
    .addOption(new Option('--oidc-audience <aud>', 'audience bearer JWTs must carry (default: the client id)').env('OSCAL_DEPOT_OIDC_AUDIENCE'))
    .addOption(new Option('--oidc-username-claim <claim>', 'claim naming the user; names become oidc:<value>').env('OSCAL_DEPOT_OIDC_USERNAME_CLAIM').default('sub'))
    .addOption(new Option('--oidc-roles-claim <claim>', 'claim with admin, writer or reader (array or space-separated; highest wins; default reader)').env('OSCAL_DEPOT_OIDC_ROLES_CLAIM').default('roles'))
    .addOption(new Option('--oidc-groups-claim <claim>', 'claim with the groups that grants to group:<name> reach').env('OSCAL_DEPOT_OIDC_GROUPS_CLAIM').default('groups'))
    .addOption(new Option('--oidc-scopes <scopes>', 'scopes web sign-in asks for').env('OSCAL_DEPOT_OIDC_SCOPES').default('openid profile email'))
    .addOption(new Option('--session-secret <secret>', 'key material for session cookies, 32+ characters (default: generated into the data directory; set it when several servers share a database)').env('OSCAL_DEPOT_SESSION_SECRET'))
    .addOption(new Option('--session-lifetime <duration>', 'how long a web sign-in lasts, e.g. 8h').env('OSCAL_DEPOT_SESSION_LIFETIME').default('8h'))
    .addOption(new Option('--log-level <level>', 'log level').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).env('LOG_LEVEL').default('info'))
    .action(async (opts: ServeOptions) => {
      const storeConfig: StoreConfig = { dataDir: opts.data, ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}) };
      const store = await openStore(storeConfig);
      if (store instanceof SqliteStore) store.requeueRunningJobs();
      const port = Number(opts.port);
      const publicUrl = (opts.publicUrl ?? `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`).replace(/\/+$/, '');
      const signIn = signInSettings(opts, { publicUrl, dataDir: opts.data, sharedStore: Boolean(opts.databaseUrl) });
      const workers = new RenditionWorkers(Number(opts.workers), storeConfig, (e) => app.log.error({ err: e }, 'rendition worker failed'));
      const app = await buildApp({
        store, workers, publicUrl, maxBody: parseSize(opts.maxBody), defaultVisibility: opts.defaultVisibility, inlineRenditionLimit: parseSize(opts.inlineRenditions),
        logger: { level: opts.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
        ...(signIn ? { signIn: signIn.settings } : {}),
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
      await app.listen({ port, host: opts.host });
    });
}
