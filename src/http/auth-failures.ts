import { isIPv6 } from 'node:net';
import { refuse } from '../errors.js';

export interface AuthFailureLimit {
  /** Refused credentials an address may present within one window. */
  limit: number;
  windowMs: number;
}

/** Addresses tracked at once; past this the oldest windows are dropped first. */
const MAX_TRACKED = 100_000;

/**
 * Counts refused credentials per client address in fixed windows. Once an address reaches the
 * limit, every request of it that carries credentials is answered 429 until its window ends,
 * unchecked: so tokens cannot be guessed at speed, and a right guess cannot be told from a wrong
 * one meanwhile. Requests without credentials are never held back. The count lives in this
 * process: servers sharing a database each keep their own.
 */
export class AuthFailures {
  private readonly windows = new Map<string, { count: number; ends: number }>();

  constructor(
    private readonly settings: AuthFailureLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** No address has a refusal counted: no request can be held back. */
  get clear(): boolean {
    return this.windows.size === 0;
  }

  /** Refuses with 429 while the address is over the limit. */
  check(address: string): void {
    const key = clientKey(address);
    const window = this.windows.get(key);
    if (!window) return;
    const left = window.ends - this.now();
    if (left <= 0) this.windows.delete(key);
    else if (window.count >= this.settings.limit) {
      const seconds = Math.ceil(left / 1000);
      throw refuse(
        'too-many-failures',
        `too many failed authentication attempts from this address; try again in ${seconds} s`,
        { headers: { 'retry-after': String(seconds) } },
      );
    }
  }

  /** Counts one refusal; true when it is the one that reached the limit. */
  failed(address: string): boolean {
    const key = clientKey(address);
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.ends <= now) {
      this.windows.delete(key);
      if (this.windows.size >= MAX_TRACKED) this.evict(now);
      window = { count: 0, ends: now + this.settings.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count === this.settings.limit;
  }

  /** Drops ended windows, else the oldest (the map keeps insertion order). */
  private evict(now: number): void {
    for (const [key, window] of this.windows) if (window.ends <= now) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_TRACKED) break;
      this.windows.delete(key);
    }
  }
}

/**
 * One IPv6 client commonly holds a whole /64, so its addresses count together; an IPv4 address
 * (also written IPv4-mapped) counts alone.
 */
export function clientKey(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
