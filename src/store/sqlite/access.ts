import type { Row } from '../rows.js';
import { type AccessRecord, type AccessStore, type Grant } from '../types.js';
import type { SqliteConnection } from './connection.js';
import { rescopeSearchEntries } from './search.js';
import { StoreConflictError } from '../../errors.js';

export function sqliteAccess(c: SqliteConnection): AccessStore {
  return {
    async getAccess(id) {
      const doc = c.stmt('SELECT owner, visibility, legal_hold FROM documents WHERE id = ?').get(id) as Row | undefined;
      if (!doc) return undefined;
      const grants = c
        .stmt('SELECT principal, permission FROM grants WHERE document_id = ? ORDER BY principal')
        .all(id) as Grant[];
      return {
        owner: doc.owner as string,
        visibility: doc.visibility as AccessRecord['visibility'],
        legalHold: doc.legal_hold === 1,
        grants,
      };
    },

    async setAccess(id, access, audit) {
      c.transaction(() => {
        if (!c.hasDocument(id)) throw new StoreConflictError('not-found', `no document ${id}`);
        if (access.visibility) c.stmt('UPDATE documents SET visibility = ? WHERE id = ?').run(access.visibility, id);
        if (access.legalHold !== undefined)
          c.stmt('UPDATE documents SET legal_hold = ? WHERE id = ?').run(access.legalHold ? 1 : 0, id);
        if (access.grants) {
          c.stmt('DELETE FROM grants WHERE document_id = ?').run(id);
          const insert = c.stmt('INSERT INTO grants (document_id, principal, permission) VALUES (?, ?, ?)');
          for (const g of access.grants) insert.run(id, g.principal, g.permission);
        }
        if (access.visibility || access.grants) rescopeSearchEntries(c, id);
        c.audit(audit);
      });
    },

    async grantsFor(id, principals) {
      if (principals.length === 0) return [];
      return c
        .stmt(
          `SELECT principal, permission FROM grants WHERE document_id = ? AND principal IN (${principals.map(() => '?').join(', ')})`,
        )
        .all(id, ...principals) as Grant[];
    },
  };
}
