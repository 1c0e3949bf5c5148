// The change stream's EventSource: a browser gives up for good after an answer that is not 200
// (a 503 while the server's database is away); the app must open a new one and then pull
// everything, or live lists stop for good.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeStream, type EventSourceLike } from '../../src/lib/db/replication';

type Listener = (event: { data?: unknown }) => void;

class FakeSource implements EventSourceLike {
  readyState = 0;
  closed = false;
  private readonly listeners = new Map<string, Listener[]>();
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data?: unknown) {
    if (type === 'open') this.readyState = 1;
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
  /** What a browser does after a 503: error with the source closed. */
  refuse() {
    this.readyState = 2;
    this.emit('error');
  }
}

afterEach(() => vi.useRealTimers());

describe('change stream', () => {
  it('opens a new EventSource when the browser gave up, and then asks for every table', () => {
    vi.useFakeTimers();
    const sources: FakeSource[] = [];
    const seen: string[] = [];
    const sub = changeStream('/api/sync/stream', () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    }).subscribe((table) => seen.push(table));

    sources[0].emit('open');
    sources[0].emit('change', JSON.stringify({ table: 'tbl_profiles' }));
    sources[0].refuse();
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(sources).toHaveLength(2);
    sources[1].refuse(); // still refused: the next try waits twice as long
    vi.advanceTimersByTime(1_999);
    expect(sources).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(3);
    sources[2].emit('open');
    sources[2].emit('change', JSON.stringify({ table: 'available-jobs' }));
    expect(seen).toEqual(['tbl_profiles', '*', 'available-jobs']);

    sub.unsubscribe();
    expect(sources[2].closed).toBe(true);
  });

  it('leaves a reconnect the browser makes itself to the browser, and still asks for every table', () => {
    vi.useFakeTimers();
    const sources: FakeSource[] = [];
    const seen: string[] = [];
    const sub = changeStream('/s', () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    }).subscribe((table) => seen.push(table));
    sources[0].emit('open');
    sources[0].readyState = 0; // a dropped connection: the browser is reconnecting
    sources[0].emit('error');
    vi.advanceTimersByTime(60_000);
    expect(sources).toHaveLength(1);
    sources[0].emit('open');
    expect(seen).toEqual(['*']);
    sub.unsubscribe();
  });
});
