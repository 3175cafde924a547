import { randomBytes, randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { sha256 } from '../digest.js';
import type { Role, TokenStore } from '../store/types.js';

const PREFIX = 'odt_';

/**
 * Creates a local API token; the secret is returned once and only its hash is stored. The audit
 * log records who made it (`actor`), for whom and with which role, never the secret.
 */
export async function createToken(
  store: TokenStore,
  request: { user: string; role: Role; expiresAt?: Date; actor: string },
): Promise<{ id: string; token: string }> {
  const { user, role, expiresAt, actor } = request;
  const owner = await store.ensureUser(user);
  const token = PREFIX + randomBytes(32).toString('base64url');
  const id = randomUUID();
  const expiry = expiresAt ? { expiresAt: expiresAt.toISOString() } : {};
  await store.createToken(
    { id, userId: owner.id, hash: sha256(token), role, ...expiry },
    { actor, action: 'token.create', detail: { token: id, user, role, ...expiry } },
  );
  return { id, token };
}

/** Who acts through the CLI: the operating-system account running it. */
export function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    // No account name for this uid (as in some containers).
    return `cli:uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

export function tokenHash(token: string): string {
  return sha256(token);
}

const DURATION = /^(\d+)([smhdwy])$/;
const UNIT_MS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3, y: 365 * 86400e3 };

/** `30d`, `12h`, `1y`, … from now. */
export function expiryFrom(duration: string, from = Date.now()): Date {
  const m = DURATION.exec(duration);
  if (!m) throw new Error(`"${duration}" is not a duration such as 30d, 12h or 1y`);
  return new Date(from + Number(m[1]) * UNIT_MS[m[2]!]!);
}
