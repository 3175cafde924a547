import { constraintSetEntryOf, constraintSetOf, type Row } from '../rows.js';
import type { ConstraintSetStore } from '../types.js';
import { now, type SqliteConnection } from './connection.js';

export function sqliteConstraintSets(c: SqliteConnection): ConstraintSetStore {
  return {
    async putConstraintSet(set, audit) {
      return c.transaction(() => {
        const at = now();
        const created = c.stmt('SELECT 1 FROM constraint_sets WHERE name = ?').get(set.name) === undefined;
        c.stmt(
          `INSERT INTO constraint_sets (name, text, hash, size, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET text = excluded.text, hash = excluded.hash, size = excluded.size, updated_at = excluded.updated_at`,
        ).run(set.name, set.text, set.hash, set.size, audit.actor, at, at);
        c.audit(audit);
        return { created };
      });
    },

    async getConstraintSet(name) {
      const row = c.stmt('SELECT * FROM constraint_sets WHERE name = ?').get(name) as Row | undefined;
      return row && constraintSetOf(row);
    },

    async listConstraintSets() {
      return (
        c
          .stmt('SELECT name, hash, size, created_by, created_at, updated_at FROM constraint_sets ORDER BY name')
          .all() as Row[]
      ).map(constraintSetEntryOf);
    },

    async deleteConstraintSet(name, audit) {
      return c.transaction(() => {
        const deleted = c.stmt('DELETE FROM constraint_sets WHERE name = ?').run(name).changes === 1;
        if (deleted) c.audit(audit);
        return deleted;
      });
    },
  };
}
