import type { Format } from '../oscal/formats/index.js';
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

export const RESPONSE_TYPE: Record<Format, string> = { json: 'application/json', xml: 'application/xml', yaml: 'application/yaml' };

export function formatOfContentType(header: string | undefined): Format | undefined {
  if (!header) return undefined;
  return REQUEST_TYPES[header.split(';')[0]!.trim().toLowerCase()];
}

const ACCEPTED: Record<string, Format> = {
  'application/json': 'json', 'application/oscal+json': 'json',
  'application/xml': 'xml', 'text/xml': 'xml', 'application/oscal+xml': 'xml',
  'application/yaml': 'yaml', 'text/yaml': 'yaml',
};

/**
 * The format an Accept header asks for: absent or `*\/*` means JSON (D5); otherwise the
 * highest-q supported type, earliest on ties; undefined when it names none (406).
 */
export function negotiateFormat(accept: string | undefined): Format | undefined {
  return accept ? negotiated(accept) : 'json';
}

const negotiated = memoizeText((accept: string): Format | undefined => {
  if (!accept.trim()) return 'json';
  let best: { format: Format; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!type || !(q > 0)) continue;
    const format = type === '*/*' || type === 'application/*' ? 'json' : ACCEPTED[type];
    if (format && (!best || q > best.q)) best = { format, q };
  }
  return best?.format;
});
