import type { FastifyInstance } from 'fastify';
import type { Identity } from '../auth/identity.js';
import { mayReadAudit } from '../auth/policy.js';
import { refuse, unauthenticated } from '../errors.js';
import type { AuditFilter, AuditRecord, Store } from '../store/types.js';
import { decodeCursor, encodeCursor } from './list-page.js';
import { uuidParam } from './params.js';
import { describe, HEADERS, json, ref, TAGS } from './openapi.js';

interface AuditQuerystring {
  limit: number;
  cursor?: string;
  since?: string;
  until?: string;
  actor?: string;
  action?: string;
  document?: string;
}

const INSTANT = { type: 'string', maxLength: 40 } as const;
const AUDIT_QUERYSTRING = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    cursor: { type: 'string', maxLength: 2048 },
    since: {
      ...INSTANT,
      description: 'entries at or after this instant: an RFC 3339 date-time, or a date (midnight UTC)',
    },
    until: { ...INSTANT, description: 'entries before this instant' },
    actor: {
      type: 'string',
      maxLength: 300,
      description: 'who acted: a user name, oidc:<sub>, cli:<account> or server',
    },
    action: {
      type: 'string',
      maxLength: 100,
      description:
        'document.create, document.replace, document.delete, version.delete, access.change, token.create, token.revoke',
    },
    document: uuidParam('content uuid of the document acted on'),
  },
  additionalProperties: false,
} as const;

const RFC3339 = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2}))?$/;
/** Cursors of this list name the last entry shown. */
const CURSOR_KIND = 'audit';

/** An instant as entries record it (UTC, milliseconds), so that text order is time order. */
function instant(name: string, text: string): string {
  const ms = RFC3339.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms))
    throw refuse(
      'bad-request',
      `${name} must be a date-time such as 2025-01-31T12:00:00Z, or a date such as 2025-01-31`,
    );
  return new Date(ms).toISOString();
}

function auditItem(entry: AuditRecord): Record<string, unknown> {
  return {
    id: entry.id,
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    ...(entry.documentId !== undefined ? { 'content-uuid': entry.documentId } : {}),
    ...(entry.detail !== undefined ? { detail: entry.detail } : {}),
  };
}

function requireAdmin(identity: Identity): void {
  if (identity.kind === 'anonymous') throw unauthenticated();
  if (!mayReadAudit(identity)) throw refuse('forbidden', 'the audit log is open to admins only');
}

/**
 * GET /oscal/v1/audit: who wrote what and who changed access, when; newest first, for admins.
 * Paged like the document lists (limit, opaque cursor, Link: rel="next").
 */
export async function auditRoutes(api: FastifyInstance, deps: { store: Store; publicUrl: string }): Promise<void> {
  api.get<{ Querystring: AuditQuerystring }>(
    '/audit',
    {
      ...describe({
        operationId: 'listAudit',
        summary: 'The audit log of writes and access changes (admins only)',
        tags: [TAGS.audit],
        access: 'required',
        querystring: AUDIT_QUERYSTRING,
        description: 'Newest first; paged like the document lists (limit, opaque cursor, Link: rel="next").',
        responses: {
          200: json('One page of the log', ref('AuditList'), { headers: HEADERS.link }),
          400: 'A filter is not valid (since and until are RFC 3339 date-times or dates), or the cursor is not one this server gave out',
          401: 'No credentials, or refused ones',
          403: 'The audit log is open to admins only',
        },
      }),
    },
    async (request, reply) => {
      requireAdmin(request.identity);
      const { limit, cursor, since, until, actor, action, document } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && !(after?.key === CURSOR_KIND && /^\d{1,15}$/.test(after.id)))
        throw refuse('bad-request', 'the cursor is not one this server gave out');
      const filter: AuditFilter = {
        ...(after ? { before: Number(after.id) } : {}),
        ...(since !== undefined ? { since: instant('since', since) } : {}),
        ...(until !== undefined ? { until: instant('until', until) } : {}),
        ...(actor !== undefined ? { actor } : {}),
        ...(action !== undefined ? { action } : {}),
        ...(document !== undefined ? { documentId: document } : {}),
      };
      const page = await deps.store.listAudit(limit + 1, filter);
      const items = page.slice(0, limit);
      if (page.length > limit) {
        const next = new URLSearchParams({
          limit: String(limit),
          cursor: encodeCursor(CURSOR_KIND, String(items[items.length - 1]!.id)),
        });
        for (const [name, value] of Object.entries({ since, until, actor, action, document }))
          if (value !== undefined) next.set(name, value);
        reply.header('Link', `<${deps.publicUrl}/oscal/v1/audit?${next}>; rel="next"`);
      }
      return { 'audit-list': items.map(auditItem) };
    },
  );
}
