/** The shapes of the hostile-input corpus: data only; test/hostile-corpus.test.ts runs it. */

/** Who sends a request: admin reaches every parser; the others test refusals before parsing. */
export type Sender = 'admin' | 'reader' | 'anonymous';

/** One request over node:http. Bodies are made on demand, so a 100 MB case costs memory only while it runs. */
export interface HttpCase {
  name: string;
  method: string;
  path: string;
  as?: Sender;
  headers?: Record<string, string>;
  body?: () => string | Buffer;
  /** The 4xx status (or statuses) the server must answer, always with the error object. */
  expect: number | readonly number[];
}

/**
 * Raw bytes over node:net for what no HTTP client would send: every response on the connection
 * must be a 4xx with the error object, or the server may close the connection without one.
 */
export interface RawCase {
  name: string;
  raw: true;
  /** Written in turn; `{{token}}` stands for the admin token. */
  chunks: readonly (string | Buffer)[];
  /** Pause between chunks (trickling). */
  gapMs?: number;
  /**
   * Half-close after the last chunk. Otherwise the client, once done writing, waits for the
   * answer: until the server closes, or has answered and then been quiet for a moment.
   */
  halfClose?: boolean;
  /** What the first response on the connection must be; any later one must be a 4xx as well. */
  expect: readonly number[];
  /** The server may instead close the connection without a word (abuse of the protocol itself). */
  orClosed?: boolean;
}

export type HostileCase = HttpCase | RawCase;

/** Documents created before the corpus runs, so that cases can aim at ones that exist. */
export interface Seeds {
  /** Created through the generic interface (private). */
  catalog: string;
  /** Created through the registry (public). */
  registryCatalog: string;
}

export interface Category {
  name: string;
  cases: (seeds: Seeds) => HostileCase[];
}

/**
 * The root uuid of every hostile document: that of the registry seed, so that the registry
 * interfaces, which take it as the content-uuid, aim each one at an existing document.
 */
export const UUID = 'c0ffee00-0000-4000-8000-00000000000b';

/** A valid catalog's JSON with text spliced in at its edges, for cases that are one flaw away from valid. */
export function catalogJson(
  options: { uuid?: string; title?: string; extraMetadata?: string; extra?: string } = {},
): string {
  return `{"catalog":{"uuid":"${options.uuid ?? UUID}","metadata":{"title":${JSON.stringify(options.title ?? 'Hostile')},"last-modified":"2024-01-01T00:00:00Z","version":"1","oscal-version":"1.1.2"${options.extraMetadata ?? ''}}${options.extra ?? ''}}}`;
}

export function catalogXml(
  options: { prolog?: string; uuid?: string; metadataExtra?: string; body?: string } = {},
): string {
  return `${options.prolog ?? '<?xml version="1.0" encoding="UTF-8"?>'}
<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${options.uuid ?? UUID}">
  <metadata><title>Hostile</title><last-modified>2024-01-01T00:00:00Z</last-modified><version>1</version><oscal-version>1.1.2</oscal-version>${options.metadataExtra ?? ''}</metadata>${options.body ?? ''}
</catalog>`;
}

export function catalogYaml(extra = ''): string {
  return `catalog:
  uuid: ${UUID}
  metadata:
    title: Hostile
    last-modified: 2024-01-01T00:00:00Z
    version: "1"
    oscal-version: 1.1.2
${extra}`;
}

export const JSON_TYPE = { 'content-type': 'application/json' };
export const XML_TYPE = { 'content-type': 'application/xml' };
export const YAML_TYPE = { 'content-type': 'application/yaml' };

/**
 * The same JSON body against every interface that takes a document: create and replace on the
 * generic interface, the registry's upsert and its upload (JSON and multipart). Malformed JSON
 * is 400 on all of them; JSON that is no valid OSCAL is 422.
 */
export function everyJsonWrite(
  seeds: Seeds,
  name: string,
  body: () => string | Buffer,
  expect: number | readonly number[],
): HttpCase[] {
  return [
    { name: `${name} → POST generic`, method: 'POST', path: '/oscal/v1/catalog', headers: JSON_TYPE, body, expect },
    {
      name: `${name} → PUT generic`,
      method: 'PUT',
      path: `/oscal/v1/catalog/${seeds.catalog}`,
      headers: JSON_TYPE,
      body,
      expect,
    },
    {
      name: `${name} → PUT registry`,
      method: 'PUT',
      path: `/api/v1/catalogs/${seeds.registryCatalog}`,
      headers: JSON_TYPE,
      body,
      expect,
    },
    { name: `${name} → POST upload`, method: 'POST', path: '/api/upload', headers: JSON_TYPE, body, expect },
    {
      name: `${name} → POST upload as a form`,
      method: 'POST',
      path: '/api/upload',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: () => multipart([{ headers: FILE_PART, body: body() }]),
      expect,
    },
  ];
}

export const BOUNDARY = 'hostile-boundary-7f3a';
export const FILE_PART =
  'Content-Disposition: form-data; name="file"; filename="doc.json"\r\nContent-Type: application/json';

/** A multipart/form-data body; each part's headers are given as written, CRLF-separated. */
export function multipart(parts: { headers: string; body: string | Buffer }[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts)
    chunks.push(Buffer.from(`--${boundary}\r\n${part.headers}\r\n\r\n`), Buffer.from(part.body), Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** The same XML or YAML body against the generic create and replace; the registry takes JSON only (415). */
export function everyTextWrite(
  seeds: Seeds,
  name: string,
  type: Record<string, string>,
  body: () => string | Buffer,
  expect: number | readonly number[],
): HttpCase[] {
  return [
    { name: `${name} → POST generic`, method: 'POST', path: '/oscal/v1/catalog', headers: type, body, expect },
    {
      name: `${name} → PUT generic`,
      method: 'PUT',
      path: `/oscal/v1/catalog/${seeds.catalog}`,
      headers: type,
      body,
      expect,
    },
  ];
}
