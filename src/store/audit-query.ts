import type { AuditFilter } from './types.js';

/** The conditions of an audit listing, each value bound through `param`, which names its placeholder. */
export function auditConditions(filter: AuditFilter, param: (value: unknown) => string): string {
  const where: string[] = [];
  if (filter.before !== undefined) where.push(`id < ${param(filter.before)}`);
  if (filter.since !== undefined) where.push(`at >= ${param(filter.since)}`);
  if (filter.until !== undefined) where.push(`at < ${param(filter.until)}`);
  if (filter.actor !== undefined) where.push(`actor = ${param(filter.actor)}`);
  if (filter.action !== undefined) where.push(`action = ${param(filter.action)}`);
  if (filter.documentId !== undefined) where.push(`document_id = ${param(filter.documentId)}`);
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}
