// Counts failed sign-ins per key (a user name, an address) in fixed windows, in memory.
// Numbers and reasons: docs/security.md "Sign-in throttling".
//
// Memory stays bounded: at most `maxEntries` keys. Every window has the same length and a key
// is (re)inserted when its window starts, so the Map's insertion order is the order in which
// windows end: expired keys are dropped from the front, and when the store is full the key
// whose window ends first goes. One address cannot flush the store by spraying user names,
// because its own failures are limited too.

export interface ThrottleRule {
  /** Failures allowed in one window; the next attempt is refused until the window ends. */
  maxFailures: number;
  windowMs: number;
}

interface Window {
  failures: number;
  endsAt: number;
}

export class FailureCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly rule: ThrottleRule,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds before `key` may try again; 0 when it may now. */
  waitFor(key: string): number {
    this.dropExpired();
    const window = this.windows.get(key);
    if (!window || window.failures < this.rule.maxFailures) return 0;
    return Math.max(0, window.endsAt - this.now());
  }

  fail(key: string): void {
    this.dropExpired();
    const window = this.windows.get(key);
    if (window) {
      window.failures += 1;
      return;
    }
    if (this.windows.size >= this.maxEntries) this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(key, { failures: 1, endsAt: this.now() + this.rule.windowMs });
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (window.endsAt > now) break;
      this.windows.delete(key);
    }
  }
}

const FIFTEEN_MINUTES = 15 * 60_000;

/** Sign-in limits (docs/security.md): 5 failures per user name, 30 per address, per 15 minutes. */
export const LOGIN_LIMITS = {
  perUserName: { maxFailures: 5, windowMs: FIFTEEN_MINUTES },
  perAddress: { maxFailures: 30, windowMs: FIFTEEN_MINUTES },
} as const satisfies Record<string, ThrottleRule>;

/** The two counters of sign-in: one per user name (case-insensitive, as sign-in is), one per address. */
export class LoginThrottle {
  private readonly byName = new FailureCounter(LOGIN_LIMITS.perUserName);
  private readonly byAddress = new FailureCounter(LOGIN_LIMITS.perAddress);

  /** Seconds to wait before this user name may try again from this address; 0 when it may now. */
  retryAfterSeconds(userName: string, address: string): number {
    const ms = Math.max(this.byName.waitFor(userName.toLowerCase()), this.byAddress.waitFor(address));
    return Math.ceil(ms / 1000);
  }

  failed(userName: string, address: string): void {
    this.byName.fail(userName.toLowerCase());
    this.byAddress.fail(address);
  }

  /** A success clears its user name's failures. Not its address's: with an account of their own,
   * someone guessing others' passwords could otherwise clear their address between guesses. */
  succeeded(userName: string): void {
    this.byName.reset(userName.toLowerCase());
  }
}
