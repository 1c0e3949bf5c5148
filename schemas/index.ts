// The registry of every entity (product.md §D3). Derivations live in ./derive; this module
// only lists and indexes the declarations, so importing it costs nothing at run time.

import type { EntityShape } from './define.ts';
import { file } from './entities/files.ts';
import { job, otherJob } from './entities/jobs.ts';
import { business, profile, profileImage, security, skills, social } from './entities/profiles.ts';
import { apprenticeship, service, serviceProvider, vocational } from './entities/providers.ts';
import { jobReferral, referral } from './entities/referrals.ts';
import { list, user } from './entities/users.ts';

export * from './define.ts';
export { MAX_IMAGE_BYTES, PUSH_LIMITS, IMAGE_TYPES, FILE_TYPES } from './entities/common.ts';
export type { LookupItem } from './entities/users.ts';
export { SERVICE_STATUS, type ServiceStatusValue } from './entities/providers.ts';
export type { BspData } from './entities/profiles.ts';
export type { Attachment, StatusChange, StatusFlow, ReferralStatus, JobReferralStatus } from './entities/referrals.ts';
// Referral statuses and the list views (not tables, so not in `entities`).
export {
  REFERRAL_STATUSES,
  JOB_REFERRAL_STATUSES,
  REFERRAL_FLOW,
  JOB_REFERRAL_FLOW,
  HISTORY_MAX,
  nextStatuses,
  isFinalStatus,
  isOpenStatus,
  referralView,
  jobReferralView,
} from './entities/referrals.ts';
export type { RowOf, CreateBodyOf, UpdateBodyOf, DocOf, SyncFields, ValueOf } from './derive/types.ts';
export { listParams, type FilterValue, type ListQuery, type ListParams, type ListRequest } from './listQuery.ts';
export {
  user,
  list,
  serviceProvider,
  service,
  apprenticeship,
  vocational,
  job,
  otherJob,
  profile,
  skills,
  social,
  security,
  business,
  profileImage,
  referral,
  jobReferral,
  file,
};

/** Every entity, parents before children (the order tables are created in). */
export const entities = [
  user,
  list,
  serviceProvider,
  service,
  apprenticeship,
  vocational,
  job,
  otherJob,
  profile,
  skills,
  social,
  security,
  business,
  profileImage,
  referral,
  jobReferral,
  file,
] as const;

export type AnyEntity = (typeof entities)[number];
export type EntityName = AnyEntity['name'];

export const entityByName = Object.fromEntries(entities.map((e) => [e.name, e])) as {
  readonly [E in AnyEntity as E['name']]: E;
};

/** The entity named `name`, for code that receives names at run time (URLs, sync tables). */
export function getEntity(name: string): EntityShape | undefined {
  return (entityByName as Readonly<Record<string, EntityShape>>)[name];
}

/** The entity stored in `table` (a product.md §3 table or collection name). */
export function getEntityByTable(table: string): EntityShape | undefined {
  return (entities as readonly EntityShape[]).find((e) => e.table === table);
}

/** Entities with a server table, parents before children. */
export const serverEntities: readonly EntityShape[] = entities.filter((e) => e.server);

/** Offline upload order (product.md §4): jobs, other jobs, providers, services, apprenticeships,
 * vocational; then profiles, skills, social, security, business; profile images last. */
export const uploadOrder: readonly EntityShape[] = (entities as readonly EntityShape[])
  .filter((e) => e.upload)
  .sort((a, b) => (a.upload?.order ?? 0) - (b.upload?.order ?? 0));

/** The 13 RxDB collections of icrs_db (product.md §3 "Local offline store"). */
export const offlineCollections: readonly string[] = entities.filter((e) => e.offline).map((e) => e.table);
