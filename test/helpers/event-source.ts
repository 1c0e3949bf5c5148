// A minimal EventSource over fetch (Node 20 has none) for the pull replication's change stream:
// `event:`/`data:` blocks, 'open' and 'error', and, like the browser's, it reconnects by itself
// after the connection ends or fails (`reconnectMs`), saying 'error' then 'open' again.
import type { EventSourceLike } from '../../src/lib/sync/replication';

export interface FetchEventSourceOptions {
  /** Wait before reconnecting; null: no reconnection (the stream ends with its first error). */
  reconnectMs?: number | null;
  /** Told of every URL opened (tests count the streams). */
  onOpen?: (url: string) => void;
}

/** The streams a factory opened, and the network between them and the server. */
export interface StreamControl {
  open: (url: string) => EventSourceLike;
  /** Every URL opened. */
  readonly opened: string[];
  /** Cuts the connections now open (each reconnects, unless held). */
  drop(): void;
  /** Reconnections wait until `release()`. */
  hold(): void;
  release(): void;
}

export function fetchEventSource(options: FetchEventSourceOptions = {}): (url: string) => EventSourceLike {
  return controlledEventSource(options).open;
}

export function controlledEventSource(options: FetchEventSourceOptions = {}): StreamControl {
  const opened: string[] = [];
  const connections = new Set<AbortController>();
  let held: Promise<void> | null = null;
  let release = () => undefined as void;
  const open = (url: string): EventSourceLike => {
    opened.push(url);
    options.onOpen?.(url);
    const listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();
    const emit = (type: string, data?: string) => listeners.get(type)?.forEach((listener) => listener({ data }));
    const controller = new AbortController();
    /** 0 connecting, 1 open, 2 closed: a browser closes for good after an answer that is not 200. */
    let readyState = 0;
    const connect = async () => {
      await held;
      const connection = new AbortController();
      const stop = () => connection.abort();
      controller.signal.addEventListener('abort', stop);
      connections.add(connection);
      try {
        await read(connection.signal);
      } finally {
        connections.delete(connection);
        controller.signal.removeEventListener('abort', stop);
      }
    };
    const read = async (signal: AbortSignal) => {
      const response = await fetch(url, { signal });
      if (!response.ok || !response.body) {
        readyState = 2; // as a browser: a refused stream is not tried again
        await response.body?.cancel();
        return;
      }
      readyState = 1;
      emit('open');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += chunk.value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data !== undefined) emit(/^event: (.*)$/m.exec(block)?.[1] ?? 'message', data);
        }
      }
    };
    void (async () => {
      while (!controller.signal.aborted) {
        try {
          await connect();
        } catch {
          // refused, reset or aborted by close()
        }
        if (controller.signal.aborted) return;
        if (readyState !== 2) readyState = 0;
        emit('error');
        if (options.reconnectMs === null || readyState === 2) return;
        await new Promise((resolve) => setTimeout(resolve, options.reconnectMs ?? 100));
      }
    })();
    return {
      get readyState() {
        return readyState;
      },
      addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
      close: () => {
        readyState = 2;
        controller.abort();
      },
    };
  };
  return {
    open,
    opened,
    drop: () => connections.forEach((c) => c.abort()),
    hold: () => {
      held ??= new Promise<void>((resolve) => (release = resolve));
    },
    release: () => {
      held = null;
      release();
    },
  };
}
