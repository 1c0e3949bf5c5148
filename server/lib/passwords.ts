// Passwords are stored as argon2id hashes (the library's default algorithm). Every password a
// person types is checked through `Passwords.verify` (sign-in, delete confirmation, change of
// password: ADR-0002), which shares one throttle, and every hash or check runs in a bounded
// queue (ADR-0002): argon2 costs memory and CPU on purpose, so without a limit a burst of
// sign-ins would exhaust the server.
import type { FastifyRequest } from 'fastify';
import { hash, verify } from '@node-rs/argon2';
import type { Queryable } from '../db/index';
import { HttpError } from './errors';
import type { KeyedCode } from './errors';
import { PasswordThrottle } from './throttle';
import { NO_METRICS, type Metrics } from './metrics';

export const hashPassword = (password: string) => hash(password);

export async function checkPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a malformed stored hash is a failed check, not a crash
  }
}

// Verifying against a real hash when the user does not exist keeps both failures equally slow,
// so response times do not reveal which user names exist.
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword('decoy-password-for-timing');
  await checkPassword(await decoy, password);
}

export function randomPassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

export interface HashLimits {
  /** Hashes or checks running at once. */
  concurrency: number;
  /** Waiting for their turn; one more answers 503 with Retry-After. */
  waiting: number;
}

export const DEFAULT_HASH_LIMITS: HashLimits = { concurrency: 4, waiting: 64 };

/** Seconds a client refused by a full hashing queue is asked to wait. */
export const HASH_BUSY_RETRY_SECONDS = 5;

/** Runs at most `concurrency` jobs at once, `waiting` more in turn, and refuses the rest. */
export class HashQueue {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limits: HashLimits = DEFAULT_HASH_LIMITS) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      if (this.queue.length >= this.limits.waiting) {
        throw new HttpError(503, 'auth.busy', {}, { retryAfter: HASH_BUSY_RETRY_SECONDS });
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next)
        next(); // the slot passes to the next in line
      else this.running -= 1;
    }
  }
}

function tooManyAttempts(key: KeyedCode, seconds: number): HttpError {
  return new HttpError(429, key, { minutes: Math.ceil(seconds / 60) }, { retryAfter: seconds });
}

/** The server's password work: hashing in the bounded queue, and the one throttled check. */
export class Passwords {
  private readonly queue: HashQueue;
  private readonly throttle: PasswordThrottle;

  constructor(
    db: Queryable,
    limits: HashLimits = DEFAULT_HASH_LIMITS,
    private readonly metrics: Pick<Metrics, 'throttled'> = NO_METRICS,
  ) {
    this.queue = new HashQueue(limits);
    this.throttle = new PasswordThrottle(db);
  }

  hash(password: string): Promise<string> {
    return this.queue.run(() => hashPassword(password));
  }

  /**
   * Checks a password a person typed for `userName` (whose stored hash is `passwordHash`, or
   * undefined when there is no usable account: the check is then made against a decoy, as slow).
   * Throttled per user name and per address before any hashing (429 with Retry-After, even with
   * the right password): a failure here counts toward sign-in and the other way round.
   */
  async verify(
    request: FastifyRequest,
    userName: string,
    passwordHash: string | undefined,
    password: string,
    refusal: KeyedCode = 'auth.tooManyAttempts',
  ): Promise<boolean> {
    const wait = await this.throttle.retryAfterSeconds(userName, request.ip);
    if (wait > 0) {
      this.metrics.throttled();
      throw tooManyAttempts(refusal, wait);
    }
    const ok = await this.queue.run(() =>
      passwordHash ? checkPassword(passwordHash, password) : burnPasswordCheck(password).then(() => false),
    );
    if (ok) await this.throttle.succeeded(userName);
    else await this.throttle.failed(userName, request.ip);
    return ok;
  }
}
