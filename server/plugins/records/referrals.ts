// Referrals (ADR-0029): statuses that only move forward with the history of who changed them
// when, the list views with the client and the service or job (POST /referral/search,
// /jobreferral/search), and attachments (PUT /referral/images/{id}).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { pageSchema, rowSchema } from '../../../schemas/derive/json-schema';
import { listQuery } from '../../../schemas/derive/typed';
import type { ListRequest } from '../../../schemas/listQuery';
import {
  HISTORY_MAX,
  JOB_REFERRAL_FLOW,
  REFERRAL_FLOW,
  isOpenStatus,
  jobReferral,
  jobReferralView,
  nextStatuses,
  profile,
  referral,
  referralView,
  type StatusChange,
  type StatusFlow,
} from '../../../schemas/index';
import { recordScope } from '../../../schemas/scope';
import type { Db, Queryable } from '../../db/index';
import { fieldError, HttpError } from '../../lib/errors';
import { putImage } from '../../lib/images';
import { addLive, boundedCount, Conditions, getRowOr404, scopeSql, updateRow, writing, type Values } from '../../lib/records';
import { typed } from '../../lib/typeProvider';
import { DOCUMENT_TYPES, readMultipart } from '../../lib/uploads';
import { idParams, type EntityHooks } from './routes';

const MAX_ATTACHMENTS = 10;

/** A file name safe to serve back and unique within its referral. */
function attachmentName(original: string, taken: ReadonlySet<string>): string {
  const clean = original.replace(/[^\w.\- ]+/g, '_').slice(-120) || 'file';
  let name = clean;
  for (let n = 2; taken.has(name); n++) name = clean.replace(/(\.\w+)?$/, (ext) => `-${n}${ext}`);
  return name;
}

// ---------------------------------------------------------------------------------------------
// Statuses and history
// ---------------------------------------------------------------------------------------------

function statusChange(request: FastifyRequest, status: string, date: unknown, feedback: unknown): StatusChange {
  const user = request.user;
  return {
    status,
    date: typeof date === 'string' ? date : null,
    feedback: typeof feedback === 'string' && feedback ? feedback : null,
    by: user.userId,
    byName: user.fullName || user.userName,
    at: new Date().toISOString(),
  };
}

/** A date of the referral's follow-up (a status change, the follow-up) cannot come before the
 * day the client was referred. */
function assertNotBefore(request: FastifyRequest, values: Values, referred: unknown) {
  if (typeof referred !== 'string') return;
  for (const field of ['statusDate', 'followUpDate']) {
    const value = values[field];
    if (typeof value === 'string' && value < referred) throw fieldError(request, field, 'referral.beforeReferral', { field });
  }
}

/** The history holds at most HISTORY_MAX entries (schemas/entities/referrals.ts): past that, the
 * first (who referred the client) and the newest are kept; the audit log keeps every one. */
function bounded(history: StatusChange[]): StatusChange[] {
  return history.length <= HISTORY_MAX ? history : [history[0] as StatusChange, ...history.slice(history.length - HISTORY_MAX + 1)];
}

/**
 * The rules of one kind of referral: a new one starts `sent` (its first history entry); an
 * update may move the status forward only (nextStatuses), each move appended to the history
 * with who and when. The row is locked while the history is read, so two colleagues' changes
 * are both kept (or the second is refused as a stale edit by its `updatedAt`).
 */
function followUpHooks(entity: EntityShape, flow: StatusFlow): EntityHooks {
  const key = ident(entity.keyFields[0] as string);
  return {
    beforeCreate(values, request) {
      const first = flow.path[0] as string;
      if (values.status !== undefined && values.status !== first)
        throw fieldError(request, 'status', 'referral.startsSent', { status: first });
      assertNotBefore(request, values, values.date);
      values.status = first;
      values.statusDate = values.date;
      values.history = [statusChange(request, first, values.date, null)];
    },
    async beforeUpdate(values, current, request, tx) {
      const [locked] = await tx.query<{ status: string; history: StatusChange[] | null }>(
        `SELECT "status", "history" FROM ${ident(entity.table)} WHERE ${key} = $1 FOR UPDATE`,
        [current[entity.keyFields[0] as string]],
      );
      const status = locked?.status ?? String(current.status);
      assertNotBefore(request, values, values.date ?? current.date);
      const history = locked?.history ?? [];
      if (values.status === undefined || values.status === status) {
        // A follow-up without a new status is in the history too, with its note, when the note
        // changed (docs/adr/0048-first-day-screens.md "Every follow-up is in the referral's history too").
        const note = typeof values.feedback === 'string' ? values.feedback.trim() : '';
        if (note && note !== (typeof current.feedback === 'string' ? current.feedback.trim() : ''))
          values.history = bounded([...history, statusChange(request, status, new Date().toISOString().slice(0, 10), note)]);
        return;
      }
      const to = String(values.status);
      if (!nextStatuses(flow, status).includes(to)) throw fieldError(request, 'status', 'referral.statusBack', { from: status, to });
      values.statusDate ??= new Date().toISOString().slice(0, 10);
      values.history = bounded([...history, statusChange(request, to, values.statusDate, values.feedback ?? current.feedback)]);
    },
  };
}

export const referralHooks = followUpHooks(referral, REFERRAL_FLOW);
export const jobReferralHooks = followUpHooks(jobReferral, JOB_REFERRAL_FLOW);

// ---------------------------------------------------------------------------------------------
// List views: the referral with its client and its service or job
// ---------------------------------------------------------------------------------------------

interface ViewSql {
  view: EntityShape;
  base: EntityShape;
  flow: StatusFlow;
  /** SELECT list beyond the client's columns and the follow-up columns. */
  select: string;
  /** The joins after `FROM <base> r JOIN tbl_profiles p`. */
  joins: string;
  /** Filter name → SQL expression. */
  filters: Readonly<Record<string, string>>;
  /** Expressions the text search looks in. */
  search: readonly string[];
}

const CLIENT_NAME = `trim(coalesce(p."firstName", '') || ' ' || coalesce(p."lastName", ''))`;

function overdueSql(flow: StatusFlow): string {
  const open = [...flow.path, flow.refusal].filter((s) => isOpenStatus(flow, s)).map((s) => `'${s}'`);
  return `(r."followUpDate" IS NOT NULL AND r."followUpDate" < current_date AND r."status" IN (${open.join(', ')}))`;
}

const CLIENT_FILTERS = { status: 'r."status"', territory: 'p."territory"', location: 'coalesce(p."location", 0)', prof_Id: 'r."prof_Id"' };

const SERVICE_VIEW: ViewSql = {
  view: referralView,
  base: referral,
  flow: REFERRAL_FLOW,
  select: `r."ref_Id", r."sp_Detail_Id", s."name" AS "serviceName", sp."sp_Name" AS "providerName", s."category", s."serviceType", r."reason"`,
  joins: `LEFT JOIN "tbl_sp_detail" s ON s."sp_Detail_Id" = r."sp_Detail_Id" LEFT JOIN "tbl_serviceprovider" sp ON sp."sp_Id" = s."sp_Id"`,
  filters: { ...CLIENT_FILTERS, category: 's."category"', serviceType: 's."serviceType"', overdue: overdueSql(REFERRAL_FLOW) },
  search: [CLIENT_NAME, 'p."prof_Reg_No"', 's."name"', 'sp."sp_Name"', 'r."reason"', 'r."feedback"'],
};

const JOB_VIEW: ViewSql = {
  view: jobReferralView,
  base: jobReferral,
  flow: JOB_REFERRAL_FLOW,
  select: `r."jref_Id", r."jb_Id", j."title" AS "jobTitle", j."employer", j."sector"`,
  joins: `LEFT JOIN "available-jobs" j ON j."jb_Id" = r."jb_Id"`,
  filters: { ...CLIENT_FILTERS, sector: 'j."sector"', overdue: overdueSql(JOB_REFERRAL_FLOW) },
  search: [CLIENT_NAME, 'p."prof_Reg_No"', 'j."title"', 'j."employer"', 'r."note"', 'r."feedback"'],
};

async function searchView(db: Queryable, spec: ViewSql, query: ListRequest, request: FastifyRequest) {
  const where = new Conditions();
  const scope = scopeSql(spec.base, recordScope(request.user, spec.base, 'read'), where, 'r.');
  if (scope) where.add(scope);
  addLive(profile, where, 'p.'); // an erased client's referrals count in the statistics only
  for (const [name, expression] of Object.entries(spec.filters)) {
    const value = query[name];
    if (value !== undefined) where.add(`${expression} = ${where.param(value)}`);
  }
  const q = query.q?.trim();
  if (q) {
    const pattern = where.param(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.add(`(${spec.search.map((column) => `${column} ILIKE ${pattern}`).join(' OR ')})`);
  }
  if (query.dateFrom) where.add(`r."date" >= ${where.param(query.dateFrom)}::date`);
  if (query.dateTo) where.add(`r."date" <= ${where.param(query.dateTo)}::date`);
  const from = `FROM ${ident(spec.base.table)} r JOIN "tbl_profiles" p ON p."prof_Id" = r."prof_Id" ${spec.joins} ${where.sql}`;
  const key = ident(spec.base.keyFields[0] as string);
  const sort = ident(query.sort ?? spec.view.list?.defaultSort.field ?? 'date');
  const dir = (query.dir ?? 'desc') === 'desc' ? 'DESC' : 'ASC';
  const skipped = (Math.max(query.page, 1) - 1) * query.pageSize;
  const counted = await boundedCount(db, from, where.params, skipped + query.pageSize);
  const limit = where.param(query.pageSize);
  const offset = where.param(skipped);
  const rows = await db.query(
    `SELECT r."prof_Id", ${CLIENT_NAME} AS "clientName", p."prof_Reg_No", p."territory", p."location", ${spec.select},
       r."status", r."date", r."followUpDate", r."statusDate", ${spec.filters.overdue} AS "overdue", r."updatedAt"
     ${from} ORDER BY ${sort} ${dir} NULLS LAST, ${key} ${dir} LIMIT ${limit} OFFSET ${offset}`,
    where.params,
  );
  return { rows, ...counted, page: query.page, pageSize: query.pageSize };
}

export default async function referralsPlugin(instance: FastifyInstance, { db }: { db: Db }) {
  const app = typed(instance);
  for (const spec of [SERVICE_VIEW, JOB_VIEW]) {
    app.post(
      `/api${spec.base.rest as string}/search`,
      { schema: { body: listQuery(spec.view), response: { 200: pageSchema(spec.view) } }, config: { permission: spec.base.access.read } },
      (request) => searchView(db, spec, request.body, request),
    );
  }

  // Multipart (checked here): no body schema. The answer is the referral's row, as PUT /referral/{id}'s.
  const answer = { response: { 200: rowSchema(referral) } };
  app.put(
    '/api/referral/images/:id',
    { schema: { params: idParams, ...answer }, config: { permission: referral.access.write } },
    async (request) => {
      const { id } = request.params;
      if (!request.isMultipart()) throw new HttpError(415, 'http.mediaType');
      const { files } = await readMultipart(request, DOCUMENT_TYPES);
      if (!files.length) throw new HttpError(400, 'validation.required', { field: 'file' });
      return db.transaction(async (tx) => {
        // An erased client's referral: 410 http.clientErased (lib/records/rows.ts missingRecord).
        const current = await getRowOr404(tx, referral, id, writing(request.user), true);
        const attachments = [...((current.attachments as { name: string }[] | null) ?? [])];
        if (attachments.length + files.length > MAX_ATTACHMENTS)
          throw new HttpError(400, 'validation.maximum', { field: 'attachments', limit: MAX_ATTACHMENTS });
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
    },
  );
}
