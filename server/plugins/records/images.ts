// Serving stored images and files, only to users who may read the record they belong to.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can } from '../../../schemas/roles';
import { object, text } from '../../../schemas/derive/typed';
import { getEntityByTable, job, profileImage, referral, service, serviceProvider } from '../../../schemas/index';
import type { Db } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { findImage } from '../../lib/images';
import { getRow, reading } from '../../lib/records';
import { typed } from '../../lib/typeProvider';
import { DOCUMENT_TYPES } from '../../lib/uploads';
import { isPrivate } from '../../../schemas/scope';
import { writeAudit } from '../audit/entries';
import { clientLocation } from '../audit/clients';

/** The record's key and the stored file's name. */
const imageQuery = object({ id: text(100, 1), imagename: text(255, 1) }, ['id', 'imagename'], { open: true });
/** Profile images and documents: the client's key and the kind (photo, idDocument, consentForm). */
const fileQuery = object({ id: text(100, 1), filename: text(255, 1) }, ['id', 'filename'], { open: true });

/** The bytes, in the type they were stored with (the images and documents accepted: lib/uploads.ts). */
export const fileAnswer = (types: readonly string[], description: string) => ({
  200: { description, content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) },
});
const answer = fileAnswer(DOCUMENT_TYPES, 'The stored file');

async function serve(db: Db, request: FastifyRequest, reply: FastifyReply, tables: readonly string[], id: string, name: string) {
  const readable = tables.filter((table) => can(request.user.role, getEntityByTable(table)?.access.read ?? ''));
  if (!readable.length) throw new HttpError(403, 'auth.forbidden');
  const image = await findImage(db, readable, id, name);
  const owner = image && getEntityByTable(image.ownerTable);
  if (!image || !owner) throw new HttpError(404, 'http.recordNotFound');
  // A soft-deleted record's images go with it, another organisation's client files do not
  // exist, and an image slot serves only the file its record names now (a removed or replaced
  // image is not served even if its bytes were left behind).
  const ownerKey = owner === profileImage ? [id, image.slot] : id;
  const record = await getRow(db, owner, ownerKey, reading(request.user));
  if (!record) throw new HttpError(404, 'http.recordNotFound');
  if (owner.fields[image.slot]?.kind === 'image' && record[image.slot] !== image.name) throw new HttpError(404, 'http.recordNotFound');
  // A client's photo, document or referral attachment: who took a copy is on the record (ADR-0036).
  // Directory photos (services, jobs) are shown in every list and are not client data.
  if (isPrivate(owner)) {
    await writeAudit(db, {
      action: 'file.download',
      entity: owner.name,
      recordId: owner.keyFields.map((k) => String(record[k])).join('|'),
      clientId: String(record[owner.parent?.field ?? (owner.keyFields[0] as string)]),
      location: await clientLocation(db, owner, record),
      note: image.name,
    });
  }
  // Cache-Control: no-store, as every API answer (server/plugins/securityHeaders.ts): a client's
  // photo or identity document must not stay in the browser's cache after sign-out.
  return reply
    .header('Content-Type', image.mime)
    .header('Content-Disposition', `inline; filename="${image.name.replace(/"/g, '')}"`)
    .send(image.data);
}

export default async function imagesPlugin(instance: FastifyInstance, { db }: { db: Db }) {
  const app = typed(instance);
  // Images of jobs and services (jb_img1..3, sp_img1..3), by the name stored in the record.
  app.get('/api/imgs/getById', { schema: { querystring: imageQuery, response: answer } }, (request, reply) =>
    serve(db, request, reply, [job.table, service.table, serviceProvider.table], request.query.id, request.query.imagename),
  );
  app.get('/api/imgs/getrefimg', { schema: { querystring: imageQuery, response: answer } }, (request, reply) =>
    serve(db, request, reply, [referral.table], request.query.id, request.query.imagename),
  );
  // Profile images and documents: filename is the kind (photo, idDocument, consentForm).
  app.get('/api/imgs/getfile', { schema: { querystring: fileQuery, response: answer } }, (request, reply) =>
    serve(db, request, reply, [profileImage.table], request.query.id, request.query.filename),
  );
}
