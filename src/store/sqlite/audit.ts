import { auditConditions } from '../audit-query.js';
import { auditOf, type Row } from '../rows.js';
import type { AuditStore } from '../types.js';
import type { SqliteConnection } from './connection.js';

/** Reading the log; entries are written by each audited operation (SqliteConnection.audit). */
export function sqliteAudit(c: SqliteConnection): AuditStore {
  return {
    async listAudit(limit, filter = {}) {
      const params: unknown[] = [];
      const where = auditConditions(filter, (value) => {
        params.push(value);
        return '?';
      });
      return (c.stmt(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ?`).all(...params, limit) as Row[]).map(
        auditOf,
      );
    },
  };
}
