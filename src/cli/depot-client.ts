import { Option } from 'commander';
import { UsageError } from './failures.js';

/** --server of the commands that talk to a server (OSCAL_DEPOT_SERVER). */
export const serverOption = () =>
  new Option('--server <url>', "the server's address, such as http://127.0.0.1:8080")
    .env('OSCAL_DEPOT_SERVER')
    .makeOptionMandatory();

/** --token of the commands that talk to a server (OSCAL_DEPOT_TOKEN); `what` says what it must allow. */
export const tokenOption = (what = 'without one, public documents only') =>
  new Option('--token <token>', `API token (${what}); safer in the environment than on the command line`).env(
    'OSCAL_DEPOT_TOKEN',
  );

/** An answer of the server, its body read whole (fetch has already undone any Content-Encoding). */
export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** The detail lines of the server's error body (D3), as far as they go. */
interface ErrorDetail {
  path?: string;
  line?: number;
  column?: number;
  message?: string;
}

/** Detail lines shown under a refusal: enough to act on, not a whole validation report. */
const SHOWN_DETAILS = 5;

/**
 * The generic interface of one OSCAL Depot server (/oscal/v1), as one token sees it. A refused
 * connection or an unreachable host is a UsageError: the person running the command can fix it.
 */
export class DepotClient {
  readonly api: string;

  constructor(
    server: string,
    private readonly token: string | undefined,
  ) {
    this.api = apiBase(server);
  }

  async request(
    method: string,
    path: string,
    options: { body?: Buffer; contentType?: string; accept?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (options.contentType) headers['content-type'] = options.contentType;
    if (options.accept) headers.accept = options.accept;
    const url = path.startsWith('http:') || path.startsWith('https:') ? path : `${this.api}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(options.body ? { body: options.body } : {}),
        redirect: 'manual',
      });
    } catch (e) {
      throw new UsageError(`cannot reach ${this.api}: ${causeOf(e)}`);
    }
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  /** A JSON answer that must be 200; anything else is an error naming the server's reason. */
  async getJson<T>(path: string): Promise<T> {
    const answer = await this.request('GET', path, { accept: 'application/json' });
    if (answer.status !== 200) throw new RequestFailed(`GET ${path}`, answer);
    return JSON.parse(answer.body.toString('utf8')) as T;
  }

  /**
   * Every list item of a model the token may read, oldest first (so that, of two documents that
   * are the same, the first made is found first), following the Link rel="next" pages.
   */
  async listAll(model: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let next: string | undefined = `/${model}?limit=1000&sort=created`;
    while (next) {
      const answer = await this.request('GET', next, { accept: 'application/json' });
      if (answer.status !== 200) throw new RequestFailed(`GET /${model}`, answer);
      const page = JSON.parse(answer.body.toString('utf8')) as Record<string, Record<string, unknown>[]>;
      items.push(...(page[`${model}-list`] ?? []));
      next = nextPage(answer.headers.get('link'), this.api);
    }
    return items;
  }
}

/**
 * The server's own answer to a request that did not succeed. Where it ends a command (a token the
 * server refuses), its one line says all there is: a stack of this process would not help.
 */
export class RequestFailed extends UsageError {
  constructor(
    readonly what: string,
    readonly answer: Answer,
  ) {
    super(`${what}: ${reasonOf(answer)}`);
  }
}

/** `https://host/`, `https://host/oscal/v1` and `https://host/prefix` all name the interface under them. */
function apiBase(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new UsageError(`--server ${server} is not a URL; give the server's address, such as http://127.0.0.1:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--server ${server} is not an http or https URL`);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/oscal\/v1$/, '');
  return `${url.origin}${path}/oscal/v1`;
}

/** fetch says "fetch failed"; the reason (ECONNREFUSED, a bad certificate) is in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** The next page's address from a Link header, made relative to the interface when it is on it. */
function nextPage(link: string | null, api: string): string | undefined {
  const target = link?.match(/<([^>]+)>\s*;\s*rel="?next"?/)?.[1];
  if (!target) return undefined;
  const url = new URL(target, api);
  const base = new URL(api);
  // The server announces pages under its public URL, which may differ from the address used here.
  return url.pathname.startsWith(base.pathname) ? `${url.pathname.slice(base.pathname.length)}${url.search}` : url.href;
}

/**
 * `422 invalid-oscal: the body is not valid OSCAL: …` and, indented below, the first details with
 * their place in the document, as the server gave them.
 */
export function reasonOf(answer: Answer): string {
  let body: { code?: string; message?: string; errors?: ErrorDetail[] } | undefined;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    // not the server's error object (a proxy's page, say): the status is all there is
  }
  if (!body || typeof body.message !== 'string') return `HTTP ${answer.status}`;
  const details = (body.errors ?? []).slice(0, SHOWN_DETAILS).map((d) => {
    const where = d.line !== undefined ? `line ${d.line}${d.column !== undefined ? `:${d.column}` : ''} ` : '';
    return `\n    ${where}${d.path || '/'} ${d.message ?? ''}`;
  });
  const more =
    (body.errors?.length ?? 0) > SHOWN_DETAILS ? `\n    … and ${body.errors!.length - SHOWN_DETAILS} more` : '';
  return `${answer.status} ${body.code ?? 'error'}: ${body.message}${details.join('')}${more}`;
}
