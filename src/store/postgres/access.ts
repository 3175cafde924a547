import type postgres from 'postgres';
import { type AccessRecord, type AccessStore, type Grant } from '../types.js';
import { audit } from './connection.js';
import type { PendingEntries } from './pending-entries.js';
import { rescopeSearchEntries, scopeOf } from './search.js';
import { StoreConflictError } from '../../errors.js';

export function postgresAccess(sql: postgres.Sql, pending: PendingEntries): AccessStore {
  return {
    async getAccess(id) {
      const [doc] = await sql`SELECT owner, visibility, legal_hold FROM documents WHERE id = ${id}`;
      if (!doc) return undefined;
      const grants =
        await sql`SELECT principal, permission FROM grants WHERE document_id = ${id} ORDER BY principal COLLATE "C"`;
      return {
        owner: doc.owner as string,
        visibility: doc.visibility as AccessRecord['visibility'],
        legalHold: doc.legal_hold as boolean,
        grants: grants.map((g) => ({
          principal: g.principal as string,
          permission: g.permission as Grant['permission'],
        })),
      };
    },

    async setAccess(id, access, entry) {
      await sql.begin(async (tx) => {
        const [doc] = await tx`SELECT 1 FROM documents WHERE id = ${id} FOR UPDATE`;
        if (!doc) throw new StoreConflictError('not-found', `no document ${id}`);
        const before = access.visibility || access.grants ? await scopeOf(tx, id) : undefined;
        if (access.visibility) await tx`UPDATE documents SET visibility = ${access.visibility} WHERE id = ${id}`;
        if (access.legalHold !== undefined)
          await tx`UPDATE documents SET legal_hold = ${access.legalHold} WHERE id = ${id}`;
        if (access.grants) {
          await tx`DELETE FROM grants WHERE document_id = ${id}`;
          for (const g of access.grants)
            await tx`INSERT INTO grants (document_id, principal, permission) VALUES (${id}, ${g.principal}, ${g.permission})`;
        }
        if (before) await rescopeSearchEntries(tx, id, before, pending);
        await audit(tx, entry);
      });
    },

    async grantsFor(id, principals) {
      if (principals.length === 0) return [];
      const rows =
        await sql`SELECT principal, permission FROM grants WHERE document_id = ${id} AND principal IN ${sql(principals)}`;
      return rows.map((g) => ({ principal: g.principal as string, permission: g.permission as Grant['permission'] }));
    },
  };
}
