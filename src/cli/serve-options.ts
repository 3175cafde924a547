/**
 * The options of `oscal-depot serve`, described once: commander's options are made from this
 * table, the type of the values they give is derived from it, and test/serve-options.test.ts
 * holds `--help` and the README's tables of options to it.
 */
import { type Command, Option } from 'commander';
import { LEVELS } from '../oscal/constraints/model.js';
import { collectValue, durationValue, portValue, secondsValue, sizeValue, wholeNumberValue } from './option-values.js';
import { collectMapping } from './resolve.js';

export interface OptionSpec {
  /** The long flag, whose camel-cased name is the option's property, and its value's placeholder. */
  readonly flags: `--${string} <${string}>`;
  readonly help: string;
  /** Read when the command line does not give the option; the command line wins. */
  readonly env?: string;
  /** As a user would write it (`50MB`), and so shown by `--help` and the README. */
  readonly default?: string;
  readonly parse?: (text: string) => unknown;
  readonly choices?: readonly string[];
  /** Repeatable: each value given joins those before it; none by default. */
  readonly collect?: (text: string, all: string[]) => string[];
}

/** Where the store is: every command that opens it takes these, each command with help in its own words. */
export const STORE_OPTIONS = {
  data: { flags: '--data <dir>', env: 'OSCAL_DEPOT_DATA', default: './data' },
  databaseUrl: { flags: '--database-url <url>', env: 'DATABASE_URL' },
} as const;

/** In the order `--help` lists them. */
export const SERVE_OPTIONS = [
  { flags: '--port <port>', help: 'TCP port', env: 'PORT', default: '8080', parse: portValue },
  { flags: '--host <host>', help: 'address to listen on', env: 'HOST', default: '127.0.0.1' },
  { ...STORE_OPTIONS.data, help: 'data directory (SQLite file, admin token)' },
  {
    ...STORE_OPTIONS.databaseUrl,
    help: 'PostgreSQL URL: store everything there instead of the SQLite file (several servers may share it)',
  },
  {
    flags: '--public-url <url>',
    help: 'the URL clients reach this server at (for links)',
    env: 'OSCAL_DEPOT_PUBLIC_URL',
  },
  {
    flags: '--max-body <size>',
    help: 'largest request body, e.g. 50MB',
    env: 'OSCAL_DEPOT_MAX_BODY',
    default: '50MB',
    parse: sizeValue,
  },
  {
    flags: '--max-attachment <size>',
    help: 'largest attachment file',
    env: 'OSCAL_DEPOT_MAX_ATTACHMENT',
    default: '100MB',
    parse: sizeValue,
  },
  {
    flags: '--token-cache <seconds>',
    help:
      'how long a token stays trusted without a store lookup; a revocation takes up to this long to reach ' +
      'a running server (0: look up every request)',
    env: 'OSCAL_DEPOT_TOKEN_CACHE',
    default: '5',
    parse: secondsValue,
  },
  {
    flags: '--resolve-map <URL=path>',
    help: 'profile imports at URL (as written, or once resolved) come from this local file; repeatable',
    collect: collectMapping,
  },
  {
    flags: '--resolve-allow-host <host>',
    help: 'profile imports may be fetched from this host; repeatable (default: none, no network fetch)',
    collect: collectValue,
  },
  {
    flags: '--workers <n>',
    help: 'rendition worker threads (0: this process makes none in the background)',
    env: 'OSCAL_DEPOT_WORKERS',
    default: '1',
    parse: wholeNumberValue,
  },
  {
    flags: '--inline-renditions <size>',
    help: 'largest document (JSON form) whose XML and YAML are made within the write; larger ones go to workers',
    env: 'OSCAL_DEPOT_INLINE_RENDITIONS',
    default: '512KB',
    parse: sizeValue,
  },
  {
    flags: '--default-visibility <v>',
    help: 'visibility of new documents',
    choices: ['private', 'public'],
    env: 'OSCAL_DEPOT_DEFAULT_VISIBILITY',
    default: 'private',
  },
  {
    flags: '--reject-level <level>',
    help:
      'writes whose content breaks a constraint at this level or above are refused (422); ' +
      'lower findings are kept with the revision',
    choices: LEVELS,
    env: 'OSCAL_DEPOT_REJECT_LEVEL',
    default: 'ERROR',
  },
  {
    flags: '--oidc-issuer <url>',
    help: 'OpenID Connect provider for bearer JWTs and web sign-in (without it: local tokens only)',
    env: 'OSCAL_DEPOT_OIDC_ISSUER',
  },
  {
    flags: '--oidc-client-id <id>',
    help: "this server's client id at the provider",
    env: 'OSCAL_DEPOT_OIDC_CLIENT_ID',
  },
  {
    flags: '--oidc-client-secret <secret>',
    help: "the client's secret (prefer the environment variable)",
    env: 'OSCAL_DEPOT_OIDC_CLIENT_SECRET',
  },
  {
    flags: '--oidc-audience <aud>',
    help: 'audience bearer JWTs must carry (default: the client id)',
    env: 'OSCAL_DEPOT_OIDC_AUDIENCE',
  },
  {
    flags: '--oidc-username-claim <claim>',
    help: 'claim naming the user; names become oidc:<value>',
    env: 'OSCAL_DEPOT_OIDC_USERNAME_CLAIM',
    default: 'sub',
  },
  {
    flags: '--oidc-roles-claim <claim>',
    help: 'claim with admin, writer or reader (array or space-separated; highest wins; default reader)',
    env: 'OSCAL_DEPOT_OIDC_ROLES_CLAIM',
    default: 'roles',
  },
  {
    flags: '--oidc-groups-claim <claim>',
    help: 'claim with the groups that grants to group:<name> reach',
    env: 'OSCAL_DEPOT_OIDC_GROUPS_CLAIM',
    default: 'groups',
  },
  {
    flags: '--oidc-scopes <scopes>',
    help: 'scopes web sign-in asks for',
    env: 'OSCAL_DEPOT_OIDC_SCOPES',
    default: 'openid profile email',
  },
  {
    flags: '--session-secret <secret>',
    help:
      'key material for session cookies, 32+ characters (default: generated into the data directory; ' +
      'set it when several servers share a database)',
    env: 'OSCAL_DEPOT_SESSION_SECRET',
  },
  {
    flags: '--session-lifetime <duration>',
    help: 'how long a web sign-in lasts, e.g. 8h',
    env: 'OSCAL_DEPOT_SESSION_LIFETIME',
    default: '8h',
    parse: durationValue,
  },
  {
    flags: '--tls-cert <file>',
    help: 'serve HTTPS (TLS 1.3 at least) with this PEM certificate chain; needs --tls-key',
    env: 'OSCAL_DEPOT_TLS_CERT',
  },
  { flags: '--tls-key <file>', help: 'the PEM private key of --tls-cert', env: 'OSCAL_DEPOT_TLS_KEY' },
  {
    flags: '--request-timeout <duration>',
    help: "a request's headers and body must arrive within this, e.g. 120s",
    env: 'OSCAL_DEPOT_REQUEST_TIMEOUT',
    default: '120s',
    parse: durationValue,
  },
  {
    flags: '--headers-timeout <duration>',
    help: "a request's headers must arrive within this",
    env: 'OSCAL_DEPOT_HEADERS_TIMEOUT',
    default: '30s',
    parse: durationValue,
  },
  {
    flags: '--auth-failure-limit <n>',
    help: 'refused credentials one client address may present per window before it gets 429 (0: no limit)',
    env: 'OSCAL_DEPOT_AUTH_FAILURE_LIMIT',
    default: '10',
    parse: wholeNumberValue,
  },
  {
    flags: '--auth-failure-window <duration>',
    help: 'the window of --auth-failure-limit',
    env: 'OSCAL_DEPOT_AUTH_FAILURE_WINDOW',
    default: '1m',
    parse: durationValue,
  },
  {
    flags: '--cors-origins <origins>',
    help: 'origins whose web pages may call the API, comma-separated, or * for any (default: none, CORS off)',
    env: 'OSCAL_DEPOT_CORS_ORIGINS',
  },
  {
    flags: '--trust-proxy <value>',
    help:
      'take the client address from X-Forwarded-For set by these proxies: addresses or CIDR ranges, ' +
      'comma-separated, or true for any (default: none)',
    env: 'OSCAL_DEPOT_TRUST_PROXY',
  },
  {
    flags: '--log-level <level>',
    help: 'log level',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    env: 'LOG_LEVEL',
    default: 'info',
  },
] as const satisfies readonly OptionSpec[];

type Spec = (typeof SERVE_OPTIONS)[number];
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
/** Where commander keeps an option's value: its long flag, camel-cased. */
type PropertyOf<S> = S extends { flags: `--${infer Long} <${string}>` } ? CamelCase<Long> : never;
type ValueOf<S> = S extends { collect: (...args: never[]) => infer All }
  ? All
  : S extends { parse: (text: string) => infer Parsed }
    ? Parsed
    : S extends { choices: readonly (infer Choice)[] }
      ? Choice
      : string;
type AlwaysGiven = Extract<Spec, { default: string } | { collect: unknown }>;

/** The values `serve` is given, as commander hands them over: absent only where there is no default. */
export type ServeOptions = { [S in AlwaysGiven as PropertyOf<S>]: ValueOf<S> } & {
  [S in Exclude<Spec, AlwaysGiven> as PropertyOf<S>]?: ValueOf<S>;
};

export function commanderOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.help);
  if (spec.choices) option.choices(spec.choices);
  if (spec.parse) option.argParser(spec.parse);
  if (spec.collect) option.argParser(spec.collect).default([]);
  if (spec.env) option.env(spec.env);
  if (spec.default !== undefined) {
    // Commander parses only what is given, not the default. It shows a default as JSON (a size
    // would show in bytes), so any default that parses to other than its text is shown as written.
    const value = spec.parse ? spec.parse(spec.default) : spec.default;
    option.default(value, typeof value === 'string' ? undefined : spec.default);
  }
  return option;
}

export function addServeOptions(command: Command): Command {
  for (const spec of SERVE_OPTIONS) command.addOption(commanderOption(spec));
  return command;
}
