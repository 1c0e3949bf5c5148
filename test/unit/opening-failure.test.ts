// An opening of the device's store that fails says why (docs/adr/0046-store-never-waits-forever.md "The device's store
// never waits forever"): IndexedDB and RxDB may reject with nothing (a request's `error` is null
// once its transaction aborted, as when the user leaves the page while the store opens), and
// Firefox logged "icrs_db could not be opened: undefined".
import { describe, expect, it } from 'vitest';
import { openingFailure } from '../../src/lib/data/DbProvider';

describe('openingFailure', () => {
  it('names an opening interrupted without a reason, never "undefined"', () => {
    for (const nothing of [undefined, null]) {
      const failure = openingFailure(nothing);
      expect(failure).toBeInstanceOf(Error);
      expect(failure.message).toMatch(/interrupted without a reason/);
      expect(failure.message).not.toMatch(/undefined/);
    }
  });

  it("says an IndexedDB event's type and its request's error", () => {
    const event = new Event('error');
    Object.defineProperty(event, 'target', { value: { error: new DOMException('Version change transaction was aborted', 'AbortError') } });
    const failure = openingFailure(event);
    expect(failure.message).toMatch(/^IndexedDB refused the opening \(error event\): AbortError: Version change transaction was aborted/);
    expect(failure.cause).toBe(event);
  });

  it('keeps an Error as it is, and a bare value as its text', () => {
    const error = new Error('QuotaExceededError');
    expect(openingFailure(error)).toBe(error);
    expect(openingFailure('blocked').message).toBe('blocked');
  });
});
