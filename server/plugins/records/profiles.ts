// Client profiles: registration numbers (spec §5), basic service data, and profile images.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { profile, profileImage } from '../../../schemas/index';
import { isRegistrationNumber } from '../../../schemas/ids';
import { inputSchema, nullable, textSchema } from '../../../schemas/derive/json-schema';
import type { Db, Queryable, Row } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { deleteImages, putImage } from '../../lib/images';
import { getRowOr404, reading, updateRow, upsertRow, writing } from '../../lib/records';
import type { DuplicateQuery } from '../../../schemas/duplicates';
import { findDuplicates } from './duplicates';
import { DOCUMENT_TYPES, readMultipart, type UploadedFile } from '../../lib/uploads';
import type { RecordInput } from './body';
import type { EntityHooks, EntityWriter, WriterStore } from './routes';

/** The abbreviation of an organisation (lookup list `organisation`), if it has one. */
export async function organisationAbbr(db: Queryable, location: number): Promise<string | undefined> {
  const rows = await db.query<{ abbr: string | null }>(
    `SELECT item->>'abbr' AS abbr FROM "lists", jsonb_array_elements("items") AS item
     WHERE "key" = 'organisation' AND (item->>'id')::int = $1`,
    [location],
  );
  return rows[0]?.abbr ?? undefined;
}

export const profileHooks: EntityHooks = {
  async beforeCreate(values, request: FastifyRequest, tx) {
    const abbr = request.user.location ? await organisationAbbr(tx, request.user.location) : undefined;
    if (!abbr) throw new HttpError(400, 'profile.superAdmin');
    if (!isRegistrationNumber(values.prof_Reg_No, abbr)) throw new HttpError(400, 'profile.badRegNo', { abbr });
    // Same number on another client: a real clash, not the "already uploaded" duplicate entry.
    const taken = await tx.query('SELECT 1 FROM "tbl_profiles" WHERE "prof_Reg_No" = $1 AND "prof_Id" <> $2', [values.prof_Reg_No, values.prof_Id]);
    if (taken.length) throw new HttpError(409, 'profile.regNoTaken');
  },
};

const basicSpBody = {
  type: 'object',
  required: ['prof_Id', 'BspData'],
  additionalProperties: false,
  properties: { prof_Id: textSchema(64, 1), BspData: profile.fields.BspData.schema },
} as const;

const IMAGE_KINDS = profileImage.fields.img_for.values as readonly string[];

const removeImageBody = {
  type: 'object',
  required: ['img_for'],
  additionalProperties: false,
  properties: { img_for: { type: 'string', enum: IMAGE_KINDS } },
} as const;

/** The fields of a new client the duplicate search compares (all optional: it answers what it can). */
const duplicatesBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    firstName: nullable(inputSchema(profile.fields.firstName)),
    lastName: nullable(inputSchema(profile.fields.lastName)),
    birthDate: nullable(inputSchema(profile.fields.birthDate)),
    phone: nullable(textSchema(24)),
    /** The client being edited, left out of its own duplicates. */
    exclude: nullable(inputSchema(profile.fields.prof_Id)),
  },
} as const;

/** Marks the image of `kind` deleted and deletes its bytes; false when there was none. */
async function removeProfileImage(tx: Queryable, id: string, kind: string, userId: string): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE "tbl_profiles_images" SET "deleted" = true, "deletedBy" = $3, "deletedAt" = now(),
       "updatedAt" = date_trunc('milliseconds', now()), "updatedBy" = $3
     WHERE "prof_Id" = $1 AND "img_for" = $2 AND NOT "deleted" RETURNING "img_for"`,
    [id, kind, userId],
  );
  await deleteImages(tx, { table: profileImage.table, id }, [kind]);
  return rows.length > 0;
}

/** The file part of a profile image (PUT /profile/images/{id}, and `{index}.file` in a batch). */
export const PROFILE_IMAGE_PART = 'file';

/** A profile image's fields in a batch (POST /sync/push/tbl_profiles_images): the PUT's path
 * key and its `img_for` field; name, type and size come from the file itself. */
export const profileImageBody = {
  type: 'object',
  required: ['prof_Id', 'img_for'],
  additionalProperties: false,
  properties: { prof_Id: inputSchema(profileImage.fields.prof_Id), img_for: { type: 'string', enum: IMAGE_KINDS } },
} as const;

/** Stores (or replaces) the profile image of `kind`, inside the caller's transaction: the
 * profile must be one the user may write (404 otherwise), as PUT /profile/images/{id}. */
async function storeProfileImage(tx: Queryable, request: FastifyRequest, id: string, kind: string, file: UploadedFile): Promise<Row> {
  await getRowOr404(tx, profile, id, writing(request.user));
  // A kind removed before and given again comes back (deleted columns reset).
  const values = {
    prof_Id: id, img_for: kind, name: file.fileName.slice(0, 255), type: file.mime, size: file.data.length,
    deleted: false, deleteReason: null, deletedBy: null, deletedAt: null,
  };
  const { row } = await upsertRow(tx, profileImage, values, request.user.userId, writing(request.user));
  // Stored under its kind: GET /imgs/getfile?id={prof_Id}&filename={img_for} serves it.
  await putImage(tx, { table: profileImage.table, id }, kind, file, request.user.userId, kind);
  return row;
}

/** Profile images as a batch stores them (server/plugins/sync/push.ts): PUT /profile/images/{id}
 * per record, so a create and an update are the same call (replaced by kind), answered 200. */
export function profileImageWriter(db: WriterStore): EntityWriter {
  const put = async (request: FastifyRequest, id: string, input: RecordInput) => {
    const file = input.files.find((f) => f.field === PROFILE_IMAGE_PART);
    if (!file) throw new HttpError(400, 'validation.required', { field: PROFILE_IMAGE_PART });
    return db.transaction((tx) => storeProfileImage(tx, request, id, String(input.body.img_for), file));
  };
  return {
    create: async (request, input) => ({ row: await put(request, String(input.body.prof_Id), input), status: 200 }),
    update: (request, id, input) => put(request, id, input),
  };
}

export default async function profilesPlugin(app: FastifyInstance, { db }: { db: Db }) {
  const write = { permission: profile.access.write };
  const read = { permission: profile.access.read };

  app.post('/api/profile/basicSp', { schema: { body: basicSpBody }, config: write }, async (request) => {
    const { prof_Id, BspData } = request.body as { prof_Id: string; BspData: unknown };
    return updateRow(db, profile, prof_Id, { BspData }, request.user.userId, undefined, writing(request.user));
  });

  // One image per kind (photo, idDocument, consentForm); multipart field `file` and `img_for`.
  app.put('/api/profile/images/:id', { config: write }, async (request) => {
    const { id } = request.params as { id: string };
    if (!request.isMultipart()) throw new HttpError(415, 'http.mediaType');
    const { fields, files } = await readMultipart(request, DOCUMENT_TYPES);
    const file = files.find((f) => f.field === PROFILE_IMAGE_PART);
    if (!file) throw new HttpError(400, 'validation.required', { field: PROFILE_IMAGE_PART });
    const kind = fields.img_for;
    if (!IMAGE_KINDS.includes(kind)) throw new HttpError(400, 'validation.enum', { field: 'img_for', values: IMAGE_KINDS.join(', ') });
    return db.transaction((tx) => storeProfileImage(tx, request, id, kind, file));
  });

  app.get('/api/profile/images/:id', { config: read }, async (request) => {
    const { id } = request.params as { id: string };
    await getRowOr404(db, profile, id, reading(request.user));
    return db.query(
      `SELECT "prof_Id", "img_for", "name", "type", "size", "updatedAt" FROM "tbl_profiles_images" WHERE "prof_Id" = $1 AND NOT "deleted" ORDER BY "img_for"`,
      [id],
    );
  });

  // Removes a photo or document (issue 11): the row is marked deleted (so devices forget it at
  // their next pull) and the bytes are deleted. Repeating it is harmless (a lost answer).
  app.post('/api/profile/images/delete/:id', { schema: { body: removeImageBody }, config: write }, async (request) => {
    const { id } = request.params as { id: string };
    const kind = (request.body as { img_for: string }).img_for;
    const removed = await db.transaction(async (tx) => {
      await getRowOr404(tx, profile, id, writing(request.user));
      return removeProfileImage(tx, id, kind, request.user.userId);
    });
    return { result: removed ? 'removed' : 'absent', prof_Id: id, img_for: kind };
  });

  // Possible duplicates of a client being registered (issue 11), among the clients the user may read.
  app.post('/api/profile/duplicates', { schema: { body: duplicatesBody }, config: read }, (request) =>
    findDuplicates(db, request.body as DuplicateQuery, reading(request.user)),
  );
}
