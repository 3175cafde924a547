/**
 * Shared by the HTTP benchmark (bench/http.ts) and its child processes: the sequential client,
 * how the bare server keys the replies it replays, and the titles of the seeded documents.
 */
import { readFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  /** As it came over the wire: still compressed when Content-Encoding says so. */
  body: Buffer;
  /** From sending the request to the last byte of the body. */
  ms: number;
}

/** Requests one at a time on a single keep-alive connection, bodies left undecoded. */
export class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(readonly origin: string) {}

  send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const start = performance.now();
      const sent = body ? { ...headers, 'content-length': String(body.length) } : headers;
      const req = request(this.origin + path, { method, headers: sent, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
            ms: performance.now() - start,
          }),
        );
      });
      req.on('error', reject);
      req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path}: no response within 60 s`)));
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The body as the application sent it, whatever the coding on the wire. */
export function decodedBody(reply: Reply): Buffer {
  const coding = reply.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(reply.body);
  if (coding === 'gzip') return gunzipSync(reply.body);
  return reply.body;
}

/**
 * How the bare server finds the reply to replay: method, path, the title search and the
 * Accept-Encoding asked for. Cursor and limit are ignored, so every page of a walk gets the
 * captured first page (pages are all the same size).
 */
export function floorKey(method: string, url: string, acceptEncoding: string | undefined): string {
  const u = new URL(url, 'http://floor');
  return `${method} ${u.pathname} q=${u.searchParams.get('q') ?? ''} ae=${acceptEncoding ?? ''}`;
}

export interface FloorRoute {
  key: string;
  status: number;
  headers: [string, string][];
  bodyFile: string;
}

/** Headers node:http writes itself on every response; all the others are replayed as captured. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export function replayedHeaders(reply: Reply): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < reply.rawHeaders.length; i += 2) {
    const name = reply.rawHeaders[i]!;
    if (!OWN_HEADERS.has(name.toLowerCase())) pairs.push([name, reply.rawHeaders[i + 1]!]);
  }
  return pairs;
}

/** CPU seconds (user + system) a process has used so far; undefined where /proc is missing. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after "(comm)": state is field 3, utime 14, stime 15, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Titles of the seeded catalogs: ten prefixes x 23 topics, so title order is not insertion order. */
const PREFIXES = [
  'Baseline',
  'Enterprise',
  'Federal',
  'Regional',
  'Cloud',
  'Legacy',
  'Moderate',
  'High',
  'Low',
  'Tailored',
];
const TOPICS = [
  'Access Control',
  'Audit',
  'Awareness',
  'Configuration',
  'Contingency',
  'Identification',
  'Incident Response',
  'Maintenance',
  'Media Protection',
  'Physical',
  'Planning',
  'Program Management',
  'Personnel',
  'PII Processing',
  'Risk Assessment',
  'Acquisition',
  'Communications',
  'Integrity',
  'Supply Chain',
  'Assessment',
  'Encryption',
  'Privacy',
  'Telemetry',
];

export function seedTitle(i: number): string {
  return `${PREFIXES[i % PREFIXES.length]} ${TOPICS[Math.floor(i / PREFIXES.length) % TOPICS.length]} Catalog #${String(i).padStart(6, '0')}`;
}

/** A title search matching one topic in 23 (about 4% of the seeded documents). */
export const COMMON_TERM = 'telemetry';
export const COMMON_SHARE = 1 / TOPICS.length;

/** A title search matching exactly one seeded document: the whole title index is read for it. */
export function rareTerm(count: number): string {
  return `#${String(Math.floor(count * 0.54321)).padStart(6, '0')}`;
}
