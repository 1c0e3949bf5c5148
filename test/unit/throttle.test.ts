// The sign-in failure counter (server/lib/throttle.ts): windows, waits and a bounded store.
import { describe, expect, it } from 'vitest';
import { FailureCounter } from '../../server/lib/throttle';

function counter(maxEntries = 100) {
  let now = 1_000_000;
  const c = new FailureCounter({ maxFailures: 3, windowMs: 60_000 }, maxEntries, () => now);
  return { c, advance: (ms: number) => (now += ms) };
}

describe('FailureCounter', () => {
  it('makes a key wait once it reached its failures, until its window ends', () => {
    const { c, advance } = counter();
    c.fail('amani');
    advance(10_000);
    c.fail('amani');
    expect(c.waitFor('amani')).toBe(0);
    c.fail('amani');
    expect(c.waitFor('amani')).toBe(50_000);
    expect(c.waitFor('neema')).toBe(0);
    advance(50_000);
    expect(c.waitFor('amani')).toBe(0);
    expect(c.size).toBe(0);
  });

  it('forgets a key on reset', () => {
    const { c } = counter();
    for (let i = 0; i < 3; i++) c.fail('amani');
    c.reset('amani');
    expect(c.waitFor('amani')).toBe(0);
  });

  it('never holds more than its maximum of keys, dropping the window that ends first', () => {
    const { c, advance } = counter(3);
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      for (let i = 0; i < 3; i++) c.fail(key);
      advance(1_000);
    }
    expect(c.size).toBe(3);
    expect(c.waitFor('a')).toBe(0); // evicted
    expect(c.waitFor('e')).toBeGreaterThan(0);
  });
});
