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
// - while requests come, a timer marks the loop's turns: data read now arrived after the poll of
//   the turn before, so after the mark before the latest one (a loop busy for seconds without a
//   real wait, each request on a new connection, as behind a proxy without keep-alive, would
//   otherwise be counted from the start of the busy time).
// The arrival is the latest of these, never after the 'request' event. All are lower bounds:
// the time counted may be a little long (by a turn of the loop at most), never short.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

const ARRIVED = Symbol('icrs.arrivedAt');
const SOCKET_FLOOR = Symbol('icrs.socketFloor');

type Stamped<T> = T & { [ARRIVED]?: number; [SOCKET_FLOOR]?: number };

/** A wait this short may be the poll returning at once for data already there: not idle. */
const REAL_WAIT_MS = 1;
/** The marks' period, and how long they go on after the last request. */
const MARK_MS = 10;
const MARK_FOR_MS = 1_000;

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
  // The turns' marks: `before` is the mark before the latest, a lower bound of what is read now.
  let latest = -Infinity;
  let before = -Infinity;
  let lastRequest = 0;
  let marks: NodeJS.Timeout | undefined;
  const mark = () => {
    const now = performance.now();
    if (now - lastRequest > MARK_FOR_MS) {
      clearInterval(marks);
      marks = undefined;
      latest = before = -Infinity; // a new series of marks starts with none known
      return;
    }
    before = latest;
    latest = now;
  };
  const floor = () => Math.max(loopFloor, before);
  server.prependListener('connection', (socket: Stamped<Socket>) => {
    lastRequest = sample();
    marks ??= setInterval(mark, MARK_MS).unref();
    socket[SOCKET_FLOOR] = floor();
  });
  server.prependListener('request', (request: Stamped<IncomingMessage>, response: ServerResponse) => {
    const now = sample();
    lastRequest = now;
    marks ??= setInterval(mark, MARK_MS).unref();
    const socket = request.socket as Stamped<Socket>;
    request[ARRIVED] = Math.min(now, Math.max(floor(), socket[SOCKET_FLOOR] ?? -Infinity));
    response.once('finish', () => (socket[SOCKET_FLOOR] = performance.now()));
  });
}

/** Seconds since `request` reached the process, or undefined when it was not stamped. */
export function secondsSinceArrival(request: IncomingMessage): number | undefined {
  const arrived = (request as Stamped<IncomingMessage>)[ARRIVED];
  return arrived === undefined ? undefined : (performance.now() - arrived) / 1000;
}
