import type { FastifyReply } from 'fastify';
import type { Identity } from '../auth/identity.js';
import type { DocumentService } from '../service/documents.js';
import { refuse } from '../errors.js';
import type { DocumentRecord, SortKey } from '../store/types.js';

export const SORTS = ['title', '-title', 'last-modified', '-last-modified', 'created', '-created'] as const;

export function parseSort(sort: (typeof SORTS)[number]): { sort: SortKey; descending: boolean } {
  return { sort: sort.replace(/^-/, '') as SortKey, descending: sort.startsWith('-') };
}

/** The value a page boundary is taken at, per sort key (as the store orders it). */
export function sortValue(doc: DocumentRecord, sort: SortKey): string {
  return sort === 'title' ? doc.title.toLowerCase() : sort === 'last-modified' ? doc.lastModified : doc.createdAt;
}

/** Cursors are opaque to clients: the boundary's sort value and id. */
export function encodeCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { key: string; id: string } | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string')
      return { key: value[0], id: value[1] };
  } catch {
    // fall through: not one of ours
  }
  return undefined;
}

export interface ListQuerystring {
  limit: number;
  cursor?: string;
  q?: string;
  valid?: boolean;
  sort: (typeof SORTS)[number];
}

export const LIST_QUERYSTRING = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    cursor: { type: 'string', maxLength: 2048 },
    q: { type: 'string', maxLength: 200, description: 'case-insensitive part of the title' },
    valid: {
      type: 'boolean',
      description:
        'false: only drafts stored with findings at the reject level (?keep-findings=true); true: only the others',
    },
    sort: { type: 'string', enum: [...SORTS], default: 'title' },
  },
  additionalProperties: false,
} as const;

/**
 * One page of a model's documents the caller may read (D4, both interfaces): the next page is
 * announced in a Link header so that the bodies keep each specification's shape.
 */
export async function listPage(
  documents: DocumentService,
  identity: Identity,
  model: string,
  query: ListQuerystring,
  reply: FastifyReply,
  pageUrl: string,
): Promise<DocumentRecord[]> {
  const { limit, cursor, q, valid, sort } = query;
  if (q?.includes('\u0000')) throw refuse('bad-request', 'q may not contain a NUL character');
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  if (cursor !== undefined && !after) throw refuse('bad-request', 'the cursor is not one this server gave out');
  const order = parseSort(sort);
  const page = await documents.list(identity, model, {
    limit: limit + 1,
    ...order,
    ...(q ? { q } : {}),
    ...(valid !== undefined ? { valid } : {}),
    ...(after ? { after } : {}),
  });
  const items = page.slice(0, limit);
  if (page.length > limit) {
    const last = items[items.length - 1]!;
    const next = new URLSearchParams({
      limit: String(limit),
      sort,
      cursor: encodeCursor(sortValue(last, order.sort), last.id),
      ...(q ? { q } : {}),
      ...(valid !== undefined ? { valid: String(valid) } : {}),
    });
    reply.header('Link', `<${pageUrl}?${next}>; rel="next"`);
  }
  return items;
}
