// A client's data handed over or erased (ADR-0036), by role 1 or, for its own organisation's
// clients, role 7 (schemas/scope.ts auditScope):
// - GET /api/audit/clients?q=: the clients one may hand over or erase (the data requests screen);
// - GET /api/profile/{id}/export: everything held about the client as one ZIP, a readable JSON
//   (profile, sub-records, referrals, history) and the photo, documents and attachments;
// - POST /api/profile/{id}/erase {reasonCode, note?, password}: personal fields, sub-records,
//   files and the client's values in the audit log are gone; the row stays, blanked, so referrals
//   still count in the statistics, and devices drop the client at their next pull (sync/feed.ts).
//   The log keeps that the erasure happened, by whom and why (the reason's code and the note,
//   refused when it holds any of the client's values: ./erasureNote.ts). The tables touched are
//   vacuumed after the commit, so no old row version keeps the client's values.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityShape, Field } from '../../../schemas/define';
import { serverFields } from '../../../schemas/define';
import { object, oneOf, text } from '../../../schemas/derive/typed';
import { ERASE_NOTE_MAX, ERASE_REASONS } from '../../../schemas/erasure';
import { ident } from '../../../schemas/derive/sql';
import { job, profile, profileImage, referral, serverEntities, service } from '../../../schemas/index';
import { auditScope, isPrivate } from '../../../schemas/scope';
import { openDb, type Db, type Queryable, type Row } from '../../db/index';
import { fieldError, HttpError } from '../../lib/errors';
import { requestLang, translate } from '../../lib/messages';
import { Conditions, scopeSql, selectList } from '../../lib/records';
import { typed } from '../../lib/typeProvider';
import { zip, type ZipEntry } from '../../lib/zip';
import { fileAnswer } from '../records/images';
import { confirmPassword, idParams } from '../records/routes';
import { noteClash } from './erasureNote';
import { writeAudit } from './entries';
import { AUDIT_TABLE, AUDIT_VALUES_TABLE } from './triggers';

/** The records of a client, each with the field holding the client's key. */
const CLIENT_RECORDS: readonly EntityShape[] = serverEntities.filter((e) => isPrivate(e) && e.parent?.entity === profile.name);
/** A client's one-to-one records (skills, social…): their key is the client's, all else is personal. */
const isSubRecord = (e: EntityShape) => e.keyFields.length === 1 && e.keyFields[0] === e.parent?.field;

const searchQuery = object({ q: text(100) });

/** Why a client is erased: a code from the list and an optional note, and the password again. */
const eraseBody = object({ reasonCode: oneOf('string', ERASE_REASONS), note: text(ERASE_NOTE_MAX), password: text(200, 1) }, [
  'reasonCode',
  'password',
]);

/** GET /audit/clients: at most 20 clients, newest first. */
const clientsAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['rows'],
  properties: {
    rows: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          profId: { type: 'string' },
          regNo: { type: 'string' },
          name: { type: 'string' },
          location: { type: ['integer', 'null'] },
        },
      },
    },
  },
};

const erasedAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['result', 'id'],
  properties: { result: { type: 'string', enum: ['erased'] }, id: { type: 'string' } },
};

/** The client `id` as the hand-over scope lets the user see it (404 otherwise, or once erased). */
async function handedClient(db: Queryable, request: FastifyRequest, id: string, lock = false): Promise<Row> {
  const where = new Conditions();
  where.add(`"prof_Id" = ${where.param(id)}`).add('"erasedAt" IS NULL');
  const scope = scopeSql(profile, auditScope(request.user), where);
  if (scope) where.add(scope);
  const [row] = await db.query(
    `SELECT ${selectList(profile)} FROM ${ident(profile.table)} ${where.sql}${lock ? ' FOR UPDATE' : ''}`,
    where.params,
  );
  if (!row) throw new HttpError(404, 'http.recordNotFound');
  return row;
}

// ---------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------

const safeName = (name: string) => name.replace(/[^\w.\- ]+/g, '_').slice(-120) || 'file';

/** The client's records of `e`, deleted ones left out (a removed photo is not held any more). */
async function recordsOf(db: Queryable, e: EntityShape, id: string): Promise<Row[]> {
  const live = e.softDelete ? ' AND NOT "deleted"' : '';
  return db.query(
    `SELECT ${selectList(e)} FROM ${ident(e.table)} WHERE ${ident(e.parent?.field as string)} = $1${live} ORDER BY "createdAt"`,
    [id],
  );
}

async function clientArchive(db: Queryable, request: FastifyRequest, client: Row): Promise<Buffer> {
  const id = String(client.prof_Id);
  const files: ZipEntry[] = [];
  const records: Record<string, Row | Row[] | null> = {};
  for (const e of CLIENT_RECORDS) {
    const rows = await recordsOf(db, e, id);
    records[e.name] = isSubRecord(e) ? (rows[0] ?? null) : rows;
  }
  // What a referral points at, by name, so that the file reads without the database.
  for (const row of (records[referral.name] as Row[]) ?? []) {
    const [target] = await db.query<{ name: string }>(`SELECT "name" FROM ${ident(service.table)} WHERE "sp_Detail_Id" = $1`, [
      row.sp_Detail_Id,
    ]);
    row.serviceName = target?.name ?? null;
  }
  for (const row of (records.jobReferral as Row[]) ?? []) {
    const [target] = await db.query<{ title: string }>(`SELECT "title" FROM ${ident(job.table)} WHERE "jb_Id" = $1`, [row.jb_Id]);
    row.jobTitle = target?.title ?? null;
  }
  const referralIds = ((records[referral.name] as Row[]) ?? []).map((r) => String(r.ref_Id));
  const stored = await db.query<{ ownerTable: string; ownerId: string; slot: string; name: string; data: Uint8Array }>(
    `SELECT "ownerTable", "ownerId", "slot", "name", "data" FROM "images"
     WHERE ("ownerTable" = $1 AND "ownerId" = $2) OR ("ownerTable" = $3 AND "ownerId" = ANY($4::text[])) ORDER BY "ownerTable", "ownerId", "slot"`,
    [profileImage.table, id, referral.table, referralIds],
  );
  const documents = stored.map((file) => {
    const path =
      file.ownerTable === referral.table
        ? `attachments/${file.ownerId}/${safeName(file.name)}`
        : `documents/${file.slot}-${safeName(file.name)}`;
    files.push({ name: path, data: Buffer.from(file.data) });
    return {
      record: file.ownerTable === referral.table ? 'referral' : 'profileImage',
      recordId: file.ownerId,
      slot: file.slot,
      name: file.name,
      file: path,
    };
  });
  const history = await db.query(
    `SELECT a."at", a."deviceAt", a."userName", a."role", a."action", a."entity", a."recordId", a."fields",
       coalesce(a."changes", v."changes") AS "changes", coalesce(a."note", v."note") AS "note"
     FROM "${AUDIT_TABLE}" a LEFT JOIN "${AUDIT_VALUES_TABLE}" v ON v."entryId" = a."id"
     WHERE a."clientId" = $1 OR (a."entity" = $2 AND a."recordId" = $1) ORDER BY a."id"`,
    [id, profile.name],
  );
  const about = {
    exportedAt: new Date().toISOString(),
    exportedBy: request.user.userName,
    client,
    records,
    documents,
    history,
  };
  return zip([{ name: 'client.json', data: `${JSON.stringify(about, null, 2)}\n` }, ...files]);
}

// ---------------------------------------------------------------------------------------------
// Erasure
// ---------------------------------------------------------------------------------------------

/** What a blanked field holds: nothing, or for a required one a neutral stand-in (a unique one
 * for a unique field, so that the registration number is gone and the column stays unique). */
function blank(field: Field): unknown {
  if (!field.required) return null;
  if (field.kind === 'string') {
    if (field.unique)
      return `ERASED${Buffer.from(crypto.getRandomValues(new Uint8Array(6)))
        .toString('hex')
        .toUpperCase()}`.slice(0, field.maxLength);
    return '-'.repeat(Math.max(1, field.minLength ?? 1));
  }
  if (field.kind === 'boolean') return false;
  throw new Error(`no blank value for a required ${field.kind} field`);
}

/** The columns an erasure blanks in `e`: its personal fields (every field of a sub-record). */
function blankedFields(e: EntityShape): [string, Field][] {
  return serverFields(e).filter(
    ([name, field]) =>
      !e.keyFields.includes(name) && name !== e.parent?.field && (field.personal || (isSubRecord(e) && !field.readOnly && !field.hidden)),
  );
}

/** The text values of the client's records (address, sub-records, referrals) a note may not hold. */
async function clientTexts(db: Queryable, client: Row): Promise<string[]> {
  const texts = serverFields(profile)
    .filter(([, field]) => field.personal && field.kind === 'string')
    .map(([name]) => client[name]);
  for (const e of CLIENT_RECORDS) {
    const columns = blankedFields(e).filter(([, field]) => field.kind === 'string' && !('format' in field && field.format));
    if (!columns.length) continue;
    const rows = await db.query(
      `SELECT ${columns.map(([name]) => ident(name)).join(', ')} FROM ${ident(e.table)} WHERE ${ident(e.parent?.field as string)} = $1`,
      [client.prof_Id],
    );
    for (const row of rows) texts.push(...Object.values(row));
  }
  return texts.filter((value): value is string => typeof value === 'string' && value.trim().length >= 4);
}

/** The note, refused (400 erase.noteHasClientValue, naming what it holds) when it holds any of
 * the client's values: the log keeps it for good. */
async function checkedNote(db: Queryable, request: FastifyRequest, client: Row, note: string | undefined): Promise<string> {
  const kept = note?.trim() ?? '';
  if (!kept) return '';
  const clash = noteClash(kept, client, await clientTexts(db, client));
  if (clash)
    throw fieldError(request, 'note', 'erase.noteHasClientValue', { what: translate(requestLang(request), `erase.value.${clash}`) });
  return kept;
}

const NOW = "date_trunc('milliseconds', now())";

async function blankRows(tx: Queryable, e: EntityShape, id: string, userId: string, extra: string[] = []): Promise<void> {
  const params: unknown[] = [id, userId];
  const sets = blankedFields(e).map(([name, field]) => `${ident(name)} = $${params.push(blank(field))}`);
  const keyColumn = e === profile ? 'prof_Id' : (e.parent?.field as string);
  await tx.query(
    `UPDATE ${ident(e.table)} SET ${[...sets, ...extra, `"updatedAt" = ${NOW}`, '"updatedBy" = $2'].join(', ')} WHERE ${ident(keyColumn)} = $1`,
    params,
  );
}

async function eraseClient(tx: Queryable, client: Row, reason: string, userId: string): Promise<void> {
  const id = String(client.prof_Id);
  // This transaction's changes of the client are its erasure (the audit entries say so, with the
  // reason and no value); marking the profile erased scrubs its values from the log (./triggers.ts).
  await tx.query('SELECT icrs_audit_erase($1, $2)', [id, reason]);
  await blankRows(tx, profile, id, userId, ['"erasedAt" = now()']);
  for (const e of CLIENT_RECORDS) {
    const extra: string[] = [];
    if (e.fields.history) extra.push(`"history" = (SELECT jsonb_agg(h - 'feedback') FROM jsonb_array_elements("history") h)`);
    if (e.fields.attachments) extra.push('"attachments" = NULL');
    if (e.softDelete)
      extra.push(
        '"deleted" = true',
        `"deletedAt" = coalesce("deletedAt", now())`,
        '"deletedBy" = coalesce("deletedBy", $2)',
        '"deleteReason" = NULL',
      );
    if (e === profileImage) extra.push('"name" = "img_for"');
    await blankRows(tx, e, id, userId, extra);
  }
  await tx.query(
    `DELETE FROM "images" WHERE ("ownerTable" = $1 AND "ownerId" = $2)
       OR ("ownerTable" = $3 AND "ownerId" IN (SELECT "ref_Id" FROM ${ident(referral.table)} WHERE "prof_Id" = $2))`,
    [profileImage.table, id, referral.table],
  );
}

export default async function handoverPlugin(instance: FastifyInstance, { db, ownerUrl }: { db: Db; ownerUrl?: string }) {
  const app = typed(instance);
  const handover = { permission: 'clients.handover' } as const;

  app.get(
    '/api/audit/clients',
    { schema: { querystring: searchQuery, response: { 200: clientsAnswer } }, config: handover },
    async (request) => {
      const q = request.query.q?.trim() ?? '';
      const where = new Conditions().add('"erasedAt" IS NULL');
      const scope = scopeSql(profile, auditScope(request.user), where);
      if (scope) where.add(scope);
      if (q) {
        const pattern = where.param(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where.add(
          `("prof_Reg_No" ILIKE ${pattern} OR "firstName" ILIKE ${pattern} OR "lastName" ILIKE ${pattern} OR "phone" ILIKE ${pattern})`,
        );
      }
      const rows = await db.query(
        `SELECT "prof_Id" AS "profId", "prof_Reg_No" AS "regNo", trim(coalesce("firstName", '') || ' ' || coalesce("lastName", '')) AS "name", "location"
       FROM ${ident(profile.table)} ${where.sql} ORDER BY "createdAt" DESC LIMIT 20`,
        where.params,
      );
      return { rows };
    },
  );

  const zipAnswer = fileAnswer(['application/zip'], "The client's data: a readable JSON and the photo, documents and attachments");
  app.get('/api/profile/:id/export', { schema: { params: idParams, response: zipAnswer }, config: handover }, async (request, reply) => {
    const { id } = request.params;
    const archive = await db.transaction(async (tx) => {
      const client = await handedClient(tx, request, id);
      const made = await clientArchive(tx, request, client);
      await writeAudit(tx, { action: 'export', entity: profile.name, recordId: id, location: (client.location as number | null) ?? null });
      return { made, regNo: String(client.prof_Reg_No) };
    });
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="client-${archive.regNo}.zip"`)
      .send(archive.made);
  });

  app.post(
    '/api/profile/:id/erase',
    { schema: { params: idParams, body: eraseBody, response: { 200: erasedAnswer } }, config: handover },
    async (request) => {
      const { id } = request.params;
      const { reasonCode, note, password } = request.body;
      // As a delete: the password again (throttled like sign-in); a wrong one erases nothing.
      await confirmPassword(app, db, request, password);
      await db.transaction(async (tx) => {
        const client = await handedClient(tx, request, id, true);
        // The log keeps the code and the note: "consentWithdrawn: asked by letter".
        const kept = await checkedNote(tx, request, client, note);
        await eraseClient(tx, client, kept ? `${reasonCode}: ${kept}` : reasonCode, request.user.userId);
      });
      await vacuumErased(db, ownerUrl, request);
      return { result: 'erased', id };
    },
  );
}

/** Every table an erasure writes: the client's, its records', the files' and the log's. */
const ERASED_TABLES = [profile, ...CLIENT_RECORDS].map((e) => e.table).concat(['images', AUDIT_TABLE, AUDIT_VALUES_TABLE]);

/**
 * VACUUM of the tables the erasure touched, right after its commit (outside any transaction, as
 * VACUUM must be): the old versions of the client's rows, which still hold its values, are
 * removed from the tables, so that a copy of the database files taken afterwards (PGlite's data
 * folder, a file-level backup) holds no value of the client (docs/security.md "What an erasure
 * does"; what remains on PostgreSQL is said there). A failure is logged and the answer stays a
 * success: the erasure itself has committed, and the next VACUUM (autovacuum on PostgreSQL)
 * removes the old versions as well.
 */
async function vacuumErased(db: Db, ownerUrl: string | undefined, request: FastifyRequest): Promise<void> {
  // One statement, outside a transaction (the pool's own connection on PostgreSQL). INDEX_CLEANUP
  // ON: a VACUUM that finds dead rows on few of a large table's pages skips the indexes, whose
  // entries would keep the client's values (a name, a registration number) until a later one.
  const sql = `VACUUM (INDEX_CLEANUP ON) ${ERASED_TABLES.map((table) => ident(table)).join(', ')}`;
  try {
    if (db.kind === 'postgres' && ownerUrl) {
      // Only a table's owner may vacuum it (PostgreSQL 15; the app's role would be skipped with a
      // warning): the owner role's connection (DATABASE_OWNER_URL, server/db/roles.ts), for this
      // statement only. Erasures are rare: a connection of its own costs nothing that matters.
      const owner = await openDb({ databaseUrl: ownerUrl, dataDir: '' });
      try {
        await owner.query(sql);
      } finally {
        await owner.close();
      }
    } else {
      await db.query(sql);
    }
  } catch (error) {
    request.log.error({ err: error }, 'erase: VACUUM after the erasure failed');
  }
}
