import type { Format } from '../oscal/formats/index.js';
import { refuse } from '../errors.js';
import { memoizeText } from './text-memo.js';

/** Content-Types accepted on POST and PUT of content (generic-interface 4.1, D5). */
const REQUEST_TYPES: Record<string, Format> = {
  'application/json': 'json',
  'application/oscal+json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/oscal+xml': 'xml',
  'application/yaml': 'yaml',
  'text/yaml': 'yaml',
  'application/x-yaml': 'yaml',
};

export const CONTENT_MEDIA_TYPES = Object.keys(REQUEST_TYPES);

export const RESPONSE_TYPE: Record<Format, string> = {
  json: 'application/json',
  xml: 'application/xml',
  yaml: 'application/yaml',
};

export function formatOfContentType(header: string | undefined): Format | undefined {
  if (!header) return undefined;
  return REQUEST_TYPES[header.split(';')[0]!.trim().toLowerCase()];
}

const ACCEPTED: Record<string, Format> = {
  'application/json': 'json',
  'application/oscal+json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/oscal+xml': 'xml',
  'application/yaml': 'yaml',
  'text/yaml': 'yaml',
};

/**
 * The format an Accept header asks for: absent or `*\/*` means JSON (D5); otherwise the
 * highest-q supported type, earliest on ties; undefined when it names none (406).
 */
export function negotiateFormat(accept: string | undefined): Format | undefined {
  return accept ? negotiated(accept) : 'json';
}

/** The format Accept asks for, or the 406 of every OSCAL read when it names none. */
export function acceptedFormat(accept: string | undefined): Format {
  const format = negotiateFormat(accept);
  if (!format) throw refuse('not-acceptable');
  return format;
}

const negotiated = memoizeText((accept: string): Format | undefined => negotiate<Format>(accept, ACCEPTED, 'json'));

/**
 * The highest-q type of an Accept header that `accepted` knows (earliest on ties), `*\/*` and
 * `application/*` taken as `wildcard`; undefined when it names none of them.
 */
export function negotiate<T>(accept: string, accepted: Readonly<Record<string, T>>, wildcard: T): T | undefined {
  if (!accept.trim()) return wildcard;
  let best: { value: T; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [type, ...params] = part
      .trim()
      .toLowerCase()
      .split(';')
      .map((s) => s.trim());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!type || !(q > 0)) continue;
    const value = type === '*/*' || type === 'application/*' ? wildcard : accepted[type];
    if (value !== undefined && (!best || q > best.q)) best = { value, q };
  }
  return best?.value;
}

/** What a validation report may be given as. */
const REPORT_TYPES: Record<string, 'json' | 'sarif'> = {
  'application/json': 'json',
  'application/sarif+json': 'sarif',
};

export const REPORT_MEDIA_TYPE = { json: 'application/json', sarif: 'application/sarif+json' } as const;

export function negotiateReport(accept: string | undefined): 'json' | 'sarif' | undefined {
  return accept ? negotiate<'json' | 'sarif'>(accept, REPORT_TYPES, 'json') : 'json';
}
