// A process's way out without errors (README "Upgrading", docs/operations.md): on SIGTERM
// (server/serve.ts) it first drains, and only then closes.
// - Draining: GET /api/health and /api/health/ready answer 503 "draining" so that the balancer's
//   check takes the process out of rotation; every other request is served as usual, its answer
//   with `Connection: close` so that the balancer's and the clients' kept-alive connections move
//   to another process instead of being cut later.
// - Closing (app.close()): no new connection; idle kept-alive ones are closed; requests in flight
//   are answered; change streams end with a short `retry:` so devices reconnect elsewhere.

/** How long the change stream's client waits before reconnecting after a drain (SSE `retry:`). */
export const DRAIN_STREAM_RETRY_MS = 500;

export class Drain {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  start(): void {
    this.#draining = true;
  }
}
