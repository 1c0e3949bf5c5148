// The audit log's routes (ADR-0036): a record's history, the audit screen's pages and its CSV
// export (itself audited). Reads go through the organisation scope (schemas/scope.ts
// auditScope, and the record's own read scope for a history): what a user may not read does not
// exist for them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_INT, type EntityShape, type JsonSchema } from '../../../schemas/define';
import { PAGE_SIZES } from '../../../schemas/derive/json-schema';
import { date, integer, object, oneOf, text, withDefault, type SchemaValue } from '../../../schemas/derive/typed';
import { getEntity, user as userEntity } from '../../../schemas/index';
import { can } from '../../../schemas/roles';
import { auditScope, isPrivate, type RecordScope } from '../../../schemas/scope';
import type { Db, Row } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { Conditions, getRow, reading } from '../../lib/records';
import { typed } from '../../lib/typeProvider';
import { fileAnswer } from '../records/images';
import { asPerson } from '../users/read';
import { canRead } from '../users/scope';
import { findUserById } from '../users/store';
import { AUDIT_ACTIONS } from './actions';
import { allEntries, entryPage, writeAudit } from './entries';
import handoverPlugin from './handover';
import { keepRetention } from './retention';

const MAX_CSV_ROWS = 50_000;

const pageProperties = {
  page: withDefault(integer(1, 100_000), 1),
  pageSize: withDefault(oneOf('integer', PAGE_SIZES), 20),
};

const historyParams = object({ entity: text(40, 1), id: text(100, 1) }, ['entity', 'id'], { open: true });

const filterProperties = {
  userId: text(100, 1),
  location: integer(0, MAX_INT),
  entity: text(40, 1),
  recordId: text(100, 1),
  action: oneOf('string', AUDIT_ACTIONS),
  dateFrom: date(),
  dateTo: date(),
};

/** GET /audit/csv: the screen's filters. */
const csvQuery = object(filterProperties);
type AuditFilters = SchemaValue<typeof csvQuery>;

const entrySchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    deviceAt: { type: ['string', 'null'], format: 'date-time' },
    userId: { type: ['string', 'null'] },
    userName: { type: ['string', 'null'] },
    role: { type: ['integer', 'null'] },
    userLocation: { type: ['integer', 'null'] },
    location: { type: ['integer', 'null'] },
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    entity: { type: ['string', 'null'] },
    recordId: { type: ['string', 'null'] },
    clientId: { type: ['string', 'null'] },
    fields: { type: 'array', items: { type: 'string' } },
    changes: { type: ['object', 'null'], additionalProperties: true },
    note: { type: ['string', 'null'] },
  },
};

const entryPageSchema: JsonSchema = {
  type: 'object',
  properties: {
    rows: { type: 'array', items: entrySchema },
    total: { type: 'integer' },
    totalIsLowerBound: { type: 'boolean' },
    page: { type: 'integer' },
    pageSize: { type: 'integer' },
  },
};

/** The entries `scope` lets a reader see, narrowed by the screen's filters. */
export function auditConditions(scope: RecordScope, filters: AuditFilters, where = new Conditions()): Conditions {
  if (scope === 'none') return where.add('false');
  if (scope !== 'all') where.add(`a."location" = ${where.param(scope.organisation)}`);
  if (filters.userId) where.add(`a."userId" = ${where.param(filters.userId)}`);
  // Compared as stored, so that the organisation's index serves it (0: no organisation, NULL in older rows).
  if (filters.location === 0) where.add(`(a."location" = 0 OR a."location" IS NULL)`);
  else if (filters.location !== undefined) where.add(`a."location" = ${where.param(filters.location)}`);
  if (filters.entity) where.add(`a."entity" = ${where.param(filters.entity)}`);
  if (filters.recordId) where.add(`a."recordId" = ${where.param(filters.recordId)}`);
  if (filters.action) where.add(`a."action" = ${where.param(filters.action)}`);
  if (filters.dateFrom) where.add(`a."at" >= ${where.param(filters.dateFrom)}::date`);
  if (filters.dateTo) where.add(`a."at" < (${where.param(filters.dateTo)}::date + 1)`);
  return where;
}

/** As the record itself: 403 for a role the matrix refuses the record, 404 unless the user may
 * read the record whose history is asked. */
async function assertReadable(db: Db, request: FastifyRequest, entity: EntityShape, id: string): Promise<void> {
  const actor = request.user;
  if (entity === userEntity) {
    const own = id === actor.userId;
    if (!own && !can(actor.role, 'users.manage')) throw new HttpError(403, 'auth.forbidden');
    const target = await findUserById(db, id);
    if (target && (own || canRead(actor, asPerson(target as unknown as Row)))) return;
    throw new HttpError(404, 'http.recordNotFound');
  }
  if (!can(actor.role, entity.access.read)) throw new HttpError(403, 'auth.forbidden');
  if (entity.keyFields.length !== 1) throw new HttpError(404, 'http.recordNotFound');
  if (!(await getRow(db, entity, id, reading(actor)))) throw new HttpError(404, 'http.recordNotFound');
}

/** A record's entries: a client's are its own and those of every record that belongs to it. */
function historyConditions(entity: EntityShape, id: string): Conditions {
  const where = new Conditions();
  const key = where.param(id);
  const record = `(a."entity" = ${where.param(entity.name)} AND a."recordId" = ${key})`;
  // A client (the private root record) gathers the entries of its sub-records, files and referrals.
  return where.add(isPrivate(entity) && !entity.parent ? `(${record} OR a."clientId" = ${key})` : record);
}

const CSV_COLUMNS = [
  'at',
  'deviceAt',
  'userName',
  'role',
  'userLocation',
  'location',
  'action',
  'entity',
  'recordId',
  'fields',
  'note',
  'changes',
] as const;

/** One CSV cell: quoted, and a leading formula character defused (a spreadsheet must not run it). */
function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : value instanceof Date
        ? value.toISOString()
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function entriesCsv(rows: readonly Row[]): string {
  const lines = rows.map((row) =>
    CSV_COLUMNS.map((name) => csvCell(name === 'fields' ? (row.fields as string[]).join(' ') : row[name])).join(','),
  );
  return `\uFEFF${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}

export default async function auditPlugin(
  instance: FastifyInstance,
  { db, retentionDays, ownerUrl }: { db: Db; retentionDays: number; ownerUrl?: string },
) {
  const app = typed(instance);
  const stopRetention = keepRetention(db, retentionDays, (error) => app.log.error({ err: error }, 'audit retention: purge failed'));
  app.addHook('onClose', async () => stopRetention());

  app.get(
    '/api/history/:entity/:id',
    { schema: { params: historyParams, querystring: object(pageProperties, [], { open: true }), response: { 200: entryPageSchema } } },
    async (request) => {
      const { entity: name, id } = request.params;
      const { page, pageSize } = request.query;
      const entity = getEntity(name);
      if (!entity?.server) throw new HttpError(404, 'http.recordNotFound');
      await assertReadable(db, request, entity, id);
      return entryPage(db, historyConditions(entity, id), page, pageSize);
    },
  );

  const auditQuery = object({ ...pageProperties, ...filterProperties });
  app.get(
    '/api/audit',
    { schema: { querystring: auditQuery, response: { 200: entryPageSchema } }, config: { permission: 'audit.read' } },
    async (request) => {
      const query = request.query;
      return entryPage(db, auditConditions(auditScope(request.user), query), query.page, query.pageSize);
    },
  );

  const csv = fileAnswer(['text/csv'], 'The entries as CSV (UTF-8 with a byte order mark), at most 50,000');
  app.get(
    '/api/audit/csv',
    { schema: { querystring: csvQuery, response: csv }, config: { permission: 'audit.read' } },
    async (request, reply) => {
      const filters = request.query;
      const rows = await allEntries(db, auditConditions(auditScope(request.user), filters), MAX_CSV_ROWS);
      // The export is itself an entry: who took which part of the log, and how much.
      await writeAudit(db, { action: 'export', entity: 'audit', note: JSON.stringify({ ...filters, rows: rows.length }) });
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="icrs-audit-${day}.csv"`)
        .send(entriesCsv(rows));
    },
  );

  await app.register(handoverPlugin, { db, ownerUrl });
}
