// Client profiles: registration numbers (product.md §5), basic service data, and profile images.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { profile, profileImage } from '../../../schemas/index';
import { isRegistrationNumber } from '../../../schemas/ids';
import { inputSchema, rowSchema } from '../../../schemas/derive/json-schema';
import { fieldValue, object, oneOf, orNull, text } from '../../../schemas/derive/typed';
import type { Db, Queryable, Row } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { deleteImages, putImage } from '../../lib/images';
import { getRowOr404, reading, updateRow, upsertRow, writing } from '../../lib/records';
import { joinCreatorsCaseload } from '../../lib/records/caseload';
import { findDuplicates } from './duplicates';
import { DOCUMENT_TYPES, readMultipart, type UploadedFile } from '../../lib/uploads';
import type { RecordInput } from './body';
import { idParams, type EntityHooks, type EntityWriter, type WriterStore } from './routes';
import { typed } from '../../lib/typeProvider';

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
    const taken = await tx.query('SELECT 1 FROM "tbl_profiles" WHERE "prof_Reg_No" = $1 AND "prof_Id" <> $2', [
      values.prof_Reg_No,
      values.prof_Id,
    ]);
    if (taken.length) throw new HttpError(409, 'profile.regNoTaken');
  },
  async afterCreate(row, request: FastifyRequest, tx) {
    await joinCreatorsCaseload(tx, request.user, String(row.prof_Id));
  },
};

const basicSpBody = object({ prof_Id: text(64, 1), BspData: fieldValue(profile.fields.BspData, profile.fields.BspData.schema) }, [
  'prof_Id',
  'BspData',
]);

const IMAGE_KINDS = profileImage.fields.img_for.values;

const removeImageBody = object({ img_for: oneOf('string', IMAGE_KINDS) }, ['img_for']);

/** The fields of a new client the duplicate search compares (all optional: it answers what it can). */
const duplicatesBody = object({
  firstName: orNull(fieldValue(profile.fields.firstName)),
  lastName: orNull(fieldValue(profile.fields.lastName)),
  birthDate: orNull(fieldValue(profile.fields.birthDate)),
  phone: orNull(text(24)),
  /** The client being edited, left out of its own duplicates. */
  exclude: orNull(fieldValue(profile.fields.prof_Id)),
});

/** A profile image's row as PUT /profile/images/{id} answers it. */
const imageRow = rowSchema(profileImage);

/** GET /profile/images/{id}: the client's images and documents, without their bytes. */
const imageList = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      ['prof_Id', 'img_for', 'name', 'type', 'size', 'updatedAt'].map((name) => [name, imageRow.properties?.[name] ?? {}]),
    ),
  },
};

/** POST /profile/images/delete/{id}: whether there was an image of that kind. */
const removedAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['result', 'prof_Id', 'img_for'],
  properties: { result: { type: 'string', enum: ['removed', 'absent'] }, prof_Id: { type: 'string' }, img_for: { type: 'string' } },
};

/** POST /profile/duplicates: possible duplicates, newest first (schemas/duplicates.ts Duplicate). */
const duplicatesAnswer = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['prof_Id', 'prof_Reg_No', 'firstName', 'lastName', 'match'],
    properties: {
      prof_Id: { type: 'string' },
      prof_Reg_No: { type: 'string' },
      firstName: { type: 'string' },
      lastName: { type: 'string' },
      birthDate: { type: ['string', 'null'] },
      phone: { type: ['string', 'null'] },
      match: { type: 'array', items: { type: 'string', enum: ['name', 'phone'] } },
    },
  },
};

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
  // An erased client: 410 http.clientErased (lib/records/rows.ts missingRecord).
  await getRowOr404(tx, profile, id, writing(request.user), true);
  // A kind removed before and given again comes back (deleted columns reset).
  const values = {
    prof_Id: id,
    img_for: kind,
    name: file.fileName.slice(0, 255),
    type: file.mime,
    size: file.data.length,
    deleted: false,
    deleteReason: null,
    deletedBy: null,
    deletedAt: null,
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

export default async function profilesPlugin(instance: FastifyInstance, { db }: { db: Db }) {
  const app = typed(instance);
  const write = { permission: profile.access.write };
  const read = { permission: profile.access.read };

  app.post(
    '/api/profile/basicSp',
    { schema: { body: basicSpBody, response: { 200: rowSchema(profile) } }, config: write },
    async (request) => {
      const { prof_Id, BspData } = request.body;
      return updateRow(db, profile, prof_Id, { BspData }, request.user.userId, undefined, writing(request.user));
    },
  );

  // One image per kind (photo, idDocument, consentForm); multipart field `file` and `img_for`.
  app.put('/api/profile/images/:id', { schema: { params: idParams, response: { 200: imageRow } }, config: write }, async (request) => {
    const { id } = request.params;
    if (!request.isMultipart()) throw new HttpError(415, 'http.mediaType');
    const { fields, files } = await readMultipart(request, DOCUMENT_TYPES);
    const file = files.find((f) => f.field === PROFILE_IMAGE_PART);
    if (!file) throw new HttpError(400, 'validation.required', { field: PROFILE_IMAGE_PART });
    const kind = fields.img_for;
    if (!(IMAGE_KINDS as readonly string[]).includes(kind))
      throw new HttpError(400, 'validation.enum', { field: 'img_for', values: IMAGE_KINDS.join(', ') });
    return db.transaction((tx) => storeProfileImage(tx, request, id, kind, file));
  });

  app.get('/api/profile/images/:id', { schema: { params: idParams, response: { 200: imageList } }, config: read }, async (request) => {
    const { id } = request.params;
    await getRowOr404(db, profile, id, reading(request.user));
    return db.query(
      `SELECT "prof_Id", "img_for", "name", "type", "size", "updatedAt" FROM "tbl_profiles_images" WHERE "prof_Id" = $1 AND NOT "deleted" ORDER BY "img_for"`,
      [id],
    );
  });

  // Removes a photo or document (ADR-0028): the row is marked deleted (so devices forget it at
  // their next pull) and the bytes are deleted. Repeating it is harmless (a lost answer).
  app.post(
    '/api/profile/images/delete/:id',
    { schema: { params: idParams, body: removeImageBody, response: { 200: removedAnswer } }, config: write },
    async (request) => {
      const { id } = request.params;
      const kind = request.body.img_for;
      const removed = await db.transaction(async (tx) => {
        await getRowOr404(tx, profile, id, writing(request.user), true);
        return removeProfileImage(tx, id, kind, request.user.userId);
      });
      return { result: removed ? 'removed' : 'absent', prof_Id: id, img_for: kind };
    },
  );

  // Possible duplicates of a client being registered (ADR-0028), among the clients the user may read.
  app.post('/api/profile/duplicates', { schema: { body: duplicatesBody, response: { 200: duplicatesAnswer } }, config: read }, (request) =>
    findDuplicates(db, request.body, reading(request.user)),
  );
}
