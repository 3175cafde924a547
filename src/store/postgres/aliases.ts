import type postgres from 'postgres';
import { ALIASES_OF, aliasOf } from '../rows.js';
import { type AliasStore } from '../types.js';
import { audit } from './connection.js';
import { writeAliases } from './revision-writes.js';
import { StoreConflictError } from '../../errors.js';

export function postgresAliases(sql: postgres.Sql): AliasStore {
  return {
    async setAliases(id, entries, entry) {
      await sql.begin(async (tx) => {
        const [doc] = await tx`SELECT 1 FROM documents WHERE id = ${id} FOR UPDATE`;
        if (!doc) throw new StoreConflictError('not-found', `no document ${id}`);
        await writeAliases(tx, id, 'given', entries);
        await audit(tx, entry);
      });
    },

    async listAliases(id) {
      return (await sql.unsafe(ALIASES_OF('$1'), [id])).map(aliasOf);
    },

    async findAliases(keys) {
      const rows =
        await sql`SELECT DISTINCT document_id, lookup_key FROM document_aliases WHERE lookup_key = ANY(${sql.array(keys)}::text[]) ORDER BY document_id`;
      return rows.map((r) => ({ documentId: r.document_id as string, key: r.lookup_key as string }));
    },
  };
}
