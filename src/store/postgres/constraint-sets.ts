import type postgres from 'postgres';
import { constraintSetEntryOf, constraintSetOf } from '../rows.js';
import type { ConstraintSetStore } from '../types.js';
import { audit, now } from './connection.js';

export function postgresConstraintSets(sql: postgres.Sql): ConstraintSetStore {
  return {
    async putConstraintSet(set, entry) {
      return sql.begin(async (tx) => {
        const at = now();
        // xmax is 0 for a row this statement inserted, and the updating transaction's id otherwise.
        const [row] = await tx`INSERT INTO constraint_sets (name, text, hash, size, created_by, created_at, updated_at)
          VALUES (${set.name}, ${set.text}, ${set.hash}, ${set.size}, ${entry.actor}, ${at}, ${at})
          ON CONFLICT (name) DO UPDATE SET text = excluded.text, hash = excluded.hash, size = excluded.size, updated_at = excluded.updated_at
          RETURNING (xmax = 0) AS created`;
        await audit(tx, entry);
        return { created: row!.created === true };
      });
    },

    async getConstraintSet(name) {
      const [row] = await sql`SELECT * FROM constraint_sets WHERE name = ${name}`;
      return row && constraintSetOf(row);
    },

    async listConstraintSets() {
      return (
        await sql`SELECT name, hash, size, created_by, created_at, updated_at FROM constraint_sets ORDER BY name`
      ).map(constraintSetEntryOf);
    },

    async deleteConstraintSet(name, entry) {
      return sql.begin(async (tx) => {
        const rows = await tx`DELETE FROM constraint_sets WHERE name = ${name} RETURNING name`;
        if (rows.length === 1) await audit(tx, entry);
        return rows.length === 1;
      });
    },
  };
}
