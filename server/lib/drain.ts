// A process's way out without errors (README "Upgrading", docs/operations.md): on SIGTERM
// (server/serve.ts) it first drains, and only then closes.
// - Draining: GET /api/health and /api/health/ready answer 503 "draining" so that the balancer's
//   check takes the process out of rotation; every other request is served as usual, its answer
//   with `Connection: close` so that the balancer's and the clients' kept-alive connections move
//   to another process instead of being cut later.
// - Closing (app.close()): no new connection; idle kept-alive ones are closed; requests in flight
//   are answered; change streams end with a short `retry:` so devices reconnect elsewhere.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

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

/**
 * Node's server.close() (which Fastify's close calls) closes every connection without a request
 * in progress, a connection just opened by the balancer among them: its request, already on the
 * way, then meets a reset, and the balancer cannot know whether a POST was stored (nginx answers
 * 502). Instead, a connection that has carried no request yet is given `FRESH_GRACE_MS` to send
 * one, which is answered (with `Connection: close`, lib/drain.ts); only kept-alive connections
 * that are idle between two requests are closed at once.
 */
export const FRESH_GRACE_MS = 1_000;

export function closeGently(server: Server): void {
  const state = new Map<Socket, { served: boolean; active: number }>();
  server.on('connection', (socket: Socket) => {
    state.set(socket, { served: false, active: 0 });
    socket.once('close', () => state.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const of = state.get(request.socket);
    if (!of) return;
    of.served = true;
    of.active += 1;
    response.once('close', () => (of.active -= 1));
  });
  const closeAll = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    for (const [socket, of] of state) if (of.served && of.active === 0) socket.destroy();
    // Later, a connection that sent nothing in time is closed too.
    setTimeout(closeAll, FRESH_GRACE_MS).unref();
  };
}
