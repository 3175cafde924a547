import type { AuditEntry, Role, TokenRecord, UserRecord } from '../types.js';

/** Local users and their API tokens, kept by hash. */
export interface TokenStore {
  ensureUser(name: string): Promise<UserRecord>;
  createToken(
    token: { id: string; userId: string; hash: string; role: Role; expiresAt?: string },
    audit: AuditEntry,
  ): Promise<void>;
  /** The live token with this hash (not revoked, not expired); records its use. */
  findToken(hash: string, now: string): Promise<TokenRecord | undefined>;
  listTokens(): Promise<TokenRecord[]>;
  /** False when there is no live token with this id (nothing is audited then). */
  revokeToken(id: string, audit: AuditEntry): Promise<boolean>;
  countTokens(): Promise<number>;
}
