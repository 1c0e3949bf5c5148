// When a request reached the process, for the request-duration histogram (docs/operations.md
// "Request durations"). Fastify's own clock starts when its handler runs, which is when the event
// loop got round to reading the socket: time a request spent in the kernel's queue while the loop
// was busy (a long computation, a burst of requests) was missing, and the histogram said 68 ms
// while the clients waited 200.
//
// Node gives no kernel receive time, so the arrival is bounded from below by two facts:
// - the loop's last real wait (its idle time, from performance.eventLoopUtilization()): data
//   that had arrived before the loop began to wait would have ended the wait at once, so
//   whatever is read now arrived after the last wait that lasted;
// - the socket: a request on a kept-alive connection was sent after the answer before it was
//   written (browsers and load tools do not pipeline), and a connection's first request after
//   the connection was accepted.
// The arrival is the later of the two, never after the 'request' event. Both are lower bounds:
// the time counted may be a little long, never short.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

const ARRIVED = Symbol('icrs.arrivedAt');
const SOCKET_FLOOR = Symbol('icrs.socketFloor');

type Stamped<T> = T & { [ARRIVED]?: number; [SOCKET_FLOOR]?: number };

/** A wait this short may be the poll returning at once for data already there: not idle. */
const REAL_WAIT_MS = 1;

/** Stamps every request of `server` with its arrival, by listeners that run before Fastify's. */
export function trackArrivals(server: Server): void {
  let lastSample = performance.now();
  let lastIdle = performance.eventLoopUtilization().idle;
  let loopFloor = lastSample;
  const sample = (): number => {
    const now = performance.now();
    const { idle } = performance.eventLoopUtilization();
    const waited = idle - lastIdle;
    // The wait(s) fell between the last sample and now: the last one ended at least this late.
    if (waited >= REAL_WAIT_MS) loopFloor = Math.max(loopFloor, lastSample + waited);
    lastSample = now;
    lastIdle = idle;
    return now;
  };
  server.prependListener('connection', (socket: Stamped<Socket>) => {
    sample();
    socket[SOCKET_FLOOR] = loopFloor;
  });
  server.prependListener('request', (request: Stamped<IncomingMessage>, response: ServerResponse) => {
    const now = sample();
    const socket = request.socket as Stamped<Socket>;
    request[ARRIVED] = Math.min(now, Math.max(loopFloor, socket[SOCKET_FLOOR] ?? loopFloor));
    response.once('finish', () => (socket[SOCKET_FLOOR] = performance.now()));
  });
}

/** Seconds since `request` reached the process, or undefined when it was not stamped. */
export function secondsSinceArrival(request: IncomingMessage): number | undefined {
  const arrived = (request as Stamped<IncomingMessage>)[ARRIVED];
  return arrived === undefined ? undefined : (performance.now() - arrived) / 1000;
}
