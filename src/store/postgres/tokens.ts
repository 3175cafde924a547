import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { tokenOf } from '../rows.js';
import type { TokenStore } from '../types.js';
import { audit, now } from './connection.js';

/** A token's last use is recorded at most this often, so reads do not each cost a write. */
const TOKEN_TOUCH_MS = 60_000;

export function postgresTokens(sql: postgres.Sql): TokenStore {
  return {
    async ensureUser(name) {
      await sql`INSERT INTO users (id, name, created_at) VALUES (${randomUUID()}, ${name}, ${now()}) ON CONFLICT (name) DO NOTHING`;
      const [row] = await sql`SELECT id, name, created_at FROM users WHERE name = ${name}`;
      return { id: row!.id as string, name, createdAt: row!.created_at as string };
    },

    async createToken(token, entry) {
      await sql.begin(async (tx) => {
        await tx`INSERT INTO tokens (id, user_id, hash, role, created_at, expires_at) VALUES (${token.id}, ${token.userId}, ${token.hash}, ${token.role}, ${now()}, ${token.expiresAt ?? null})`;
        await audit(tx, entry);
      });
    },

    async findToken(hash, at) {
      const [row] = await sql`SELECT t.*, u.name AS user_name FROM tokens t JOIN users u ON u.id = t.user_id
        WHERE t.hash = ${hash} AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ${at})`;
      if (!row) return undefined;
      const token = tokenOf(row);
      if (!token.lastUsedAt || Date.parse(at) - Date.parse(token.lastUsedAt) > TOKEN_TOUCH_MS) {
        await sql`UPDATE tokens SET last_used_at = ${at} WHERE id = ${token.id}`;
      }
      return token;
    },

    async listTokens() {
      return (
        await sql`SELECT t.*, u.name AS user_name FROM tokens t JOIN users u ON u.id = t.user_id ORDER BY t.created_at`
      ).map(tokenOf);
    },

    async revokeToken(id, entry) {
      return sql.begin(async (tx) => {
        const rows =
          await tx`UPDATE tokens SET revoked_at = ${now()} WHERE id = ${id} AND revoked_at IS NULL RETURNING id`;
        if (rows.length === 1) await audit(tx, entry);
        return rows.length === 1;
      });
    },

    async countTokens() {
      const [row] = await sql`SELECT COUNT(*) AS n FROM tokens`;
      return Number(row!.n);
    },
  };
}
