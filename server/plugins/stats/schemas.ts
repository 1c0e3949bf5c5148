// JSON schemas of the stats calls: request bodies and queries that Fastify validates (400 with
// a message per field), and answer shapes that make serialization fast and appear in /api/docs.
import { KPI_NAMES, type Kpis } from '../../../schemas/kpis';
import { MAX_INT, UUID_LENGTH, UUID_PATTERN, type JsonSchema } from '../../../schemas/define';
import { serviceProvider } from '../../../schemas/index';
import { nullable } from '../../../schemas/derive/json-schema';
import { date, integer, number, object as typedObject, oneOf, orNull, type SchemaValue, type Typed } from '../../../schemas/derive/typed';
import type { Permission } from '../../../schemas/roles';

/** Client figures and the permission that shows them: the dashboard tile's (product.md §6: not
 * role 6). Other roles get the answer without them; /stats/byter/{x} answers 403. */
export const CLIENT_FIGURES: Readonly<Record<string, Permission>> = {
  profiles: 'tile.clients',
  referrals: 'tile.referrals',
  referralsCompleted: 'tile.referrals',
  jobReferrals: 'tile.referrals',
  hired: 'tile.referrals',
};

/** The names of `properties` every caller gets: all but the client figures. */
const alwaysThere = (properties: Record<string, unknown>) => Object.keys(properties).filter((name) => !(name in CLIENT_FIGURES));

/** Entities `/stats/byter/{x}` counts by territory. */
export const BYTER_ENTITIES = ['services', 'providers', 'jobs', 'profiles', 'referrals'] as const;
export type ByterEntity = (typeof BYTER_ENTITIES)[number];

/** Entities `/stats/by/{x}/{field}` counts, and the fields it counts them by (reports). */
export const COUNTED_FIELDS = {
  services: ['territory', 'category', 'serviceType', 'status'],
  providers: ['territory', 'sp_type'],
  jobs: ['territory', 'sector'],
  profiles: ['territory', 'sex', 'populationGroup', 'educationLevel'],
  referrals: ['territory', 'status'],
  jobReferrals: ['territory', 'status'],
} as const;
export type CountedEntity = keyof typeof COUNTED_FIELDS;

const count: JsonSchema = { type: 'integer', minimum: 0 };
const itemId: JsonSchema = { type: 'integer', minimum: 0, maximum: MAX_INT };
const nullableItemId = orNull(integer(1, MAX_INT));
const nullableDate = orNull(date());

function object(properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, required };
}

function countsOf(keys: Record<string, JsonSchema>, description: string): JsonSchema {
  return { type: 'array', description, items: object({ ...keys, count }) };
}

/** `[{id, count}]`: a lookup item id (or provider type) and how many records have it. */
export const idCountsSchema = (description: string): JsonSchema => countsOf({ id: itemId }, description);

export const crossCountsSchema = (description: string): JsonSchema => countsOf({ territory: itemId, category: itemId }, description);

const generalFigures = { profiles: count, referrals: count, sProviders: count, services: count, jobs: count };
export const generalSchema = object(generalFigures, alwaysThere(generalFigures));

const place = { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } } as const;
const text: JsonSchema = { type: 'string' };
const optionalText: JsonSchema = { type: ['string', 'null'] };
const spType: JsonSchema = { type: 'integer', enum: serviceProvider.fields.sp_type.values };

/** GET /stats/geo/places: names and addresses of the markers asked (info window, referral map). */
export const placesSchema = object({
  latlangs: {
    type: 'array',
    description: 'Service providers with coordinates (sp_type gives the marker colour).',
    items: object({ id: text, name: text, address: optionalText, sp_type: spType, ...place }),
  },
  jbLatlangs: {
    type: 'array',
    description: 'Open jobs with coordinates.',
    items: object({ id: text, title: text, address: optionalText, ...place }),
  },
});

/** At most this many ids of each kind per GET /stats/geo/places (the referral map asks for
 * the providers of a page of 100 services). */
export const MAX_PLACES = 100;
const idList = (what: string): Typed<string> => ({
  type: 'string',
  maxLength: MAX_PLACES * (UUID_LENGTH + 1),
  pattern: `^(${UUID_PATTERN.slice(1, -1)}(,${UUID_PATTERN.slice(1, -1)})*)?$`,
  description: `Ids of ${what}, comma-separated (at most ${MAX_PLACES}).`,
});
export const placesQuerySchema = typedObject({ providers: idList('service providers'), jobs: idList('open jobs') });

const lng: JsonSchema = place.lng;
const lat: JsonSchema = place.lat;
/** An array of fixed length with one schema per position (draft-07 `items` as a list). */
const tuple = (items: JsonSchema[]): JsonSchema => ({
  type: 'array',
  items: items as JsonSchema,
  minItems: items.length,
  maxItems: items.length,
});
const groupCounts = (description: string): JsonSchema => ({ type: 'array', description, items: count, minItems: 5, maxItems: 5 });

/** GET /stats/geo: the map's markers, bounded (docs/performance.md). The whole map (no bounds)
 * also carries the counts and the average position; a view carries its markers only. */
export const geoSchema = object(
  {
    counts: groupCounts('Markers per group: open jobs, then providers of sp_type 1-4.'),
    center: { ...nullable(object({ ...place })), description: 'Average position of the markers; null without any.' },
    points: {
      type: 'array',
      description:
        "Every marker of the view as [id, lng, lat, group] (group 0 an open job, 1-4 a provider's sp_type), when they are few enough.",
      items: tuple([text, lng, lat, { type: 'integer', minimum: 0, maximum: 4 }]),
    },
    clusters: {
      type: 'array',
      description: 'Otherwise the markers per grid cell of the zoom: [lng, lat, then counts per group as in `counts`].',
      items: tuple([lng, lat, count, count, count, count, count]),
    },
  },
  [],
);

const coordinate = (limit: number) => number(-limit, limit);
const geoView = typedObject({
  zoom: number(0, 24),
  west: coordinate(180),
  south: coordinate(90),
  east: coordinate(180),
  north: coordinate(90),
});
/** The view of GET /stats/geo: a zoom, and the bounds all four or none (the whole map). */
export const geoQuerySchema: typeof geoView = {
  ...geoView,
  dependencies: { west: ['south', 'east', 'north', 'zoom'], south: ['west'], east: ['west'], north: ['west'] },
};

export const pendingsSchema: JsonSchema = {
  type: 'array',
  description: 'One element: services waiting for verification and rejected services.',
  items: object({ Pending: count, Rejected: count }),
};

export { KPI_NAMES, type Kpis };

const kpiFigures: Record<string, JsonSchema> = Object.fromEntries(KPI_NAMES.map((name) => [name, count]));
export const kpisSchema = object(kpiFigures, alwaysThere(kpiFigures));

/** Filters of the reports calls; null or absent means "all". Dates are inclusive days. */
export const crossFilterSchema = typedObject({
  territory: nullableItemId,
  category: nullableItemId,
  dateFrom: nullableDate,
  dateTo: nullableDate,
});
export type StatsFilter = SchemaValue<typeof crossFilterSchema>;

export const kpiQuerySchema = typedObject({ territory: nullableItemId, dateFrom: nullableDate, dateTo: nullableDate });

export const byterParamsSchema = typedObject({ x: oneOf('string', BYTER_ENTITIES) }, ['x']);

const COUNTED_ENTITIES = Object.keys(COUNTED_FIELDS) as CountedEntity[];
/** Any field some entity is counted by; the handler checks it is one of `x`'s. */
const COUNTED_FIELD_NAMES = [...new Set(Object.values(COUNTED_FIELDS).flat())];
export const countedParamsSchema = typedObject({ x: oneOf('string', COUNTED_ENTITIES), field: oneOf('string', COUNTED_FIELD_NAMES) }, [
  'x',
  'field',
]);

/** `[{id, count}]` of /stats/by/{x}/{field}: a lookup item id, a provider type, or the code of
 * an enumerated field (sex 'F'/'M', a referral status). */
export const keyCountsSchema = (description: string): JsonSchema =>
  countsOf({ id: { type: ['integer', 'string'], maxLength: 100 } }, description);
