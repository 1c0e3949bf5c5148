// Statistics of product.md §7 "Stats" for the dashboard (product.md §2), the sidebar badges and the
// reports. Every call needs `stats.read` (every role); every figure is one SQL statement
// (./queries.ts) and every answer has a JSON schema (./schemas.ts), so it is serialized fast
// and documented in /api/docs. Paths are spelt as in the spec, trailing slashes included.
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { can } from '../../../schemas/roles';
import type { ChangeHub } from '../sync/changes';
import type { Db, Queryable } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { requestLang, translate } from '../../lib/messages';
import { typed, type TypedInstance } from '../../lib/typeProvider';
import { MarkerIndex } from './markers';
import * as q from './queries';
import {
  byterParamsSchema,
  CLIENT_FIGURES,
  COUNTED_FIELDS,
  countedParamsSchema,
  keyCountsSchema,
  crossCountsSchema,
  crossFilterSchema,
  generalSchema,
  geoQuerySchema,
  geoSchema,
  idCountsSchema,
  kpiQuerySchema,
  kpisSchema,
  pendingsSchema,
  placesQuerySchema,
  placesSchema,
  type StatsFilter,
} from './schemas';

export { statsIndexes } from './indexes';

const config = { permission: 'stats.read' } as const;

function schema<S extends FastifySchema>(summary: string, response: unknown, extra: S = {} as S) {
  return { tags: ['stats'], summary, ...extra, response: { 200: response } };
}

/** `[{id, count}]` calls: lookup item id (or provider type) and count, most frequent first. */
const ID_COUNTS: [path: string, summary: string, query: (db: Queryable, filter: StatsFilter) => Promise<q.IdCount[]>][] = [
  ['/byspdtype', 'Services per category', q.servicesByCategory],
  ['/bySpdTerr', 'Services per territory', q.servicesByTerritory],
  ['/byServiceType', 'Services per service type', q.servicesByServiceType],
  ['/byoffrall', 'Service providers per type 1-4 (offers overall), every type present', q.providersByType],
  ['/getJbSec/', 'Jobs per sector', q.jobsBySector],
];

/** The filters of a request; a date range must not end before it starts (400, like a schema error). */
function filterOf(request: FastifyRequest, filter: StatsFilter): StatsFilter {
  if (filter.dateFrom && filter.dateTo && filter.dateTo < filter.dateFrom) {
    const values = { field: 'dateTo' };
    const message = translate(requestLang(request), 'validation.other', values);
    throw new HttpError(400, 'validation.other', values, { errors: [{ field: 'dateTo', message }] });
  }
  return filter;
}

/** The figures of `row` the user may see: client figures only with their tile's permission. */
function visibleFigures<T extends Record<string, unknown>>(request: FastifyRequest, row: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(row).filter(([name]) => !CLIENT_FIGURES[name] || can(request.user.role, CLIENT_FIGURES[name])),
  ) as Partial<T>;
}

/** Client figures need their tile's permission (not role 6): 403 otherwise. */
function mayCount(request: FastifyRequest, x: string): void {
  if (CLIENT_FIGURES[x] && !can(request.user.role, CLIENT_FIGURES[x])) throw new HttpError(403, 'auth.forbidden');
}

/** The POST filters are all optional, so a call without a body means "no filter". */
async function emptyBodyIsNoFilter(request: FastifyRequest<{ Body: StatsFilter }>) {
  request.body ??= {};
}

/** The dashboard map opens at zoom 7.5 (product.md §9): the whole map's clusters are cut for it. */
const WHOLE_MAP_ZOOM = 7.5;

const idsOf = (list: string | undefined) => (list ? list.split(',') : []);

function registerMap(app: TypedInstance, db: Db, changes: ChangeHub, limit: number) {
  // Providers and jobs are read by every role: one index and one whole-map answer for all users.
  const markers = new MarkerIndex(db, changes, limit);
  markers.warm().catch((error: unknown) => app.log.warn({ err: error }, 'map markers not read at start'));
  app.get(
    '/api/stats/geo',
    {
      config,
      schema: schema('Map markers: providers and open jobs with coordinates, as points or clusters', geoSchema, {
        querystring: geoQuerySchema,
      }),
    },
    async (request, reply) => {
      const { zoom, west, south, east, north } = request.query;
      if (west === undefined || south === undefined || east === undefined || north === undefined) {
        return reply.type('application/json; charset=utf-8').send(await markers.wholeMapJson(WHOLE_MAP_ZOOM));
      }
      return markers.view({ zoom: zoom ?? WHOLE_MAP_ZOOM, bounds: { west, south, east, north } });
    },
  );
  app.get(
    '/api/stats/geo/places',
    {
      config,
      schema: schema('Names and addresses of map markers (info window, referral map)', placesSchema, { querystring: placesQuerySchema }),
    },
    (request) => {
      const { providers, jobs } = request.query;
      return q.places(db, idsOf(providers), idsOf(jobs));
    },
  );
}

function registerOverview(app: TypedInstance, db: Db) {
  app.get(
    '/api/stats/gen',
    { config, schema: schema('Dashboard tiles: counts of profiles, referrals, providers, services, jobs', generalSchema) },
    async (request) => visibleFigures(request, await q.general(db, request.user)),
  );
  app.get('/api/stats/pendings', { config, schema: schema('Sidebar badges: [{Pending, Rejected}] services', pendingsSchema) }, (request) =>
    q.pendings(db, request.user),
  );
  // The dashboard asks without filters; the reports add their territory and date range.
  for (const [path, summary, query] of ID_COUNTS) {
    app.get(`/api/stats${path}`, { config, schema: schema(summary, idCountsSchema(summary), { querystring: kpiQuerySchema }) }, (request) =>
      query(db, filterOf(request, request.query)),
    );
  }
}

function registerReports(app: TypedInstance, db: Db) {
  app.get(
    '/api/stats/byter/:x',
    {
      config,
      schema: schema('Records of x per territory', idCountsSchema('Territory id and count'), {
        params: byterParamsSchema,
        querystring: kpiQuerySchema,
      }),
    },
    (request) => {
      const { x } = request.params;
      mayCount(request, x);
      return q.countByTerritory(db, x, request.user, filterOf(request, request.query));
    },
  );
  app.get(
    '/api/stats/by/:x/:field',
    {
      config,
      schema: schema('Records of x per value of field (reports)', keyCountsSchema('Value (lookup id, type or code) and count'), {
        params: countedParamsSchema,
        querystring: kpiQuerySchema,
      }),
    },
    (request) => {
      const { x, field } = request.params;
      mayCount(request, x);
      if (!(COUNTED_FIELDS[x] as readonly string[]).includes(field)) {
        const values = { field: 'field' };
        throw new HttpError(400, 'validation.other', values, {
          errors: [{ field: 'field', message: translate(requestLang(request), 'validation.other', values) }],
        });
      }
      return q.countBy(db, x, field, filterOf(request, request.query), request.user);
    },
  );
  const cross = (summary: string) => ({
    config,
    preValidation: emptyBodyIsNoFilter,
    schema: schema(summary, crossCountsSchema(summary), { body: crossFilterSchema }),
  });
  app.post('/api/stats/byterCate/', cross('Services per territory and category'), (request) =>
    q.servicesByTerritoryCategory(db, filterOf(request, request.body), false),
  );
  app.post('/api/stats/byterCateMain/', cross("Services per territory and main category (the service type's parent)"), (request) =>
    q.servicesByTerritoryCategory(db, filterOf(request, request.body), true),
  );
  app.get(
    '/api/stats/getKPIs/',
    { config, schema: schema('Key figures of the reports', kpisSchema, { querystring: kpiQuerySchema }) },
    (request) => q.kpis(db, filterOf(request, request.query), request.user).then((row) => visibleFigures(request, row)),
  );
}

export default async function statsPlugin(
  instance: FastifyInstance,
  { db, changes, mapPointsLimit }: { db: Db; changes: ChangeHub; mapPointsLimit: number },
) {
  const app = typed(instance);
  registerOverview(app, db);
  registerMap(app, db, changes, mapPointsLimit);
  registerReports(app, db);
}
