// Client profiles: registration numbers (spec §5), basic service data, and profile images.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { profile, profileImage } from '../../../schemas/index';
import { isRegistrationNumber } from '../../../schemas/ids';
import { textSchema } from '../../../schemas/derive/json-schema';
import type { Db, Queryable } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { putImage } from '../../lib/images';
import { getRowOr404, reading, updateRow, upsertRow, writing } from '../../lib/records';
import { DOCUMENT_TYPES, readMultipart } from '../../lib/uploads';
import type { EntityHooks } from './routes';

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
    const file = files.find((f) => f.field === 'file');
    if (!file) throw new HttpError(400, 'validation.required', { field: 'file' });
    const kind = fields.img_for;
    if (!IMAGE_KINDS.includes(kind)) throw new HttpError(400, 'validation.enum', { field: 'img_for', values: IMAGE_KINDS.join(', ') });
    return db.transaction(async (tx) => {
      await getRowOr404(tx, profile, id, writing(request.user));
      const values = { prof_Id: id, img_for: kind, name: file.fileName.slice(0, 255), type: file.mime, size: file.data.length };
      const { row } = await upsertRow(tx, profileImage, values, request.user.userId, writing(request.user));
      // Stored under its kind: GET /imgs/getfile?id={prof_Id}&filename={img_for} serves it.
      await putImage(tx, { table: profileImage.table, id }, kind, file, request.user.userId, kind);
      return row;
    });
  });

  app.get('/api/profile/images/:id', { config: read }, async (request) => {
    const { id } = request.params as { id: string };
    await getRowOr404(db, profile, id, reading(request.user));
    return db.query(
      `SELECT "prof_Id", "img_for", "name", "type", "size", "updatedAt" FROM "tbl_profiles_images" WHERE "prof_Id" = $1 ORDER BY "img_for"`,
      [id],
    );
  });

}
