import { ALIASES_OF, aliasOf, type Row } from '../rows.js';
import { type AliasStore } from '../types.js';
import type { SqliteConnection } from './connection.js';
import { writeAliases } from './revision-writes.js';
import { StoreConflictError } from '../../errors.js';

export function sqliteAliases(c: SqliteConnection): AliasStore {
  return {
    async setAliases(id, entries, audit) {
      c.transaction(() => {
        if (!c.hasDocument(id)) throw new StoreConflictError('not-found', `no document ${id}`);
        writeAliases(c, id, 'given', entries);
        c.audit(audit);
      });
    },

    async listAliases(id) {
      return (c.stmt(ALIASES_OF('?')).all(id) as Row[]).map(aliasOf);
    },

    async findAliases(keys) {
      const rows = c
        .stmt(
          'SELECT DISTINCT document_id, lookup_key FROM document_aliases WHERE lookup_key IN (SELECT value FROM json_each(?)) ORDER BY document_id',
        )
        .all(JSON.stringify(keys)) as Row[];
      return rows.map((r) => ({ documentId: r.document_id as string, key: r.lookup_key as string }));
    },
  };
}
