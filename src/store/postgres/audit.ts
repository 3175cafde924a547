import type postgres from 'postgres';
import { auditConditions } from '../audit-query.js';
import { auditOf, type Row } from '../rows.js';
import type { AuditStore } from '../types.js';

/** Reading the log; entries are written by each audited operation (connection.ts: audit). */
export function postgresAudit(sql: postgres.Sql): AuditStore {
  return {
    async listAudit(limit, filter = {}) {
      const params: unknown[] = [];
      const param = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      const where = auditConditions(filter, param);
      const rows = await sql.unsafe(
        `SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ${param(limit)}`,
        params as postgres.ParameterOrJSON<never>[],
      );
      return rows.map((row) => auditOf(row as Row));
    },
  };
}
