// A small HTTP proxy in front of a test server that misbehaves on purpose, reproducibly (seeded):
// - `failRate`: answers 500 without forwarding (the server never saw the request);
// - `failAfterRate`: forwards, lets the server store the request, then answers 500 instead;
// - `dropRate`: forwards, waits for the server's whole answer, then drops the connection
//   (the record is stored, the answer is lost);
// - `hangRate`: forwards, lets the server store the request, then never answers (the connection
//   stays open, silent, until the client gives up or the proxy closes);
// and answers 502 while the server it points at is down (`setTarget` moves it to a new one).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Faults {
  failRate: number;
  failAfterRate: number;
  dropRate: number;
  hangRate: number;
}

export interface FaultyProxy {
  url: string;
  setTarget(url: string): void;
  setFaults(faults: Partial<Faults>): void;
  readonly stats: { requests: number; failed: number; failedAfter: number; dropped: number; hung: number; unreachable: number };
  close(): Promise<void>;
}

export interface FaultyProxyOptions extends Partial<Faults> {
  target: string;
  seed?: number;
  /** Requests that may be hit by faults; default every API call but the login. */
  faultable?: (method: string, url: string) => boolean;
}

/** mulberry32: a tiny seeded generator, so a failing run can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Fault = 'none' | 'fail' | 'failAfter' | 'drop' | 'hang';

function sendJson(res: ServerResponse, status: number, message: string) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(JSON.stringify({ statusCode: status, error: http.STATUS_CODES[status], message }));
}

export async function startFaultyProxy(options: FaultyProxyOptions): Promise<FaultyProxy> {
  let target = new URL(options.target);
  const faults: Faults = {
    failRate: options.failRate ?? 0,
    failAfterRate: options.failAfterRate ?? 0,
    dropRate: options.dropRate ?? 0,
    hangRate: options.hangRate ?? 0,
  };
  const random = seededRandom(options.seed ?? 1);
  const faultable = options.faultable ?? ((_method: string, url: string) => url.startsWith('/api/') && !url.startsWith('/api/login'));
  const stats = { requests: 0, failed: 0, failedAfter: 0, dropped: 0, hung: 0, unreachable: 0 };
  const agent = new http.Agent({ keepAlive: true });

  const pick = (req: IncomingMessage): Fault => {
    if (!faultable(req.method ?? 'GET', req.url ?? '/')) return 'none';
    const r = random();
    if (r < faults.failRate) return 'fail';
    if (r < faults.failRate + faults.failAfterRate) return 'failAfter';
    if (r < faults.failRate + faults.failAfterRate + faults.dropRate) return 'drop';
    if (r < faults.failRate + faults.failAfterRate + faults.dropRate + faults.hangRate) return 'hang';
    return 'none';
  };

  const forward = (req: IncomingMessage, res: ServerResponse, fault: Fault) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (answer) => {
        if (fault === 'none') {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        // Read the whole answer first: the server has finished (and committed) the request.
        answer.resume();
        answer.on('end', () => {
          if (fault === 'drop') {
            stats.dropped += 1;
            req.socket.destroy();
          } else if (fault === 'hang') {
            stats.hung += 1; // no answer, ever: the client's bound must end the wait
          } else {
            stats.failedAfter += 1;
            sendJson(res, 500, 'Internal Server Error');
          }
        });
      },
    );
    upstream.on('error', () => {
      stats.unreachable += 1;
      sendJson(res, 502, 'Bad Gateway');
    });
    req.pipe(upstream);
  };

  const server = http.createServer((req, res) => {
    stats.requests += 1;
    const fault = pick(req);
    if (fault === 'fail') {
      stats.failed += 1;
      req.resume();
      req.on('end', () => sendJson(res, 500, 'Internal Server Error'));
      return;
    }
    forward(req, res, fault);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    stats,
    setTarget(next) {
      target = new URL(next);
    },
    setFaults(next) {
      Object.assign(faults, next);
    },
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
