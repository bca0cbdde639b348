import { clientKey } from './networks.ts';

/** Misses (unknown tokens, token-less 404s) one client address may have in a window before they answer 429. */
export const MISSES_PER_WINDOW = 60;
export const MISS_WINDOW_MS = 60_000;
/** Addresses tracked at once; beyond, expired windows go first, then the oldest. */
const MAX_CLIENTS = 10_000;

/**
 * Counts the phone-file requests that found nothing, per client address (an IPv6 client per /64), in fixed
 * windows. Only misses are counted and only misses are refused: a request with a right token is answered whatever
 * this says, so phones behind one NAT keep working while a guesser there is slowed down.
 */
export class MissThrottle {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit = MISSES_PER_WINDOW,
    private readonly windowMs = MISS_WINDOW_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts a miss from `ip`: undefined to answer it (404), or the seconds to wait (429 with Retry-After). */
  miss(ip: string): number | undefined {
    const key = clientKey(ip);
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (window) this.windows.delete(key);
      else if (this.windows.size >= MAX_CLIENTS) this.makeRoom(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count <= this.limit) return undefined;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  private makeRoom(now: number) {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
    // Insertion order is start order: the oldest windows go.
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_CLIENTS) break;
      this.windows.delete(key);
    }
  }
}
