// Reads a server-sent change stream (GET /api/sync/stream) as the app's EventSource does.
/** The change events of one open stream, read as the app's EventSource gets them. */
export class StreamReader {
  readonly tables: string[] = [];
  /** Each event's data as sent: `{table}`, and `mirror: false` for a change the device does not hold. */
  readonly events: { table: string; mirror?: boolean }[] = [];
  /** Resolves when the server ends the stream. */
  ended: Promise<void> = Promise.resolve();
  private readonly controller = new AbortController();
  private wake = () => undefined as void;

  async open(url: string) {
    const response = await fetch(url, { signal: this.controller.signal });
    if (response.status !== 200) throw new Error(`the stream answered ${response.status}`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    this.ended = (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const event = /^event: change\ndata: (.+)$/m.exec(buffer.slice(0, end + 1).replace(/^retry:.*\n|^:.*\n/gm, ''));
            if (event) {
              const data = JSON.parse(event[1]) as { table: string; mirror?: boolean };
              this.events.push(data);
              this.tables.push(data.table);
            }
            buffer = buffer.slice(end + 2);
            this.wake();
          }
        }
      } catch {
        /* closed by the test */
      }
    })();
  }

  /** Waits for a change event naming `table` at index `from` or later; returns its index. */
  async next(table: string, from: number, timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.tables.indexOf(table, from);
      if (index >= 0) return index;
      if (Date.now() > deadline) throw new Error(`no '${table}' event after #${from}; got ${JSON.stringify(this.tables.slice(from))}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  }

  close() {
    this.controller.abort();
  }
}
