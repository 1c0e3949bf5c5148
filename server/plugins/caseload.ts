// The caseload's routes (docs/api.md "Caseload"; docs/product.md §6.5.1): assigning
// clients to workers, pins ("keep on this device"), and a caseload's figures, as it is and with a
// proposed change. The rule itself is server/lib/records/caseload.ts; who may do what, the role
// matrix (schemas/roles.ts 'profiles.assign') and the organisation scope (schemas/scope.ts).
import type { FastifyInstance } from 'fastify';
import { profile, user as userEntity } from '../../schemas/index';
import { fieldValue, object, arrayOf } from '../../schemas/derive/typed';
import { can, PERMISSIONS } from '../../schemas/roles';
import { inScope, recordScope, type Actor } from '../../schemas/scope';
import type { Db, Queryable } from '../db/index';
import { HttpError } from '../lib/errors';
import { typed } from '../lib/typeProvider';
import { caseloadFigures, hasCaseload, MAX_ASSIGN, MAX_PINS, PINS_TABLE, type CaseloadOf } from '../lib/records/caseload';
import { writeAudit } from './audit/entries';

const clientId = fieldValue(profile.fields.prof_Id);
const userId = fieldValue(userEntity.fields.userId);

const assignBody = object({ clients: arrayOf(clientId, { minItems: 1, maxItems: MAX_ASSIGN }), to: userId }, ['clients', 'to']);
const assignAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['assigned', 'unchanged'],
  properties: { assigned: { type: 'integer' }, unchanged: { type: 'integer' } },
} as const;

const figures = {
  type: 'object',
  additionalProperties: false,
  required: [
    'clients',
    'candidates',
    'overflow',
    'bound',
    'pinned',
    'assigned',
    'territory',
    'outside',
    'outsideIsLowerBound',
    'rows',
    'megabytes',
  ],
  properties: {
    clients: { type: 'integer', description: 'Clients the device mirrors (within the bound).' },
    candidates: { type: 'integer', description: 'Clients the caseload rule takes in, before the bound.' },
    overflow: { type: 'integer', description: 'Clients of the caseload left out by the bound.' },
    bound: { type: 'integer' },
    pinned: { type: 'integer' },
    assigned: { type: 'integer' },
    territory: { type: 'integer' },
    outside: { type: 'integer', description: "Clients of the organisation not on the device (the offline list's count)." },
    outsideIsLowerBound: {
      type: 'boolean',
      description: 'True when there are more than `outside`: the organisation is counted up to the bound and LIST_COUNT_BOUND beyond it.',
    },
    rows: { type: 'integer', description: "Rows of the device's client tables." },
    megabytes: { type: 'number', description: 'Estimated size of those rows on the device.' },
  },
} as const;

const statusAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['caseload', 'figures', 'assignedClients'],
  properties: {
    caseload: { type: 'boolean', description: "True when the user's devices mirror a caseload (role 3), else the organisation's window." },
    figures,
    assignedClients: {
      type: 'integer',
      description: "Every client of the user's organisation assigned to them, whatever the bound keeps.",
    },
  },
} as const;

const previewBody = object(
  {
    userId,
    clients: arrayOf(clientId, { maxItems: MAX_ASSIGN }),
    territories: fieldValue(userEntity.fields.territories),
    from: userId,
  },
  ['userId'],
);
const previewAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['before', 'after', 'added'],
  properties: {
    before: figures,
    after: figures,
    added: {
      type: 'object',
      additionalProperties: false,
      required: ['clients', 'rows', 'megabytes'],
      properties: { clients: { type: 'integer' }, rows: { type: 'integer' }, megabytes: { type: 'number' } },
    },
  },
} as const;

const moveBody = object({ from: userId, to: userId }, ['from', 'to']);
const moveAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['moved', 'remaining'],
  properties: {
    moved: { type: 'integer' },
    remaining: { type: 'integer', description: 'Clients still assigned to `from` after this call (another call moves them).' },
  },
} as const;

const clientParams = object({ id: clientId }, ['id']);
const userParams = object({ id: userId }, ['id']);
const pinAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['pinned', 'prof_Id'],
  properties: { pinned: { type: 'boolean' }, prof_Id: { type: 'string' } },
} as const;

const workersAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['workers'],
  properties: {
    workers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['userId', 'name', 'location', 'caseload'],
        properties: {
          userId: { type: 'string' },
          name: { type: 'string' },
          location: { type: 'integer' },
          caseload: { type: 'boolean', description: "True when the user's devices mirror a caseload (role 3)." },
        },
      },
    },
  },
} as const;

const pinsAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['pins'],
  properties: { pins: { type: 'array', items: { type: 'string' } } },
} as const;

/** The roles a client may be assigned to: those that read clients (the role matrix). */
const WORKER_ROLES: readonly number[] = PERMISSIONS['profiles.read'];

interface Worker extends Record<string, unknown> {
  userId: string;
  role: number;
  location: number;
  active: boolean;
}

async function findWorker(db: Queryable, id: string): Promise<Worker | undefined> {
  const [row] = await db.query<Worker>(`SELECT "userId", "role", "location", "active" FROM "users" WHERE "userId" = $1`, [id]);
  return row;
}

/** The user whose caseload `actor` may see: themself; for those who assign, a user of their
 * organisation (role 1: anyone). Anyone else: 404, as if not there. */
async function visibleWorker(db: Queryable, actor: Actor & { userId: string }, id: string): Promise<Worker> {
  const target = await findWorker(db, id);
  const mine = target?.userId === actor.userId;
  const manages = can(actor.role, 'profiles.assign') && (actor.role === 1 || (actor.location !== 0 && target?.location === actor.location));
  if (!target || !(mine || manages)) throw new HttpError(404, 'caseload.userNotFound');
  return target;
}

/** The live clients assigned to `worker` in their organisation (the caseload's own rule: a
 * client of another organisation is never on their device). */
const HELD = `FROM "tbl_profiles" WHERE "assignedTo" = $1 AND "location" = $2 AND "erasedAt" IS NULL`;

async function heldCount(db: Queryable, worker: Worker): Promise<number> {
  const [row] = await db.query<{ count: number }>(`SELECT count(*)::int AS "count" ${HELD}`, [worker.userId, worker.location]);
  return row?.count ?? 0;
}

/** True when `worker` may be given clients of `organisation`: active, of that organisation, of a
 * role that works with clients (the role matrix). */
const mayReceive = (worker: Worker | undefined, organisation: number): worker is Worker =>
  !!worker && worker.active && worker.location === organisation && can(worker.role, 'profiles.read');

const ofWorker = (worker: Worker, change: Partial<CaseloadOf> = {}): CaseloadOf => ({
  userId: worker.userId,
  organisation: worker.location,
  ...change,
});

export default async function caseloadPlugin(instance: FastifyInstance, { db, bound }: { db: Db; bound: number }) {
  const app = typed(instance);

  // Assigns clients (up to MAX_ASSIGN) to one worker of their organisation, all or none: each
  // client's change is its own audit entry ('assign', from whom to whom), in this transaction.
  app.post(
    '/api/profile/assign',
    { schema: { body: assignBody, response: { 200: assignAnswer } }, config: { permission: 'profiles.assign' } },
    async (request) => {
      const ids = [...new Set(request.body.clients)];
      const scope = recordScope(request.user, profile, 'write');
      return db.transaction(async (tx) => {
        const found = await tx.query<{ id: string; location: number | null; assignedTo: string | null }>(
          `SELECT "prof_Id" AS "id", "location", "assignedTo" FROM "tbl_profiles" WHERE "prof_Id" = ANY($1::text[]) AND "erasedAt" IS NULL FOR UPDATE`,
          [ids],
        );
        const mine = found.filter((c) => inScope(scope, c.location));
        if (mine.length !== ids.length) throw new HttpError(404, 'caseload.clientsNotFound', { count: ids.length - mine.length });
        const organisations = new Set(mine.map((c) => c.location ?? 0));
        if (organisations.size > 1) throw new HttpError(400, 'caseload.mixedOrganisations');
        const [organisation] = [...organisations];
        const worker = await findWorker(tx, request.body.to);
        if (!mayReceive(worker, organisation ?? 0)) throw new HttpError(400, 'caseload.badAssignee');
        // Not an edit of the client: the record keeps its time (and last editor), so that an
        // edit waiting on a device uploads without a conflict (docs/adr/0017-caseload.md "The
        // caseload"). The audit entry names the caller (the transaction's actor); the
        // organisation's streams hear of it (the row's change trigger).
        const moved = await tx.query(
          `UPDATE "tbl_profiles" SET "assignedTo" = $1
           WHERE "prof_Id" = ANY($2::text[]) AND "assignedTo" IS DISTINCT FROM $1 RETURNING "prof_Id"`,
          [worker.userId, ids],
        );
        return { assigned: moved.length, unchanged: ids.length - moved.length };
      });
    },
  );

  // Moves the clients assigned to one worker to another of the same organisation (a worker who
  // leaves or changes post: docs/adr/0017-caseload.md "Role 7 moves a worker's caseload"), at
  // most MAX_ASSIGN per call, in one transaction, each client its own audit entry ('assign', the
  // profile's trigger) as for a chosen list. Those who assign without reading clients (role 7)
  // name the worker, never the clients. The answer says how many remain for the next call.
  app.post(
    '/api/caseload/move',
    { schema: { body: moveBody, response: { 200: moveAnswer } }, config: { permission: 'profiles.assign' } },
    async (request) => {
      const { from, to } = request.body;
      if (from === to) throw new HttpError(400, 'caseload.sameWorker');
      const scope = recordScope(request.user, profile, 'write');
      return db.transaction(async (tx) => {
        const giver = await visibleWorker(tx, request.user, from);
        if (!inScope(scope, giver.location)) throw new HttpError(404, 'caseload.userNotFound');
        if (!mayReceive(await findWorker(tx, to), giver.location)) throw new HttpError(400, 'caseload.badAssignee');
        const batch = await tx.query<{ prof_Id: string }>(`SELECT "prof_Id" ${HELD} ORDER BY "prof_Id" LIMIT ${MAX_ASSIGN} FOR UPDATE`, [
          giver.userId,
          giver.location,
        ]);
        const ids = batch.map((c) => c.prof_Id);
        // Not an edit of the client, as for the assignment above (docs/adr/0017-caseload.md
        // "The caseload"): the row keeps its time and last editor.
        const moved = ids.length
          ? await tx.query(`UPDATE "tbl_profiles" SET "assignedTo" = $1 WHERE "prof_Id" = ANY($2::text[]) RETURNING "prof_Id"`, [to, ids])
          : [];
        return { moved: moved.length, remaining: await heldCount(tx, giver) };
      });
    },
  );

  // Who a client may be assigned to, for the client list's "Assigned to …" filter and the
  // assignment's picker: the active users of the caller's organisation whose role works with
  // clients (the same rule as the assignment's), by name; role 1 without an organisation, those
  // of every organisation (each with its own). Not the users' records: a name and an id.
  app.get(
    '/api/caseload/workers',
    { schema: { response: { 200: workersAnswer } }, config: { permission: 'caseload.workers' } },
    async (request) => {
      // Role 7 reads no client but assigns its organisation's: its 'read' scope of the profiles
      // is that organisation, as for those who read them.
      const scope = recordScope(request.user, profile, 'read');
      if (scope === 'none') return { workers: [] };
      const params: unknown[] = [WORKER_ROLES];
      const organisation = scope === 'all' ? '' : `AND "location" = $${params.push(scope.organisation)}`;
      const rows = await db.query<{ userId: string; userName: string; fullName: string | null; location: number; role: number }>(
        `SELECT "userId", "userName", "fullName", "location", "role" FROM "users"
       WHERE "active" AND "role" = ANY($1::int[]) AND "location" <> 0 ${organisation}
       ORDER BY lower(coalesce(nullif(trim("fullName"), ''), "userName")), "userId"`,
        params,
      );
      return {
        workers: rows.map((u) => ({
          userId: u.userId,
          name: u.fullName?.trim() || u.userName,
          location: u.location,
          caseload: hasCaseload({ role: u.role, location: u.location }),
        })),
      };
    },
  );

  // The clients the caller keeps on their devices (at most MAX_PINS), for a client's page to say
  // "Keep on this device" or "Remove from this device".
  app.get('/api/caseload/pins', { schema: { response: { 200: pinsAnswer } }, config: { permission: 'profiles.read' } }, async (request) => {
    const rows = await db.query<{ prof_Id: string }>(`SELECT "prof_Id" FROM ${PINS_TABLE} WHERE "userId" = $1 ORDER BY "createdAt"`, [
      request.user.userId,
    ]);
    return { pins: rows.map((r) => r.prof_Id) };
  });

  // Pins: "keep on this device". Any user who reads clients pins those they may read; only a
  // caseload's device mirrors differently for it. The organisation's devices are told at once.
  const pin = (pinned: boolean) => async (request: { params: { id: string }; user: Actor & { userId: string } }) => {
    const { id } = request.params;
    return db.transaction(async (tx) => {
      const [client] = await tx.query<{ location: number | null }>(
        `SELECT "location" FROM "tbl_profiles" WHERE "prof_Id" = $1 AND "erasedAt" IS NULL`,
        [id],
      );
      if (!client || !inScope(recordScope(request.user, profile, 'read'), client.location)) throw new HttpError(404, 'http.recordNotFound');
      if (pinned) {
        const [{ count } = { count: 0 }] = await tx.query<{ count: number }>(
          `SELECT count(*)::int AS "count" FROM ${PINS_TABLE} WHERE "userId" = $1 AND "prof_Id" <> $2`,
          [request.user.userId, id],
        );
        if (count >= MAX_PINS) throw new HttpError(400, 'caseload.tooManyPins', { max: MAX_PINS });
      }
      const changed = pinned
        ? await tx.query(`INSERT INTO ${PINS_TABLE} ("userId", "prof_Id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`, [
            request.user.userId,
            id,
          ])
        : await tx.query(`DELETE FROM ${PINS_TABLE} WHERE "userId" = $1 AND "prof_Id" = $2 RETURNING 1`, [request.user.userId, id]);
      if (changed.length) {
        await writeAudit(tx, { action: pinned ? 'pin' : 'unpin', entity: profile.name, recordId: id, location: client.location ?? null });
        await tx.query(`SELECT pg_notify('icrs_changes', $1)`, [`${profile.table}:${client.location ?? 0}`]);
      }
      return { pinned, prof_Id: id };
    });
  };
  const pinRoute = { schema: { params: clientParams, response: { 200: pinAnswer } }, config: { permission: 'profiles.read' } } as const;
  app.put('/api/caseload/pins/:id', pinRoute, pin(true));
  app.delete('/api/caseload/pins/:id', pinRoute, pin(false));

  /** The caseload of user `id` as `actor` may see it: whether it has one, its figures, how
   * many clients it holds. */
  const caseloadStatus = async (actor: Actor & { userId: string }, id: string) => {
    const worker = await visibleWorker(db, actor, id);
    return {
      caseload: hasCaseload(worker),
      figures: await caseloadFigures(db, ofWorker(worker), bound),
      assignedClients: await heldCount(db, worker),
    };
  };

  // The signed-in user's caseload, as the device reads it at sync: what it mirrors, what the
  // bound left out, and how many of the organisation's clients are not on it.
  app.get('/api/caseload', { schema: { response: { 200: statusAnswer } }, config: { permission: 'profiles.read' } }, (request) =>
    caseloadStatus(request.user, request.user.userId),
  );

  // Another user's caseload, for those who assign (the administrator's mirror size).
  app.get(
    '/api/caseload/users/:id',
    { schema: { params: userParams, response: { 200: statusAnswer } }, config: { permission: 'profiles.assign' } },
    (request) => caseloadStatus(request.user, request.params.id),
  );

  // What a proposed assignment (clients, or every client of another worker: `from`, the move
  // above) or territory change would do to a user's device.
  app.post(
    '/api/caseload/preview',
    { schema: { body: previewBody, response: { 200: previewAnswer } }, config: { permission: 'profiles.assign' } },
    async (request) => {
      const worker = await visibleWorker(db, request.user, request.body.userId);
      const { territories } = request.body;
      const clients = [...(request.body.clients ?? [])];
      if (request.body.from) {
        const giver = await visibleWorker(db, request.user, request.body.from);
        if (giver.location === worker.location) {
          const held = await db.query<{ prof_Id: string }>(`SELECT "prof_Id" ${HELD}`, [giver.userId, giver.location]);
          clients.push(...held.map((c) => c.prof_Id));
        }
      }
      const before = await caseloadFigures(db, ofWorker(worker), bound);
      const after = await caseloadFigures(db, ofWorker(worker, { assign: clients, territories: territories ?? undefined }), bound);
      const round = (n: number) => Math.round(n * 100) / 100;
      return {
        before,
        after,
        added: {
          clients: after.clients - before.clients,
          rows: after.rows - before.rows,
          megabytes: round(after.megabytes - before.megabytes),
        },
      };
    },
  );
}
