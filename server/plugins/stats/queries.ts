// The statistics, each one SQL statement (GROUP BY / FILTER), never a loop over rows in
// JavaScript. What counts (decisions, docs/adr/0012-statistics.md):
// - a service counts when neither it nor its provider is soft-deleted;
// - a provider counts when it is not soft-deleted;
// - jobs are every posting, open or closed (the map shows open ones only);
// - "referrals" are referrals to services (table `referral`); job referrals are counted apart.
//   A referral's territory is its client's.
// Organisation scope (schemas/scope.ts figuresScope): client figures (profiles, referrals, job
// referrals) count every organisation's records for a programme-wide reader (roles 1 and 2),
// else only the records the user may read (its own organisation's; none without one); provider, service and job figures count every live record, as every role
// reads them; the badges count the services the user may verify.
import type { EntityShape } from '../../../schemas/define';
import { jobReferral, profile, referral, service as serviceEntity, serviceProvider } from '../../../schemas/index';
import { figuresScope, recordScope, type Actor } from '../../../schemas/scope';
import type { Queryable } from '../../db/index';
import { Conditions, scopeSql } from '../../lib/records';
import { HORIZON_SQL } from '../sync/feed';
import { COUNTED_FIELDS, type ByterEntity, type CountedEntity, type Kpis, type StatsFilter } from './schemas';

export interface IdCount {
  id: number;
  count: number;
}

export interface CrossCount {
  territory: number;
  category: number;
  count: number;
}

/** Live services (`s.*`): not soft-deleted, and their provider not soft-deleted either. Every
 * service has a provider (foreign key), so "no deleted provider" is the cheap form of the rule:
 * an anti-join against the few deleted providers (see ./indexes.ts). */
const LIVE_SERVICES = `(SELECT s.* FROM "tbl_sp_detail" s WHERE NOT s."deleted" AND NOT EXISTS (
  SELECT 1 FROM "tbl_serviceprovider" p WHERE p."sp_Id" = s."sp_Id" AND p."deleted"))`;
const LIVE_PROVIDERS = `(SELECT * FROM "tbl_serviceprovider" WHERE NOT "deleted")`;
const REFERRALS_WITH_TERRITORY = `(SELECT r.*, pr."territory" FROM "referral" r JOIN "tbl_profiles" pr ON pr."prof_Id" = r."prof_Id")`;

/** Service types with their main category (the item's `parent` in the serviceType list). */
const SERVICE_TYPE_PARENTS = `SELECT DISTINCT ON (id) id, parent FROM (
  SELECT (e->>'id')::int AS id, (e->>'parent')::int AS parent
  FROM "lists" l CROSS JOIN LATERAL jsonb_array_elements(l."items") e WHERE l."key" = 'serviceType') t ORDER BY id`;

const count = (from: string, where = '') => `(SELECT count(*)::int FROM ${from} x ${where})`;

/** `AND <the actor's figures scope>` (schemas/scope.ts figuresScope) for rows of `e` known as
 * `alias`, or nothing when all are counted. `verify`: the services the actor may verify (badges). */
function andScope(e: EntityShape, actor: Actor, where: Conditions, alias: string, scope: 'figures' | 'verify' = 'figures'): string {
  const condition = scopeSql(e, scope === 'figures' ? figuresScope(actor, e) : recordScope(actor, e, 'write'), where, alias);
  return condition ? `AND ${condition}` : '';
}

/** `($n IS NULL OR …)` conditions on numbered parameters $1 territory, $2 dateFrom, $3 dateTo:
 * the SQL stays one fixed text whatever filters are given. Dates are whole days, inclusive. */
function filterSql(territory: string, date: string): string {
  return `($1::int IS NULL OR ${territory} = $1::int)
    AND ($2::date IS NULL OR ${date} >= $2::date) AND ($3::date IS NULL OR ${date} < $3::date + 1)`;
}

const filterParams = (f: StatsFilter) => [f.territory ?? null, f.dateFrom ?? null, f.dateTo ?? null];

/** Conditions whose $1-$3 are the filter's (filterSql); the scope's parameters follow. */
function filtered(filter: StatsFilter): Conditions {
  const where = new Conditions();
  filterParams(filter).forEach((value) => where.param(value));
  return where;
}

/** What the counts by one field read: the rows, their date column (the date range filters on
 * it), and the entity whose organisation scope applies (client data only; providers, services
 * and jobs are read by every role). The fields each may be counted by: COUNTED_FIELDS. */
interface Counted {
  from: string;
  date: string;
  entity?: EntityShape;
}

const JOB_REFERRALS_WITH_TERRITORY = `(SELECT r.*, pr."territory" FROM "jobreferral" r JOIN "tbl_profiles" pr ON pr."prof_Id" = r."prof_Id")`;

export const COUNTED: Record<CountedEntity, Counted> = {
  services: { from: LIVE_SERVICES, date: 'createdAt' },
  providers: { from: LIVE_PROVIDERS, date: 'createdAt' },
  jobs: { from: '"available-jobs"', date: 'createdAt' },
  profiles: { from: '"tbl_profiles"', date: 'createdAt', entity: profile },
  referrals: { from: REFERRALS_WITH_TERRITORY, date: 'date', entity: referral },
  jobReferrals: { from: JOB_REFERRALS_WITH_TERRITORY, date: 'date', entity: jobReferral },
};

/** Records of `x` per value of `field` (NULLs left out), most frequent first, within the
 * filter (territory, created or dated between the dates) and, for client data, the actor's scope. */
export async function countBy(db: Queryable, x: CountedEntity, field: string, filter: StatsFilter = {}, actor?: Actor): Promise<IdCount[]> {
  const { from, date, entity } = COUNTED[x];
  if (!(COUNTED_FIELDS[x] as readonly string[]).includes(field)) throw new Error(`stats: ${x} cannot be counted by ${field}`);
  const where = filtered(filter);
  if (entity && !actor) throw new Error(`stats: ${x} is client data, counted for an actor only`);
  const scope = entity && actor ? andScope(entity, actor, where, 'x.') : '';
  return db.query<IdCount & Record<string, unknown>>(
    `SELECT x."${field}" AS id, count(*)::int AS count FROM ${from} x
     WHERE x."${field}" IS NOT NULL AND ${filterSql('x."territory"', `x."${date}"`)} ${scope} GROUP BY 1 ORDER BY 2 DESC, 1`,
    where.params,
  );
}

/** product.md §3 "general": the dashboard tiles, client figures within the actor's scope. */
export async function general(db: Queryable, actor: Actor) {
  const where = new Conditions();
  const [row] = await db.query(
    `SELECT ${count('"tbl_profiles"', `WHERE true ${andScope(profile, actor, where, 'x.')}`)} AS profiles,
            ${count('"referral"', `WHERE true ${andScope(referral, actor, where, 'x.')}`)} AS referrals,
            ${count(LIVE_PROVIDERS)} AS "sProviders", ${count(LIVE_SERVICES)} AS services, ${count('"available-jobs"')} AS jobs`,
    where.params,
  );
  return row;
}

/** A provider or job as the map knows it: its group (0 an open job, 1-4 a provider's sp_type,
 * the marker's colour, product.md §2), its position, and whether it is on the map at all (a live
 * provider or an open job, with both coordinates). */
export interface MarkerRow {
  table: 'p' | 'j';
  id: string;
  grp: number;
  lat: number | null;
  lng: number | null;
  shown: boolean;
}

/** The marker rows changed since `since` (a time as text), or every shown one without it, and
 * the horizon to ask from next time: rows of transactions still running when this was asked
 * carry a later updatedAt (their start), so nothing committed later is missed (sync/feed.ts). */
export async function markerRows(db: Queryable, since: string | null): Promise<{ rows: MarkerRow[]; horizon: string }> {
  const [{ horizon }] = (await db.query<{ horizon: string }>(`SELECT (${HORIZON_SQL})::text AS horizon`)) as [{ horizon: string }];
  const changed = (shown: string) => `CASE WHEN $1::timestamptz IS NULL THEN ${shown} ELSE "updatedAt" >= $1::timestamptz END`;
  const providerShown = `NOT "deleted" AND "lat" IS NOT NULL AND "lng" IS NOT NULL`;
  const jobShown = `"open" AND "lat" IS NOT NULL AND "lng" IS NOT NULL`;
  const rows = await db.query<MarkerRow & Record<string, unknown>>(
    `SELECT 'p' AS table, "sp_Id" AS id, "sp_type" AS grp, "lat", "lng", (${providerShown}) AS shown FROM "tbl_serviceprovider" WHERE ${changed(providerShown)}
     UNION ALL
     SELECT 'j', "jb_Id", 0, "lat", "lng", (${jobShown}) FROM "available-jobs" WHERE ${changed(jobShown)}`,
    [since],
  );
  return { rows, horizon };
}

/** How many markers the map should hold: a check of the changed-rows reads, which miss rows
 * written with an old updatedAt (the demo seed, an import in SQL). */
export async function markerCount(db: Queryable): Promise<number> {
  const [{ n }] = (await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM "tbl_serviceprovider" WHERE NOT "deleted" AND "lat" IS NOT NULL AND "lng" IS NOT NULL)::int
      + (SELECT count(*) FROM "available-jobs" WHERE "open" AND "lat" IS NOT NULL AND "lng" IS NOT NULL)::int AS n`,
  )) as [{ n: number }];
  return n;
}

/** Names and addresses of the markers a map shows in full (an info window, the referral map):
 * the live providers and open jobs among `providerIds` and `jobIds` that have coordinates. */
export async function places(db: Queryable, providerIds: readonly string[], jobIds: readonly string[]) {
  const latlangs = providerIds.length
    ? await db.query(
        `SELECT "sp_Id" AS id, "sp_Name" AS name, "sp_Address" AS address, "sp_type", "lat", "lng" FROM "tbl_serviceprovider"
         WHERE "sp_Id" = ANY($1::text[]) AND NOT "deleted" AND "lat" IS NOT NULL AND "lng" IS NOT NULL ORDER BY "sp_Name", "sp_Id"`,
        [providerIds],
      )
    : [];
  const jbLatlangs = jobIds.length
    ? await db.query(
        `SELECT "jb_Id" AS id, "title", "address", "lat", "lng" FROM "available-jobs"
         WHERE "jb_Id" = ANY($1::text[]) AND "open" AND "lat" IS NOT NULL AND "lng" IS NOT NULL ORDER BY "title", "jb_Id"`,
        [jobIds],
      )
    : [];
  return { latlangs, jbLatlangs };
}

/** `[{Pending, Rejected}]`: the sidebar badges (services with status 0 and 2) the actor may
 * verify or fix: its organisation's (role 1: all), like GET /spDetail/spending and /srejected. */
export async function pendings(db: Queryable, actor: Actor) {
  const where = new Conditions();
  return db.query(
    `SELECT count(*) FILTER (WHERE s."status" = 0)::int AS "Pending", count(*) FILTER (WHERE s."status" = 2)::int AS "Rejected"
     FROM ${LIVE_SERVICES} s WHERE s."status" IN (0, 2) ${andScope(serviceEntity, actor, where, 's.', 'verify')}`,
    where.params,
  );
}

export const servicesByCategory = (db: Queryable, filter?: StatsFilter) => countBy(db, 'services', 'category', filter);
export const servicesByTerritory = (db: Queryable, filter?: StatsFilter) => countBy(db, 'services', 'territory', filter);
export const servicesByServiceType = (db: Queryable, filter?: StatsFilter) => countBy(db, 'services', 'serviceType', filter);
export const jobsBySector = (db: Queryable, filter?: StatsFilter) => countBy(db, 'jobs', 'sector', filter);

/** "Offers overall": live providers per type, every type 1-4 present (0 when none). */
export async function providersByType(db: Queryable, filter: StatsFilter = {}): Promise<IdCount[]> {
  const types = serviceProvider.fields.sp_type.values.map((v) => `(${v})`).join(', ');
  return db.query<IdCount & Record<string, unknown>>(
    `SELECT t.id, count(p."sp_Id")::int AS count FROM (VALUES ${types}) AS t(id)
     LEFT JOIN "tbl_serviceprovider" p ON p."sp_type" = t.id AND NOT p."deleted" AND ${filterSql('p."territory"', 'p."createdAt"')}
     GROUP BY t.id ORDER BY 2 DESC, 1`,
    filterParams(filter),
  );
}

/** Records of `x` per territory (GET /stats/byter/{x}). */
export function countByTerritory(db: Queryable, x: ByterEntity, actor: Actor, filter: StatsFilter = {}) {
  return countBy(db, x, 'territory', filter, actor);
}

/** Live services per territory × category (created between the dates). With `main`, the
 * category is the main category: the service type's `parent` in the serviceType list, or the
 * service's own category when its type has none. `category` filters on that same category. */
export async function servicesByTerritoryCategory(db: Queryable, filter: StatsFilter, main: boolean): Promise<CrossCount[]> {
  const category = main ? 'COALESCE(st.parent, s."category")' : 's."category"';
  const join = main ? `LEFT JOIN (${SERVICE_TYPE_PARENTS}) st ON st.id = s."serviceType"` : '';
  return db.query<CrossCount & Record<string, unknown>>(
    `SELECT s."territory" AS territory, ${category} AS category, count(*)::int AS count
     FROM ${LIVE_SERVICES} s ${join}
     WHERE ${filterSql('s."territory"', 's."createdAt"')} AND ($4::int IS NULL OR ${category} = $4::int)
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [...filterParams(filter), filter.category ?? null],
  );
}

/**
 * The reports' key figures, optionally for one territory and a date range (records created
 * between the dates; referrals and job referrals by their `date`; by the client's territory):
 * - providers: live service providers;
 * - services, verifiedServices, pendingServices, rejectedServices: live services, all and by status 1, 0, 2;
 * - jobs: job postings, open or closed; openJobs: postings still open;
 * - positions: places offered by open postings, their other jobs (tbl_jobs_other) included;
 * - profiles: client profiles;
 * - referrals: referrals to services; referralsCompleted: those with status 'completed';
 * - jobReferrals: referrals to jobs; hired: those with status 'hired'.
 */
export async function kpis(db: Queryable, filter: StatsFilter, actor: Actor): Promise<Kpis> {
  const where = filtered(filter);
  const [row] = await db.query<Kpis & Record<string, unknown>>(
    `WITH pv AS (SELECT count(*)::int AS providers FROM "tbl_serviceprovider" p
        WHERE NOT p."deleted" AND ${filterSql('p."territory"', 'p."createdAt"')}),
      sv AS (SELECT count(*)::int AS services, count(*) FILTER (WHERE s."status" = 1)::int AS "verifiedServices",
          count(*) FILTER (WHERE s."status" = 0)::int AS "pendingServices", count(*) FILTER (WHERE s."status" = 2)::int AS "rejectedServices"
        FROM ${LIVE_SERVICES} s WHERE ${filterSql('s."territory"', 's."createdAt"')}),
      jb AS (SELECT count(*)::int AS jobs, count(*) FILTER (WHERE j."open")::int AS "openJobs",
          COALESCE(sum(j."positions" + COALESCE(o.more, 0)) FILTER (WHERE j."open"), 0)::int AS positions
        FROM "available-jobs" j LEFT JOIN (SELECT "jb_Id", sum("positions") AS more FROM "tbl_jobs_other" GROUP BY 1) o
          ON o."jb_Id" = j."jb_Id"
        WHERE ${filterSql('j."territory"', 'j."createdAt"')}),
      pf AS (SELECT count(*)::int AS profiles FROM "tbl_profiles" pr WHERE ${filterSql('pr."territory"', 'pr."createdAt"')}
        ${andScope(profile, actor, where, 'pr.')}),
      rf AS (SELECT count(*)::int AS referrals, count(*) FILTER (WHERE r."status" = 'completed')::int AS "referralsCompleted"
        FROM ${REFERRALS_WITH_TERRITORY} r WHERE ${filterSql('r."territory"', 'r."date"')} ${andScope(referral, actor, where, 'r.')}),
      jr AS (SELECT count(*)::int AS "jobReferrals", count(*) FILTER (WHERE r."status" = 'hired')::int AS hired
        FROM "jobreferral" r JOIN "tbl_profiles" pr ON pr."prof_Id" = r."prof_Id"
        WHERE ${filterSql('pr."territory"', 'r."date"')} ${andScope(jobReferral, actor, where, 'r.')})
    SELECT * FROM pv, sv, jb, pf, rf, jr`,
    where.params,
  );
  return row;
}
