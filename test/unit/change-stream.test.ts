// The change stream's EventSource: a browser gives up for good after an answer that is not 200
// (a 503 while the server's database is away, a used ticket); the app must open a new one,
// with a new ticket (ADR-0002), and then pull everything, or live lists stop for good.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeStream, type EventSourceLike } from '../../src/lib/sync/replication';

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

/** The change stream over fake sources, tickets from `ticketUrl`: every source it opened, and with which URL. */
function fakeStream(ticketUrl: () => Promise<string>) {
  const sources: FakeSource[] = [];
  const urls: string[] = [];
  const stream = changeStream(ticketUrl, (url) => {
    const source = new FakeSource();
    sources.push(source);
    urls.push(url);
    return source;
  });
  return { sources, urls, stream };
}

afterEach(() => vi.useRealTimers());

describe('change stream', () => {
  it('opens a new EventSource with a new ticket when the browser gave up, and then asks for every table', async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    let tickets = 0;
    const { sources, urls, stream } = fakeStream(async () => `/api/sync/stream?ticket=t${++tickets}`);
    const sub = stream.subscribe(({ table }) => seen.push(table));
    await vi.advanceTimersByTimeAsync(0);

    sources[0].emit('open');
    sources[0].emit('change', JSON.stringify({ table: 'tbl_profiles' }));
    sources[0].refuse();
    expect(sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sources).toHaveLength(2);
    sources[1].refuse(); // still refused: the next try waits twice as long
    await vi.advanceTimersByTimeAsync(1_999);
    expect(sources).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(3);
    expect(urls).toEqual(['/api/sync/stream?ticket=t1', '/api/sync/stream?ticket=t2', '/api/sync/stream?ticket=t3']);
    sources[2].emit('open');
    sources[2].emit('change', JSON.stringify({ table: 'available-jobs' }));
    expect(seen).toEqual(['tbl_profiles', '*', 'available-jobs']);

    sub.unsubscribe();
    expect(sources[2].closed).toBe(true);
  });

  it('tries again later when no ticket could be had (offline, server away)', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const { sources, stream } = fakeStream(async () => {
      calls += 1;
      if (calls === 1) throw new Error('network down');
      return '/s?ticket=ok';
    });
    const sub = stream.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(sources).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sources).toHaveLength(1);
    sub.unsubscribe();
    expect(sources[0].closed).toBe(true);
  });

  it('leaves a reconnect the browser makes itself to the browser, and still asks for every table', async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const { sources, stream } = fakeStream(async () => '/s');
    const sub = stream.subscribe(({ table }) => seen.push(table));
    await vi.advanceTimersByTimeAsync(0);
    sources[0].emit('open');
    sources[0].readyState = 0; // a dropped connection: the browser is reconnecting
    sources[0].emit('error');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sources).toHaveLength(1);
    sources[0].emit('open');
    expect(seen).toEqual(['*']);
    sub.unsubscribe();
  });

  it('passes on whether the device holds the change: a change marked `mirror: false` is for the screens only', async () => {
    vi.useFakeTimers();
    const seen: { table: string; mirror: boolean }[] = [];
    const { sources, stream } = fakeStream(async () => '/s');
    const sub = stream.subscribe((change) => seen.push(change));
    await vi.advanceTimersByTimeAsync(0);
    sources[0].emit('open');
    sources[0].emit('change', JSON.stringify({ table: 'tbl_serviceprovider', mirror: false }));
    sources[0].emit('change', JSON.stringify({ table: 'tbl_profiles' }));
    expect(seen).toEqual([
      { table: 'tbl_serviceprovider', mirror: false },
      { table: 'tbl_profiles', mirror: true },
    ]);
    sub.unsubscribe();
  });
});
