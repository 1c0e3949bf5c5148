// The change stream (ADR-0015): one server-sent event stream (GET /api/sync/stream) tells
// every collection when its table changed.
import { Observable, share } from 'rxjs';
import { ALL_TABLES } from '../../../../schemas/changeStream';

/** The part of EventSource the stream uses, so that tests (Node has none) can pass their own. */
export interface EventSourceLike {
  /** 0 connecting, 1 open, 2 closed (the browser will not reconnect). */
  readonly readyState?: number;
  addEventListener(type: 'change' | 'open' | 'error', listener: (event: { data?: unknown }) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

/** The address the change stream opens at, with a fresh single-use ticket each time (ADR-0002,
 * docs/security.md "Access control, second round": never the session token, which a proxy's access log would keep). */
export type StreamUrl = () => Promise<string>;

export { ALL_TABLES };

/** A change the stream names: its table, and whether the device's mirror may hold the changed
 * rows (false: a change the user may list but the device does not hold, such as another
 * organisation's directory record; the screens refresh, the device does not pull). */
export interface StreamChange {
  table: string;
  mirror: boolean;
}

function changeOf(data: unknown): StreamChange | undefined {
  try {
    const { table, mirror } = JSON.parse(String(data)) as { table?: unknown; mirror?: unknown };
    return typeof table === 'string' ? { table, mirror: mirror !== false } : undefined;
  } catch {
    return undefined; // a malformed event is ignored; the next one or a reconnect resyncs
  }
}

/** EventSource.CLOSED: the browser gave up on the stream and will not reconnect by itself. */
const CLOSED = 2;
const REOPEN_FIRST_MS = 1_000;
const REOPEN_MAX_MS = 30_000;

/**
 * One EventSource for every collection: opened with the first subscriber, closed with the last.
 * A reconnect, by the browser or by us, is answered with every table ('*'): what changed
 * meanwhile is unknown. The browser reconnects by itself after a dropped connection, but gives
 * up for good after an answer that is not 200 (a 503 while the server's database is away, a
 * restart behind a proxy): then a new EventSource is opened, after a pause that doubles up to
 * 30 s, so live lists never stop for good.
 */
export function changeStream(streamUrl: StreamUrl, open: EventSourceFactory, onOpen?: () => void): Observable<StreamChange> {
  return new Observable<StreamChange>((subscriber) => {
    let source: EventSourceLike | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pause = REOPEN_FIRST_MS;
    let broken = false;
    let closed = false;
    const retry = () => {
      timer = setTimeout(connect, pause);
      pause = Math.min(pause * 2, REOPEN_MAX_MS);
    };
    // A ticket serves once: a reconnect of the browser's own is refused (401) and closes the
    // source, and a new one is opened here with a new ticket.
    const connect = () => {
      streamUrl().then(
        (url) => {
          if (closed) return;
          attach(open(url));
        },
        () => {
          broken = true;
          if (!closed) retry();
        },
      );
    };
    const attach = (current: EventSourceLike) => {
      source = current;
      current.addEventListener('change', (event) => {
        const change = changeOf(event.data);
        if (change) subscriber.next(change);
      });
      current.addEventListener('error', () => {
        broken = true;
        if (current.readyState !== CLOSED || source !== current) return;
        current.close();
        retry();
      });
      current.addEventListener('open', () => {
        pause = REOPEN_FIRST_MS;
        onOpen?.();
        if (broken) subscriber.next({ table: ALL_TABLES, mirror: true });
        broken = false;
      });
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      source?.close();
    };
  }).pipe(share());
}

/** The browser's EventSource; null where there is none (Node). */
export function defaultEventSource(): EventSourceFactory | null {
  return typeof EventSource === 'undefined' ? null : (url) => new EventSource(url);
}
