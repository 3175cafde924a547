import type { TokenRecord, TokenStore } from '../store/types.js';

const MAX_ENTRIES = 10_000;

/**
 * Live tokens by hash, held for a short while so that a request costs no store lookup for its
 * token. A token revoked elsewhere (the token command, another server) keeps working here until
 * its entry ages out: `ttlMs` bounds that delay; 0 asks the store every time. Expiry is checked on
 * every use. Unknown tokens are never cached, so a new token works at once.
 */
export class TokenCache {
  private readonly entries = new Map<string, { token: TokenRecord; until: number }>();

  constructor(
    private readonly store: TokenStore,
    private readonly ttlMs: number,
  ) {}

  async find(hash: string, now = Date.now()): Promise<TokenRecord | undefined> {
    const hit = this.entries.get(hash);
    if (hit && hit.until > now && (hit.token.expiresAt === undefined || Date.parse(hit.token.expiresAt) > now))
      return hit.token;
    if (hit) this.entries.delete(hash);
    const token = await this.store.findToken(hash, new Date(now).toISOString());
    if (token && this.ttlMs > 0) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { token, until: now + this.ttlMs });
    }
    return token;
  }
}
