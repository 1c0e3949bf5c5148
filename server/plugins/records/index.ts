// Every entity route of product.md §7 except users, lists and stats: the generic routes derived from
// schemas/ plus the few rules that are an entity's own.
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { serverEntities } from '../../../schemas/index';
import type { Db } from '../../db/index';
import { MAX_FILE_BYTES } from '../../lib/uploads';
import imagesPlugin from './images';
import profilesPlugin, { PROFILE_IMAGE_PART, profileHooks, profileImageBody, profileImageWriter } from './profiles';
import referralsPlugin, { jobReferralHooks, referralHooks } from './referrals';
import { entityWriter, registerEntityRoutes, type EntityHooks, type EntityWriter, type WriterStore } from './routes';
import type { EntityShape, JsonSchema } from '../../../schemas/define';
import { createBodySchema, updateBodySchema } from '../../../schemas/derive/json-schema';
import { DOCUMENT_TYPES, IMAGE_TYPES } from '../../lib/uploads';
import servicesPlugin, { providerHooks, serviceHooks } from './services';

/** Entities with routes of their own elsewhere (users, lists) or none (profile images: PUT /profile/images). */
const NOT_GENERIC = new Set(['user', 'list', 'profileImage']);

const HOOKS: Record<string, EntityHooks> = {
  serviceProvider: providerHooks,
  service: serviceHooks,
  profile: profileHooks,
  referral: referralHooks,
  jobReferral: jobReferralHooks,
};

/** Whether `entity` is stored through the generic create and update routes (and so may be pushed in batches). */
export const hasGenericRoutes = (entity: EntityShape) => !NOT_GENERIC.has(entity.name);

const isProfileImage = (entity: EntityShape) => entity.name === 'profileImage';

/** The writer of an entity with its own rules: what the single-record routes store through
 * (profile images: PUT /profile/images/{id}'s). */
export const writerOf = (db: WriterStore, entity: EntityShape): EntityWriter =>
  isProfileImage(entity) ? profileImageWriter(db) : entityWriter(db, entity, HOOKS[entity.name]);

/** How a batch (POST /sync/push/{table}) takes a kind: the body schemas of its single-record
 * calls, and its image parts (slots and types) in a multipart batch. */
export interface PushShape {
  create: JsonSchema;
  update: JsonSchema;
  imageSlots: readonly string[];
  imageTypes: readonly string[];
}

/** The push shape of an offline kind stored through the generic routes or PUT /profile/images;
 * undefined for any other kind (not pushable). */
export function pushShapeOf(entity: EntityShape): PushShape | undefined {
  if (!entity.upload || !entity.server) return undefined;
  if (isProfileImage(entity))
    return { create: profileImageBody, update: profileImageBody, imageSlots: [PROFILE_IMAGE_PART], imageTypes: DOCUMENT_TYPES };
  if (!hasGenericRoutes(entity)) return undefined;
  return { create: createBodySchema(entity), update: updateBodySchema(entity), imageSlots: entity.images, imageTypes: IMAGE_TYPES };
}

export default async function recordsPlugin(app: FastifyInstance, { db }: { db: Db }) {
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES } });
  for (const entity of serverEntities) {
    if (hasGenericRoutes(entity)) registerEntityRoutes(app, db, entity, HOOKS[entity.name]);
  }
  await app.register(servicesPlugin, { db });
  await app.register(profilesPlugin, { db });
  await app.register(referralsPlugin, { db });
  await app.register(imagesPlugin, { db });
}
