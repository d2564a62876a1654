import { LRUCache } from 'lru-cache';

/**
 * A bounded map whose entries vanish at their own expiry time (the auth path's verified tokens, access answers):
 * lru-cache underneath, so when full the least recently used entry goes first, and an expired entry is dropped
 * when read. The caller gives an absolute expiry (a token's `exp`), not a duration.
 */
export class ExpiringCache<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, { value: V; expiresAt: number }>;

  constructor(maxEntries: number) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, expiresAt: number): void {
    this.entries.set(key, { value, expiresAt });
  }
}
