// Referral attachments (PUT /referral/images/{id}): files appended to the referral's list.
import type { FastifyInstance } from 'fastify';
import { referral } from '../../../schemas/index';
import type { Db } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { putImage } from '../../lib/images';
import { getRowOr404, updateRow, writing } from '../../lib/records';
import { DOCUMENT_TYPES, readMultipart } from '../../lib/uploads';

const MAX_ATTACHMENTS = 10;

/** A file name safe to serve back and unique within its referral. */
function attachmentName(original: string, taken: ReadonlySet<string>): string {
  const clean = original.replace(/[^\w.\- ]+/g, '_').slice(-120) || 'file';
  let name = clean;
  for (let n = 2; taken.has(name); n++) name = clean.replace(/(\.\w+)?$/, (ext) => `-${n}${ext}`);
  return name;
}

export default async function referralsPlugin(app: FastifyInstance, { db }: { db: Db }) {
  app.put('/api/referral/images/:id', { config: { permission: referral.access.write } }, async (request) => {
    const { id } = request.params as { id: string };
    if (!request.isMultipart()) throw new HttpError(415, 'http.mediaType');
    const { files } = await readMultipart(request, DOCUMENT_TYPES);
    if (!files.length) throw new HttpError(400, 'validation.required', { field: 'file' });
    return db.transaction(async (tx) => {
      const current = await getRowOr404(tx, referral, id, writing(request.user));
      const attachments = [...((current.attachments as { name: string }[] | null) ?? [])];
      if (attachments.length + files.length > MAX_ATTACHMENTS) throw new HttpError(400, 'validation.maximum', { field: 'attachments', limit: MAX_ATTACHMENTS });
      const taken = new Set(attachments.map((a) => a.name));
      for (const file of files) {
        const name = attachmentName(file.fileName, taken);
        taken.add(name);
        await putImage(tx, { table: referral.table, id }, `att:${name}`, file, request.user.userId, name);
        attachments.push({ name, type: file.mime, size: file.data.length, uploadedAt: new Date().toISOString() } as { name: string });
      }
      // `attachments` is server-owned (read-only in bodies), so it is written here, not through PUT /referral/{id}.
      return updateRow(tx, referral, id, { attachments }, request.user.userId, undefined, writing(request.user));
    });
  });
}
