// Where it stays, and why (README "nginx and HAProxy"): the deployment itself is tested behind
// Debian's nginx and HAProxy (test/api/deploy-restart.test.ts: rolling restarts by SIGTERM under
// load, the README's files). This stand-in serves test/api/multi-process.test.ts only, whose
// checks steer the balancer from the test at exact moments: take a process out of rotation
// before its stop, swap in "the next release" started on a new port, count the 502s one backend
// gave and wait for the first. HAProxy could do these through its runtime API (`set server
// addr`, `disable server` on a stats socket) at the cost of a socket client in the test; not
// done yet. It opens a new connection per request (agent: false): it never shows the kept-alive
// connection behaviour of a real balancer, which deploy-restart.test.ts covers.
//
// A small HTTP load balancer in front of several server processes, as an operator puts one (nginx,
// HAProxy, a cloud balancer) in front of ICRS:
// - round robin over the backends in rotation;
// - bodies both ways are streamed, never buffered: an upload reaches the backend as it comes, and
//   a change stream's events reach the client as the backend writes them;
// - X-Forwarded-For gets the client's address appended (the servers run with TRUST_PROXY=1);
// - a backend that refuses the connection or resets it gets that one request answered 502; the
//   balancer never sends a request again by itself (it cannot know whether a write was made):
//   retrying is the client's decision;
// - a test takes a backend out of rotation (`remove`), as a real balancer's health check would,
//   before stopping it; or stops it while it is still in rotation, and requests sent to it then
//   get 502 until `replace` swaps it for its successor.
// Connections to the backends are not kept alive, so that a stopped backend shows at once as a
// refused connection, never as a reused socket that breaks later.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the balancer did with one backend's share of the requests. */
export interface BackendCounts {
  /** Requests sent to it. */
  sent: number;
  /** Requests answered 502 because it refused or reset the connection. */
  refused: number;
}

export interface Balancer {
  readonly url: string;
  /** The backends now in rotation, in order. */
  rotation(): string[];
  /** What happened to each backend's requests (those out of rotation too). */
  counts(backendUrl: string): BackendCounts;
  add(backendUrl: string): void;
  /** Out of rotation: no new request goes to it; those in flight through it go on. */
  remove(backendUrl: string): void;
  /** `successor` takes `backendUrl`'s place in the rotation. */
  replace(backendUrl: string, successor: string): void;
  /** Resolves at the next 502 given for `backendUrl` (at once if it already gave one). */
  refusedOnce(backendUrl: string): Promise<void>;
  close(): Promise<void>;
}

/** Headers of one connection only (RFC 9110 §7.6.1): never passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function passedOn(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name)));
}

export async function startBalancer(initial: string[]): Promise<Balancer> {
  let backends = [...initial];
  let turn = 0;
  const counts = new Map<string, BackendCounts>();
  const events = new EventEmitter();
  const countsOf = (backend: string) => {
    const found = counts.get(backend) ?? { sent: 0, refused: 0 };
    counts.set(backend, found);
    return found;
  };

  const server = http.createServer((request, response) => {
    if (!backends.length) {
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      response.end(JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'no backend in rotation' }));
      return;
    }
    const backend = backends[turn++ % backends.length] as string;
    countsOf(backend).sent += 1;
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = http.request(new URL(request.url ?? '/', backend), {
      method: request.method,
      headers: { ...passedOn(request.headers), 'x-forwarded-for': forwardedFor },
      agent: false,
    });
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, passedOn(answer.headers));
      // At once, before any body: a change stream's client learns it is open.
      response.flushHeaders();
      answer.pipe(response);
      // A backend that dies in the middle of an answer: the client's connection is cut too (a
      // truncated answer must not look complete), and the client decides whether to retry.
      answer.on('close', () => {
        if (!answer.complete) response.destroy();
      });
    });
    upstream.on('error', () => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      countsOf(backend).refused += 1;
      events.emit('refused', backend);
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ statusCode: 502, error: 'Bad Gateway', message: `backend ${backend} refused or reset the connection` }),
      );
    });
    // The client left (an aborted upload, a change stream it closed): the backend's side ends too.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.pipe(upstream);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    rotation: () => [...backends],
    counts: (backend) => ({ ...countsOf(backend) }),
    add(backend) {
      if (!backends.includes(backend)) backends = [...backends, backend];
    },
    remove(backend) {
      backends = backends.filter((b) => b !== backend);
    },
    replace(backend, successor) {
      backends = backends.includes(backend) ? backends.map((b) => (b === backend ? successor : b)) : [...backends, successor];
    },
    refusedOnce: (backend) =>
      new Promise<void>((resolve) => {
        if (countsOf(backend).refused > 0) return resolve();
        const heard = (which: string) => {
          if (which !== backend) return;
          events.off('refused', heard);
          resolve();
        };
        events.on('refused', heard);
      }),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
