import { randomUUID } from 'node:crypto';
import { tokenOf, type Row } from '../rows.js';
import type { TokenStore, UserRecord } from '../types.js';
import { now, type SqliteConnection } from './connection.js';

/** A token's last use is recorded at most this often, so reads do not each cost a write. */
const TOKEN_TOUCH_MS = 60_000;

export function sqliteTokens(c: SqliteConnection): TokenStore {
  const ensureUser = async (name: string): Promise<UserRecord> => {
    const existing = c.stmt('SELECT id, name, created_at FROM users WHERE name = ?').get(name) as Row | undefined;
    if (existing) return { id: existing.id as string, name, createdAt: existing.created_at as string };
    const user = { id: randomUUID(), name, createdAt: now() };
    c.stmt('INSERT INTO users (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING').run(
      user.id,
      name,
      user.createdAt,
    );
    return ensureUser(name);
  };

  return {
    ensureUser,

    async createToken(token, audit) {
      c.transaction(() => {
        c.stmt('INSERT INTO tokens (id, user_id, hash, role, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)').run(
          token.id,
          token.userId,
          token.hash,
          token.role,
          now(),
          token.expiresAt ?? null,
        );
        c.audit(audit);
      });
    },

    async findToken(hash, at) {
      const row = c
        .stmt(
          `SELECT t.*, u.name AS user_name FROM tokens t JOIN users u ON u.id = t.user_id
        WHERE t.hash = ? AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ?)`,
        )
        .get(hash, at) as Row | undefined;
      if (!row) return undefined;
      const token = tokenOf(row);
      if (!token.lastUsedAt || Date.parse(at) - Date.parse(token.lastUsedAt) > TOKEN_TOUCH_MS) {
        c.stmt('UPDATE tokens SET last_used_at = ? WHERE id = ?').run(at, token.id);
      }
      return token;
    },

    async listTokens() {
      return (
        c
          .stmt('SELECT t.*, u.name AS user_name FROM tokens t JOIN users u ON u.id = t.user_id ORDER BY t.created_at')
          .all() as Row[]
      ).map(tokenOf);
    },

    async revokeToken(id, audit) {
      return c.transaction(() => {
        const revoked =
          c.stmt('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now(), id).changes === 1;
        if (revoked) c.audit(audit);
        return revoked;
      });
    },

    async countTokens() {
      return (c.stmt('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n;
    },
  };
}
