// GET /api/metrics (ADR-0038): the server's metrics in Prometheus' text format, for role 1 or
// for a scraper holding METRICS_TOKEN, never anyone else (docs/api.md "Metrics"). Every answered
// request is counted here, under its route's pattern.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can } from '../../schemas/roles';
import { secondsSinceArrival, trackArrivals } from '../lib/arrival';
import { HttpError } from '../lib/errors';
import type { Metrics } from '../lib/metrics';
import type { TokenService } from '../lib/tokens';
import { authenticate, bearerToken } from './auth';
import type { SessionUsers } from './users/sessionUsers';

export interface MetricsOptions {
  metrics: Metrics;
  /** METRICS_TOKEN: a scraper's bearer token, beside a role-1 session. */
  scrapeToken?: string;
  tokens: TokenService;
  users: SessionUsers;
}

/** Compared in constant time: an answer's timing must not reveal how much of a guess was right. */
function sameSecret(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Role 1's session, or the scrape token; else the 401 or 403 every other route would answer. */
async function assertMayRead(request: FastifyRequest, { scrapeToken, tokens, users }: MetricsOptions): Promise<void> {
  const token = bearerToken(request);
  if (sameSecret(token, scrapeToken)) return;
  const session = await authenticate(users, tokens, token);
  if ('refusal' in session) throw session.refusal;
  if (session.user.mustChangePassword) throw new HttpError(403, 'auth.mustChangePassword');
  if (!can(session.user.role, 'metrics.read')) throw new HttpError(403, 'auth.forbidden');
}

async function metricsPlugin(app: FastifyInstance, options: MetricsOptions) {
  const { metrics } = options;
  // From the request's arrival on the socket, not from Fastify's handler (lib/arrival.ts).
  trackArrivals(app.server);
  app.addHook('onResponse', async (request, reply) => {
    const seconds = secondsSinceArrival(request.raw) ?? reply.elapsedTime / 1000;
    // The pattern, never the URL: ids and search words would make a series each.
    metrics.requestDone(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, seconds);
  });

  // Public to the session gate: the scrape token is no session token; the check is here.
  const schema = {
    response: { 200: { description: "Prometheus' text format", content: { 'text/plain': { schema: { type: 'string' } } } } },
  };
  app.get('/api/metrics', { schema, config: { public: true } }, async (request, reply) => {
    await assertMayRead(request, options);
    const exposition = await metrics.exposition();
    return reply.header('Content-Type', exposition.contentType).send(exposition.text);
  });
}

export default fp(metricsPlugin, { name: 'metrics' });
